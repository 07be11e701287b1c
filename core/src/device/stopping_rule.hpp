// When a result's timing has measured enough: the 95% interval of its median within `precision` of the
// median, bounded by the least and the most repetitions and the most GPU time.
#pragma once

#include <optional>
#include <vector>

#include "labfile/run_profile.hpp"
#include "results/result.hpp"

namespace cudalab::host {

/// The bounds and the precision one result is timed to ([measure] repetitions, max_repetitions,
/// max_time_ms, precision_pct).
struct stopping_rule {
  int least = 6;             ///< repetitions before the precision may stop it
  int most = 100;            ///< repetitions at most (never below `least`)
  double max_ms = 1000;      ///< GPU time of the repetitions together, at most (ms)
  double precision = 0.005;  ///< the interval's ends within this fraction of the median; 0: never precise

  /// The rule [measure] gives: most = max(repetitions, max_repetitions), precision_pct / 100.
  static stopping_rule of(const measure_settings& settings);
};

/// Whether to stop after the repetitions `repetition_ms` (each one's mean time per launch, in the order they
/// ran), which took `spent_ms` of GPU time together: max_repetitions once there are `most`; max_time once the
/// time is spent (even below `least`: a run's length is bounded); precise once there are at least `least`
/// and the 95% interval of the median (median_interval.hpp, from 6 repetitions on) lies within `precision`
/// of the median on both sides. nullopt: run another repetition.
/// REQUIRES: every repetition time finite and positive.
std::optional<stop_reason> should_stop(const stopping_rule& rule, const std::vector<double>& repetition_ms,
                                       double spent_ms);

}  // namespace cudalab::host
