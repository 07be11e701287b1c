// The timing loop's arithmetic: samples per repetition and batches that reach their target, and the summary
// statistics of a repetition's times.
#include <gtest/gtest.h>

#include <cmath>

#include "device/timing.hpp"

namespace cudalab::host {
namespace {

TEST(Measure, SamplesPerRepetitionReachTheMinimumTime) {
  EXPECT_EQ(count_to_reach(1.0, 50, max_samples_per_repetition), 50u);
  EXPECT_EQ(count_to_reach(0.98, 50, max_samples_per_repetition), 52u);  // 50.96 ms: never short of the minimum
  EXPECT_EQ(count_to_reach(60, 50, max_samples_per_repetition), 1u);     // one sample already lasts longer
  EXPECT_EQ(count_to_reach(0.0, 50, 77), 77u);
  EXPECT_EQ(count_to_reach(1e-9, 50, 77), 77u);
}

TEST(Measure, AutoBatchAimsAtTheTarget) {
  EXPECT_EQ(count_to_reach(2.0, sample_target_ms, max_batch), 1u);
  EXPECT_EQ(count_to_reach(1.0, sample_target_ms, max_batch), 1u);
  EXPECT_EQ(count_to_reach(0.1, sample_target_ms, max_batch), 10u);
  EXPECT_EQ(count_to_reach(0.003, sample_target_ms, max_batch), 334u);
  EXPECT_EQ(count_to_reach(0.00001, sample_target_ms, max_batch), 1000u);
  EXPECT_EQ(count_to_reach(0.0, sample_target_ms, max_batch), 1000u);
}

TEST(Measure, SummaryStatistics) {
  const timing t = summarize({4.0, 1.0, 3.0, 2.0});
  EXPECT_TRUE(t.timed);
  EXPECT_DOUBLE_EQ(t.median_ms, 2.5);
  EXPECT_DOUBLE_EQ(t.min_ms, 1.0);
  EXPECT_DOUBLE_EQ(t.max_ms, 4.0);
  EXPECT_DOUBLE_EQ(t.mean_ms, 2.5);
  EXPECT_NEAR(t.cv, std::sqrt(5.0 / 3.0) / 2.5, 1e-12);
  EXPECT_DOUBLE_EQ(summarize({7.0}).cv, 0.0);
  EXPECT_DOUBLE_EQ(summarize({1.0, 9.0, 5.0}).median_ms, 5.0);
}

}  // namespace
}  // namespace cudalab::host
