// The rounds' t-interval (Student's t, 95%) and when it straddles a threshold, so that more rounds are
// needed to settle a score.
#include <gtest/gtest.h>

#include "assignment/confidence.hpp"

namespace cudalab::host {
namespace {

TEST(Confidence, TIntervalOfThreeRounds) {
  // mean 2, standard deviation 1, t(0.975, 2) = 4.302653: half-width 4.302653 / sqrt(3) = 2.48414.
  const auto ci = t_interval({1, 2, 3});
  ASSERT_TRUE(ci);
  EXPECT_NEAR(ci->first, 2 - 2.48414, 1e-4);
  EXPECT_NEAR(ci->second, 2 + 2.48414, 1e-4);
  EXPECT_FALSE(t_interval({5}));
  const auto same = t_interval({7, 7, 7});
  ASSERT_TRUE(same);
  EXPECT_EQ(same->first, 7);
  EXPECT_EQ(same->second, 7);
}

TEST(Confidence, StraddlesOnlyAThresholdInside) {
  EXPECT_TRUE(straddles({25, 35}, 30, 70));
  EXPECT_TRUE(straddles({65, 75}, 30, 70));
  EXPECT_FALSE(straddles({40, 60}, 30, 70));
  EXPECT_FALSE(straddles({71, 90}, 30, 70));
}

}  // namespace
}  // namespace cudalab::host
