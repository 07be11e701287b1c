// Axes: value placement, round ticks and y ranges for the plots.
#include "results/plot_axis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "labfile/values.hpp"
#include "results/format.hpp"

namespace cudalab::host {

namespace {

// A swept value as a number (0 for one that is not: the axis is categorical then).
double number(const std::string& s) { return number_in(s).value_or(0); }

// The round step (1, 2, 2.5 or 5 times a power of 10) nearest above `raw`.
double round_step(double raw) {
  if (!(raw > 0)) return 1;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0})
    if (m * power >= raw * (1 - 1e-9)) return m * power;
  return 10 * power;
}

}  // namespace

sweep_x_axis::sweep_x_axis(std::vector<std::string> values, const std::string& spacing) : values_(std::move(values)) {
  const bool numeric = !values_.empty() && std::all_of(values_.begin(), values_.end(),
                                                       [](const std::string& s) { return number_in(s).has_value(); });
  if (!numeric) {
    kind_ = axis_kind::category;
    lo_ = 0;
    hi_ = double(std::max<std::size_t>(values_.size(), 2) - 1);
    return;
  }
  std::stable_sort(values_.begin(), values_.end(),
                   [](const std::string& a, const std::string& b) { return number(a) < number(b); });
  lo_ = number(values_.front());
  hi_ = number(values_.back());
  if (spacing == "factor")
    kind_ = axis_kind::log;
  else if (spacing == "step")
    kind_ = axis_kind::linear;
  else
    kind_ = lo_ > 0 && hi_ / lo_ > 30 ? axis_kind::log : axis_kind::linear;
  if (kind_ == axis_kind::log && !(lo_ > 0)) kind_ = axis_kind::linear;  // a factor range starts above 0
}

double sweep_x_axis::fraction(const std::string& value) const {
  if (kind_ == axis_kind::category) {
    if (values_.size() < 2) return 0.5;
    const auto at = std::find(values_.begin(), values_.end(), value);
    return double(at - values_.begin()) / hi_;
  }
  if (hi_ == lo_) return 0.5;
  const double v = number(value);
  if (kind_ == axis_kind::log) return (std::log(v) - std::log(lo_)) / (std::log(hi_) - std::log(lo_));
  return (v - lo_) / (hi_ - lo_);
}

double y_axis::fraction(double v) const {
  if (!(hi > lo)) return 0.5;
  if (!log) return (v - lo) / (hi - lo);
  return v > 0 ? (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo)) : 0.0;
}

bool spans_decades(double lo, double hi) { return lo > 0 && std::isfinite(hi) && hi >= 20 * lo; }

y_axis fit_log_y_axis(double lo, double hi) {
  y_axis a;
  a.log = true;
  a.from_zero = false;
  const int first = int(std::floor(std::log10(lo) + 1e-9)), last = int(std::ceil(std::log10(hi) - 1e-9));
  a.lo = std::pow(10.0, first);
  a.hi = std::pow(10.0, std::max(last, first + 1));
  const bool fine = last - first <= 2;
  for (int e = first; e <= std::max(last, first + 1); ++e) {
    const double power = std::pow(10.0, e);
    a.ticks.push_back(power);
    if (fine && e < std::max(last, first + 1))
      for (double m : {2.0, 5.0}) a.ticks.push_back(m * power);
  }
  return a;
}

y_axis fit_y_axis(double lo, double hi, bool zero) {
  y_axis a;
  if (!(hi > 0) || !std::isfinite(hi)) {
    a.ticks = {0, 0.25, 0.5, 0.75, 1};
    return a;
  }
  lo = std::max(0.0, std::isfinite(lo) ? std::min(lo, hi) : 0.0);
  a.from_zero = zero || lo < 0.5 * hi;
  if (a.from_zero) lo = 0;
  // Room around the data so that markers and error bars do not sit on the frame. Values a rounding apart
  // (the same time twice, through different arithmetic) count as one: a step of their difference would be
  // below the values' precision, and the ticks would never reach the top.
  const double pad = hi - lo > 1e-9 * hi ? 0.06 * (hi - lo) : 0.05 * hi;
  const double top = hi + pad, bottom = a.from_zero ? 0.0 : std::max(0.0, lo - pad);
  const double step = round_step((top - bottom) / 5);
  a.lo = std::floor(bottom / step + 1e-9) * step;
  a.hi = std::ceil(top / step - 1e-9) * step;
  if (a.lo == 0) a.from_zero = true;
  // Each tick from its index, not from the one before: k additions would round k times.
  for (int k = 0;; ++k) {
    const double v = a.lo + k * step;
    if (!(v <= a.hi + step * 1e-6)) break;
    a.ticks.push_back(std::abs(v) < step * 1e-9 ? 0 : v);
  }
  return a;
}

std::string tick_text(double value, double step) {
  int decimals = 0;
  while (decimals < 6 && std::abs(step * std::pow(10.0, decimals) - std::round(step * std::pow(10.0, decimals))) >
                             1e-6 * std::pow(10.0, decimals))
    ++decimals;
  return fmt::format("{:.{}f}", value, decimals);
}

std::string size_text(const std::string& s) {
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (end == s.c_str() || *end != '\0') return s;
  const std::string sized = size_suffix_text(v);
  return sized.empty() ? s : sized;
}

}  // namespace cudalab::host
