// The median's interval from order statistics: the binomial's tails choose which repetitions bound it.
#include "results/median_interval.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace cudalab::host {

namespace {

// P(X = i) for X ~ Binomial(n, 1/2), through logarithms so that large n neither overflows nor underflows.
double half_binomial(int n, int i) {
  return std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) - n * std::log(2.0));
}

double median_of_sorted(const std::vector<double>& v) {
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

std::optional<median_interval> interval_of_median(std::vector<double> reps) {
  const int n = int(reps.size());
  // The largest k with P(X < k) <= 2.5%: [x_k, x_(n+1-k)] then holds the median with >= 95%.
  int k = 0;
  double below = 0;
  while (k < n / 2 && below + half_binomial(n, k) <= 0.025) below += half_binomial(n, k++);
  if (k == 0) return std::nullopt;
  std::sort(reps.begin(), reps.end());
  return median_interval{reps[std::size_t(k - 1)], reps[std::size_t(n - k)], median_of_sorted(reps), 1 - 2 * below, n};
}

std::optional<median_interval> interval_of_median(const timing& t) {
  if (!t.timed) return std::nullopt;
  std::vector<double> reps;
  for (double ms : t.repetition_ms)
    if (std::isfinite(ms)) reps.push_back(ms);
  std::optional<median_interval> computed = interval_of_median(reps);
  if (t.has_interval()) {
    // What the stopping rule saw; its confidence is the one the same repetitions give.
    median_interval recorded{t.interval_lo_ms, t.interval_hi_ms, t.median_ms, 0.95, int(reps.size())};
    if (computed) recorded.confidence = computed->confidence;
    return recorded;
  }
  if (computed) {
    computed->median_ms = t.median_ms;
    return computed;
  }
  return median_interval{t.min_ms, t.max_ms, t.median_ms, 0, int(reps.size())};
}

}  // namespace cudalab::host
