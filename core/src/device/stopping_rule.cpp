// The stopping rule: the bounds first, then the median's interval against the precision.
#include "device/stopping_rule.hpp"

#include <algorithm>

#include "results/median_interval.hpp"

namespace cudalab::host {

stopping_rule stopping_rule::of(const measure_settings& settings) {
  stopping_rule rule;
  rule.least = std::max(1, settings.repetitions);
  rule.most = std::max(rule.least, settings.max_repetitions);
  rule.max_ms = settings.max_time_ms;
  rule.precision = settings.precision_pct / 100.0;
  return rule;
}

std::optional<stop_reason> should_stop(const stopping_rule& rule, const std::vector<double>& repetition_ms,
                                       double spent_ms) {
  const int n = int(repetition_ms.size());
  if (n >= rule.most) return stop_reason::max_repetitions;
  if (n >= 1 && spent_ms >= rule.max_ms) return stop_reason::max_time;
  if (n < rule.least || !(rule.precision > 0)) return std::nullopt;
  const std::optional<median_interval> interval = interval_of_median(repetition_ms);
  if (!interval) return std::nullopt;
  const double median = interval->median_ms;
  const double reach = rule.precision * median;
  if (median - interval->lo_ms <= reach && interval->hi_ms - median <= reach) return stop_reason::precise;
  return std::nullopt;
}

}  // namespace cudalab::host
