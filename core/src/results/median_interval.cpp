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

}  // namespace

std::optional<median_interval> interval_of_median(const timing& t) {
  if (!t.timed) return std::nullopt;
  std::vector<double> reps;
  for (double ms : t.repetition_ms)
    if (std::isfinite(ms)) reps.push_back(ms);
  const int n = int(reps.size());
  // The largest k with P(X < k) <= 2.5%: [x_k, x_(n+1-k)] then holds the median with >= 95%.
  int k = 0;
  double below = 0;
  while (k < n / 2 && below + half_binomial(n, k) <= 0.025) below += half_binomial(n, k++);
  if (k == 0) return median_interval{t.min_ms, t.max_ms, 0, n};
  std::sort(reps.begin(), reps.end());
  return median_interval{reps[std::size_t(k - 1)], reps[std::size_t(n - k)], 1 - 2 * below, n};
}

}  // namespace cudalab::host
