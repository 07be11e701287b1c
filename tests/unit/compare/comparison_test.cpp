// The verdict of each result pair: the threshold and the U test together, the threshold alone without
// repetition times, results without times, and what counts as a regression.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compare/comparison.hpp"

namespace cudalab::host {
namespace {

variant_result timed(const std::string& variant, double median_ms, std::vector<double> repetitions) {
  variant_result r;
  r.lab_file = "labs/a.toml";
  r.variant = variant;
  r.time.timed = true;
  r.time.median_ms = median_ms;
  r.time.repetition_ms = std::move(repetitions);
  return r;
}

// Ten repetitions around `ms`, spread by about 1 %.
std::vector<double> around(double ms) {
  std::vector<double> v;
  for (int i = 0; i < 10; ++i) v.push_back(ms * (1 + 0.002 * (i - 5)));
  return v;
}

compared_result compare_one(const variant_result& base, const variant_result& next, double threshold_pct = 5) {
  result_set b, n;
  b.results = {base};
  n.results = {next};
  compare_settings s;
  s.threshold_pct = threshold_pct;
  const comparison c = compare_runs(b, n, s);
  EXPECT_EQ(c.results.size(), 1u);
  return c.results.at(0);
}

TEST(CompareRuns, SlowerBeyondTheThresholdAndTheNoise) {
  const compared_result r = compare_one(timed("copy", 1.0, around(1.0)), timed("copy", 1.2, around(1.2)));
  EXPECT_EQ(r.outcome, verdict::slower);
  EXPECT_NEAR(r.change_pct, 20.0, 1e-9);
  ASSERT_TRUE(r.test);
  EXPECT_LT(r.test->p, 0.05);
  EXPECT_EQ(r.note, "");
}

TEST(CompareRuns, FasterLikewise) {
  const compared_result r = compare_one(timed("copy", 1.0, around(1.0)), timed("copy", 0.8, around(0.8)));
  EXPECT_EQ(r.outcome, verdict::faster);
  EXPECT_NEAR(r.change_pct, -20.0, 1e-9);
}

TEST(CompareRuns, SignificantButWithinTheThresholdIsTheSame) {
  // 3 % slower, every repetition slower: significant, but under the 5 % threshold.
  const compared_result r = compare_one(timed("copy", 1.0, around(1.0)), timed("copy", 1.03, around(1.03)));
  EXPECT_EQ(r.outcome, verdict::same);
  ASSERT_TRUE(r.test);
  EXPECT_LT(r.test->p, 0.05);
  // The threshold is a bound that must be passed: 16 -> 17 ms is exactly 6.25 %.
  EXPECT_EQ(compare_one(timed("copy", 16.0, {}), timed("copy", 17.0, {}), 6.25).outcome, verdict::same);
  EXPECT_EQ(compare_one(timed("copy", 16.0, {}), timed("copy", 17.0, {}), 6.2).outcome, verdict::slower);
  EXPECT_EQ(compare_one(timed("copy", 16.0, {}), timed("copy", 17.0, {})).outcome, verdict::slower);
  EXPECT_EQ(compare_one(timed("copy", 16.0, {}), timed("copy", 17.0, {}), 10).outcome, verdict::same);
}

TEST(CompareRuns, BeyondTheThresholdButWithinTheNoiseIsUnsure) {
  const std::vector<double> noisy = {0.8, 1.3, 0.9, 1.2, 1.0, 1.1, 0.85, 1.25, 0.95, 1.15};
  std::vector<double> shifted;
  for (double v : noisy) shifted.push_back(v + 0.08);
  const compared_result r = compare_one(timed("copy", 1.025, noisy), timed("copy", 1.105, shifted));
  EXPECT_EQ(r.outcome, verdict::unsure);
  ASSERT_TRUE(r.test);
  EXPECT_GE(r.test->p, 0.05);
  EXPECT_EQ(r.note, "within the noise (p >= 0.05)");
}

TEST(CompareRuns, TooFewRepetitionsSaySo) {
  const compared_result r = compare_one(timed("copy", 1.0, {0.99, 1.0, 1.01}), timed("copy", 2.0, {1.99, 2.0, 2.01}));
  EXPECT_EQ(r.outcome, verdict::unsure);
  EXPECT_EQ(r.note, "3 vs 3 repetitions: too few for p < 0.05");
}

TEST(CompareRuns, WithoutSamplesTheThresholdAlone) {
  // Results written before repetition_ms was kept (on either side) compare their medians.
  compared_result r = compare_one(timed("copy", 1.0, {}), timed("copy", 1.2, around(1.2)));
  EXPECT_EQ(r.outcome, verdict::slower);
  EXPECT_FALSE(r.test);
  EXPECT_EQ(r.note, "no samples: threshold only");
  r = compare_one(timed("copy", 1.0, around(1.0)), timed("copy", 1.01, {}));
  EXPECT_EQ(r.outcome, verdict::same);
  EXPECT_EQ(r.note, "no samples: threshold only");
}

TEST(CompareRuns, ResultsWithoutTimesAreUntimed) {
  variant_result failed = timed("copy", 0, {});
  failed.time.timed = false;
  failed.status = result_status::verify_failed;
  compared_result r = compare_one(timed("copy", 1.0, around(1.0)), failed);
  EXPECT_EQ(r.outcome, verdict::untimed);
  EXPECT_EQ(r.note, "new: verify_failed");
  variant_result verified_only = timed("copy", 0, {});
  verified_only.time.timed = false;
  r = compare_one(verified_only, failed);
  EXPECT_EQ(r.note, "base: not timed, new: verify_failed");
}

TEST(CompareRuns, OnlySlowerIsARegression) {
  result_set b, n;
  b.results = {timed("a", 1.0, around(1.0)), timed("b", 1.0, around(1.0)), timed("gone", 1.0, around(1.0))};
  n.results = {timed("a", 0.5, around(0.5)), timed("b", 1.0, around(1.0)), timed("new", 9.0, around(9.0))};
  comparison c = compare_runs(b, n, {});
  EXPECT_FALSE(c.regression());
  EXPECT_EQ(c.counts.faster, 1u);
  EXPECT_EQ(c.counts.same, 1u);
  EXPECT_EQ(c.counts.added, 1u);
  EXPECT_EQ(c.counts.removed, 1u);
  n.results[1] = timed("b", 1.5, around(1.5));
  c = compare_runs(b, n, {});
  EXPECT_TRUE(c.regression());
  EXPECT_EQ(c.counts.slower, 1u);
}

}  // namespace
}  // namespace cudalab::host
