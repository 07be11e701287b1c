// Plot axes: where a value lands on an axis (linear, logarithmic, or by position for values that are
// not numbers), round tick values, and a value range that shows small differences.
#pragma once

#include <string>
#include <vector>

namespace cudalab::host {

/// How an axis places values.
enum class axis_kind {
  linear,
  log,       ///< logarithmic: equal ratios take equal room
  category,  ///< by position in the list of values: for values that are not all numbers
};

/// The x axis of a sweep plot: the swept values and where each lands, as a fraction 0..1 of the width.
class sweep_x_axis {
 public:
  /// The axis for `values` (as value_text writes them) of a sweep written with `spacing` ("list", "step",
  /// "factor", or "" when not known): a factor range is logarithmic, a step range linear; a list is
  /// logarithmic when its values are positive numbers spanning more than 30x, else linear; any value that
  /// is not a number makes the axis categorical. The values are kept in ascending order (by number).
  sweep_x_axis(std::vector<std::string> values, const std::string& spacing);

  axis_kind kind() const { return kind_; }
  /// The values, left to right.
  const std::vector<std::string>& values() const { return values_; }
  /// Where `value` lands, 0 (left) to 1 (right); 0.5 for a single value.
  double fraction(const std::string& value) const;

 private:
  axis_kind kind_ = axis_kind::category;
  std::vector<std::string> values_;
  double lo_ = 0, hi_ = 1;
};

/// A y axis: its range and round ticks from its lower end to its upper one.
struct y_axis {
  double lo = 0, hi = 1;
  std::vector<double> ticks;
  bool from_zero = true;  ///< false when the range starts above 0 to show small differences
  bool log = false;       ///< logarithmic: equal ratios take equal room (lo > 0)
  /// Where `v` lands, 0 (bottom) to 1 (top); on a log axis, a value not above 0 lands at the bottom.
  double fraction(double v) const;
};

/// A y axis for data between `lo` and `hi` (>= 0): from 0 when `zero` says so or the data come within
/// half their top of it, else from a round value below `lo`, so that a 3% difference at 2900 GB/s is not
/// a hair's width; about 5 round ticks (1, 2, 2.5 or 5 times a power of 10).
y_axis fit_y_axis(double lo, double hi, bool zero = false);

/// Whether data between `lo` and `hi` span enough to be drawn on a log axis: both above 0 and `hi` at
/// least 20 times `lo` (more than a decade and a quarter), where a linear axis crushes the small values
/// against 0 (% of a baseline from 1% to 1000%).
bool spans_decades(double lo, double hi);

/// A logarithmic y axis for data between `lo` and `hi` (0 < lo <= hi): from the power of 10 at or below
/// `lo` to the one at or above `hi`, a tick at each power of 10, and at 2 and 5 times each as well when
/// the range is at most two decades.
y_axis fit_log_y_axis(double lo, double hi);

/// A tick's text with as many decimals as the tick step needs: 2500, 0.25, 12.5.
std::string tick_text(double value, double step);

/// A swept value as an axis label: whole multiples of 1024 as sizes ("64Mi"), as lab files write
/// them; anything else as it is.
std::string size_text(const std::string& value);

}  // namespace cudalab::host
