// The Mann-Whitney U test against values worked out by hand or by enumerating every split of the
// pooled values (exact), and against the normal approximation's formula (ties, large samples).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "compare/significance.hpp"

namespace cudalab::host {
namespace {

TEST(CompareSignificance, IdenticalSamplesAreNotSignificant) {
  const std::vector<double> a = {1.0, 2.0, 3.0, 4.0, 5.0};
  const u_test t = mann_whitney_u(a, a);
  EXPECT_EQ(t.method, u_test_method::normal);  // every value is tied with its twin
  EXPECT_DOUBLE_EQ(t.u, 12.5);                 // half of the 25 pairs
  EXPECT_DOUBLE_EQ(t.p, 1.0);
}

TEST(CompareSignificance, AllValuesEqualGiveOne) {
  const u_test t = mann_whitney_u({2.0, 2.0, 2.0}, {2.0, 2.0});
  EXPECT_DOUBLE_EQ(t.p, 1.0);
  EXPECT_DOUBLE_EQ(t.u, 3.0);
}

TEST(CompareSignificance, ClearlyShiftedSamplesAreSignificant) {
  std::vector<double> base, next;
  for (int i = 1; i <= 10; ++i) {
    base.push_back(i);
    next.push_back(i + 10);
  }
  const u_test t = mann_whitney_u(base, next);
  EXPECT_EQ(t.method, u_test_method::exact);
  EXPECT_DOUBLE_EQ(t.u, 0.0);             // no base value above a new one
  EXPECT_NEAR(t.p, 2.0 / 184756, 1e-12);  // 2 / C(20, 10): only the two extreme splits are as far
  EXPECT_LT(t.p, 0.05);
  const u_test back = mann_whitney_u(next, base);
  EXPECT_DOUBLE_EQ(back.u, 100.0);  // U counts the pairs where the base is the larger
  EXPECT_NEAR(back.p, t.p, 1e-15);
}

TEST(CompareSignificance, ExactValuesOfSmallSamples) {
  // Enumerated: of the C(9, 4) = 126 splits, 26 have U <= 6 (and 26 U >= 14).
  const u_test t = mann_whitney_u({1, 3, 5, 7}, {2, 4, 6, 8, 9});
  EXPECT_EQ(t.method, u_test_method::exact);
  EXPECT_DOUBLE_EQ(t.u, 6.0);
  EXPECT_NEAR(t.p, 52.0 / 126, 1e-12);
  // A spread-out sample around a tight one: the medians differ, the ranks hardly.
  const u_test spread = mann_whitney_u({3, 4, 5, 6, 7}, {1, 2, 8, 9, 10});
  EXPECT_DOUBLE_EQ(spread.u, 10.0);
  EXPECT_NEAR(spread.p, 0.6904761904761905, 1e-12);
}

TEST(CompareSignificance, ThreeAgainstThreeCannotReachFivePercent) {
  const u_test t = mann_whitney_u({1.0, 2.0, 3.0}, {4.0, 5.0, 6.0});
  EXPECT_DOUBLE_EQ(t.u, 0.0);
  EXPECT_NEAR(t.p, 0.1, 1e-12);  // 2 / C(6, 3)
  EXPECT_NEAR(smallest_exact_p(3, 3), 0.1, 1e-12);
  EXPECT_NEAR(smallest_exact_p(10, 10), 2.0 / 184756, 1e-15);
  EXPECT_NEAR(smallest_exact_p(5, 4), 2.0 / 126, 1e-15);
  EXPECT_DOUBLE_EQ(smallest_exact_p(1, 1), 1.0);
}

TEST(CompareSignificance, TiesUseTheNormalApproximationWithTheTieCorrection) {
  // Midranks: 1, 2.5, 2.5, 5, 5 for the base (3 is tied three ways); U = 1;
  // variance = 25/12 * (11 - (2^3 - 2 + 3^3 - 3 + 2^3 - 2) / 90) = 22.083; z = (12.5 - 1 - 0.5) / sqrt(22.083).
  const u_test t = mann_whitney_u({1, 2, 2, 3, 3}, {3, 4, 4, 5, 6});
  EXPECT_EQ(t.method, u_test_method::normal);
  EXPECT_DOUBLE_EQ(t.u, 1.0);
  EXPECT_NEAR(t.z, 11.0 / std::sqrt(22.083333333333332), 1e-9);
  EXPECT_NEAR(t.p, 0.01924356579907484, 1e-9);
  EXPECT_EQ(t.base_count, 5u);
  EXPECT_EQ(t.new_count, 5u);
}

TEST(CompareSignificance, LargeSamplesUseTheNormalApproximation) {
  std::vector<double> base, next;
  for (int i = 0; i < 60; ++i) {
    base.push_back(i);
    next.push_back(i + 10.5);
  }
  const u_test t = mann_whitney_u(base, next);
  EXPECT_EQ(t.method, u_test_method::normal);
  EXPECT_DOUBLE_EQ(t.u, 1225.0);
  EXPECT_NEAR(t.z, 3.015342996813091, 1e-9);
  EXPECT_NEAR(t.p, 0.0025668879435241797, 1e-9);
}

TEST(CompareSignificance, ExactDistributionOfLargerSamples) {
  // 40 against 40 without ties, still exact: U = 496 of 1600. The normal approximation of the same U,
  // z = (800 - 496 - 0.5) / sqrt(1600 * 81 / 12) = 2.9204, gives p = 0.003495: close, not equal.
  std::vector<double> base, next;
  for (int i = 0; i < 40; ++i) {
    base.push_back(2 * i);
    next.push_back(2 * i + 17);  // odd: never equal to a base value
  }
  const u_test t = mann_whitney_u(base, next);
  ASSERT_EQ(t.method, u_test_method::exact);
  EXPECT_DOUBLE_EQ(t.u, 496.0);
  EXPECT_NEAR(t.p, 0.0031484984615235477, 1e-12);
  EXPECT_NEAR(t.p / 0.003495485889969337, 1.0, 0.15);
}

}  // namespace
}  // namespace cudalab::host
