// The Mann-Whitney U test: midranks for ties, the exact null distribution of U by counting for small
// samples, the normal approximation (Boost.Math) otherwise.
#include "compare/significance.hpp"

#include <boost/math/distributions/normal.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cudalab::host {
namespace {

// How many of the C(m + n, m) orders of m base and n new values give each U = 0 .. m*n, when no two are
// equal: f(m, n)[u] = f(m - 1, n)[u - n] + f(m, n - 1)[u] (the largest value is a base one, above all n new
// values, or a new one, above none of the base), built one base value at a time.
std::vector<double> u_counts(std::size_t m, std::size_t n) {
  std::vector<std::vector<double>> row(n + 1, std::vector<double>{1.0});  // f(0, j): only U = 0
  for (std::size_t i = 1; i <= m; ++i) {
    std::vector<std::vector<double>> next(n + 1);
    next[0] = {1.0};  // f(i, 0)
    for (std::size_t j = 1; j <= n; ++j) {
      std::vector<double>& f = next[j];
      f.assign(i * j + 1, 0.0);
      for (std::size_t u = 0; u < row[j].size(); ++u) f[u + j] += row[j][u];
      for (std::size_t u = 0; u < next[j - 1].size(); ++u) f[u] += next[j - 1][u];
    }
    row = std::move(next);
  }
  return row[n];
}

double exact_p(double u, std::size_t m, std::size_t n) {
  const std::vector<double> counts = u_counts(m, n);
  const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
  // U's distribution is symmetric about m*n/2: the two tails are those of the nearer side, doubled.
  const double tail_u = std::min(u, double(m * n) - u);
  double tail = 0;
  for (std::size_t k = 0; k < counts.size() && double(k) <= tail_u + 1e-9; ++k) tail += counts[k];
  return std::min(1.0, 2.0 * tail / total);
}

}  // namespace

const char* u_test_method_name(u_test_method m) { return m == u_test_method::exact ? "exact" : "normal"; }

u_test mann_whitney_u(const std::vector<double>& base, const std::vector<double>& next) {
  const std::size_t m = base.size(), n = next.size(), total = m + n;
  // Every value with its sample, ranked together; equal values share their mean rank.
  std::vector<std::pair<double, bool>> all;  // value, from base
  all.reserve(total);
  for (double v : base) all.emplace_back(v, true);
  for (double v : next) all.emplace_back(v, false);
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  double base_rank_sum = 0, tie_term = 0;  // tie_term: sum of t^3 - t over groups of t equal values
  for (std::size_t i = 0; i < total;) {
    std::size_t j = i;
    while (j < total && all[j].first == all[i].first) ++j;
    const double t = double(j - i), mid_rank = (double(i + 1) + double(j)) / 2;
    for (std::size_t k = i; k < j; ++k)
      if (all[k].second) base_rank_sum += mid_rank;
    tie_term += t * t * t - t;
    i = j;
  }

  u_test r;
  r.base_count = m;
  r.new_count = n;
  r.u = base_rank_sum - double(m) * double(m + 1) / 2;
  if (tie_term == 0 && m <= exact_u_test_max_count && n <= exact_u_test_max_count) {
    r.method = u_test_method::exact;
    r.p = exact_p(r.u, m, n);
    return r;
  }
  r.method = u_test_method::normal;
  const double mn = double(m) * double(n), big_n = double(total);
  const double variance = mn / 12 * ((big_n + 1) - tie_term / (big_n * (big_n - 1)));
  if (!(variance > 0)) return r;  // every value equal: nothing tells the samples apart, p = 1
  r.z = std::max(0.0, (std::abs(r.u - mn / 2) - 0.5) / std::sqrt(variance));
  const boost::math::normal_distribution<double> standard_normal(0.0, 1.0);
  r.p = std::min(1.0, 2 * boost::math::cdf(boost::math::complement(standard_normal, r.z)));
  return r;
}

double smallest_exact_p(std::size_t base_count, std::size_t new_count) {
  // 2 / C(n1 + n2, n1), built as a product so that it never overflows.
  double p = 2;
  const std::size_t k = std::min(base_count, new_count), total = base_count + new_count;
  for (std::size_t i = 1; i <= k; ++i) p *= double(i) / double(total - k + i);
  return std::min(1.0, p);
}

}  // namespace cudalab::host
