// Whether two runs' repetition times differ by more than noise: the Mann-Whitney U test (Wilcoxon
// rank-sum), which assumes no distribution of the times, only that the repetitions are independent.
#pragma once

#include <cstddef>
#include <vector>

namespace cudalab::host {

/// How the p-value was found: the exact distribution of U (no ties, both samples at most
/// exact_u_test_max_count values), or its normal approximation with the tie and continuity corrections.
enum class u_test_method { exact, normal };

/// "exact" or "normal": the names the compare reports use.
const char* u_test_method_name(u_test_method m);

/// Samples up to this size, without ties, get the exact p-value.
inline constexpr std::size_t exact_u_test_max_count = 50;

/// The outcome of a Mann-Whitney U test of a base sample against a new one.
struct u_test {
  double u = 0;  ///< U of the base sample: the (base, new) pairs where base is the larger, a tie counting 1/2
  double z = 0;  ///< the normal approximation's z (with the continuity correction, >= 0); 0 for exact
  double p =
      1;  ///< two-sided p-value: how likely a difference at least this large is when both come from one distribution
  u_test_method method = u_test_method::exact;
  std::size_t base_count = 0, new_count = 0;
};

/// The two-sided Mann-Whitney U test of `base` against `next` (times in any unit, the same for both).
/// REQUIRES: both non-empty, every value finite.
u_test mann_whitney_u(const std::vector<double>& base, const std::vector<double>& next);

/// The smallest two-sided p-value the exact test can give for samples of these sizes, 2 / C(n1 + n2, n1)
/// (at most 1): with 3 repetitions each it is 0.1, so no difference of 3 against 3 is significant at 0.05.
double smallest_exact_p(std::size_t base_count, std::size_t new_count);

}  // namespace cudalab::host
