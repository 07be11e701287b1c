// How sure a result's median time is: a confidence interval of the median from the repetitions' own
// order (no distribution assumed), or their range where there are too few for one.
#pragma once

#include <optional>

#include "results/result.hpp"

namespace cudalab::host {

/// Where a median time lies, in milliseconds per launch.
struct median_interval {
  double lo_ms = 0, hi_ms = 0;
  /// The interval's confidence (0.95 or a little more), or 0 when it is the repetitions' range
  /// (fewer than 6 repetitions, where no order statistics reach 95%, or none kept).
  double confidence = 0;
  int repetitions = 0;  ///< how many it comes from
};

/// The interval of `t`'s median: the k-th smallest and k-th largest repetition, k the largest for which
/// at most 2.5% of a Binomial(n, 1/2) lies below k (k = 2 of 10, 6 of 30: at least 95% that the true
/// median lies between), from 6 repetitions on; below that, or without repetition times, the slowest and
/// the fastest (min_ms, max_ms). nullopt for a result that was not timed.
std::optional<median_interval> interval_of_median(const timing& t);

}  // namespace cudalab::host
