// The stopping rule on synthetic repetition times: it stops a tight series once the median's interval
// is within the precision, runs on for a noisy one, and honours the least and the most repetitions and
// the most GPU time. No timing is measured here.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "device/stopping_rule.hpp"
#include "results/median_interval.hpp"

namespace cudalab::host {
namespace {

// `n` repetition times around `ms`, spread uniformly by +-`spread` (a fraction), from a fixed seed.
std::vector<double> series(int n, double ms, double spread, unsigned seed = 7) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> d(-spread, spread);
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(ms * (1 + d(gen)));
  return v;
}

// How many repetitions of `all` the rule takes, feeding them one at a time; each lasts its own time
// `scale` times over (a repetition of several launches), and why it stopped. -1: it never stopped.
std::pair<int, std::optional<stop_reason>> run(const stopping_rule& rule, const std::vector<double>& all,
                                               double scale = 1) {
  std::vector<double> seen;
  double spent = 0;
  for (double ms : all) {
    seen.push_back(ms);
    spent += ms * scale;
    if (const auto why = should_stop(rule, seen, spent)) return {int(seen.size()), why};
  }
  return {-1, std::nullopt};
}

stopping_rule rule(int least, int most, double max_ms, double precision) {
  stopping_rule r;
  r.least = least;
  r.most = most;
  r.max_ms = max_ms;
  r.precision = precision;
  return r;
}

TEST(StoppingRule, ATightSeriesStopsAsSoonAsItsIntervalExists) {
  // +-0.1%: the 6 repetitions' range is the 95% interval, well within 0.5% of the median.
  const auto [n, why] = run(rule(6, 100, 1e9, 0.005), series(100, 0.25, 0.001));
  EXPECT_EQ(n, 6);
  EXPECT_EQ(why, stop_reason::precise);
}

TEST(StoppingRule, ATightSeriesStillRunsTheLeastRepetitions) {
  const auto [n, why] = run(rule(10, 100, 1e9, 0.005), series(100, 0.25, 0.001));
  EXPECT_EQ(n, 10);
  EXPECT_EQ(why, stop_reason::precise);
}

TEST(StoppingRule, NoIntervalBeforeSixRepetitions) {
  // Below 6 no order statistics reach 95%: even identical times do not stop it early.
  const auto [n, why] = run(rule(1, 100, 1e9, 0.005), std::vector<double>(100, 1.0));
  EXPECT_EQ(n, 6);
  EXPECT_EQ(why, stop_reason::precise);
}

TEST(StoppingRule, ANoisySeriesRunsOnToTheMostRepetitions) {
  // +-20%: the interval narrows as 1/sqrt(n) but stays far wider than 0.5% within 50 repetitions.
  const auto [n, why] = run(rule(6, 50, 1e9, 0.005), series(200, 0.25, 0.2));
  EXPECT_EQ(n, 50);
  EXPECT_EQ(why, stop_reason::max_repetitions);
}

TEST(StoppingRule, AModeratelyNoisySeriesStopsOnceItsIntervalNarrows) {
  // +-2%: too wide at 6, precise once enough repetitions pin the median, long before 1000.
  const std::vector<double> all = series(1000, 0.25, 0.02);
  const auto [n, why] = run(rule(6, 1000, 1e9, 0.005), all);
  EXPECT_GT(n, 6);
  EXPECT_LT(n, 1000);
  EXPECT_EQ(why, stop_reason::precise);
  const auto interval = interval_of_median(std::vector<double>(all.begin(), all.begin() + n));
  ASSERT_TRUE(interval);
  EXPECT_LE(interval->hi_ms - interval->median_ms, 0.005 * interval->median_ms);
  EXPECT_LE(interval->median_ms - interval->lo_ms, 0.005 * interval->median_ms);
}

TEST(StoppingRule, TheMostGpuTimeEndsANoisySeries) {
  // Each repetition lasts 10 x its time per launch (10 launches): 0.25 ms x 10 = 2.5 ms; 20 ms is spent
  // after the 8th.
  const auto [n, why] = run(rule(6, 1000, 20, 0.005), series(200, 0.25, 0.2), 10);
  EXPECT_GE(n, 8);
  EXPECT_LE(n, 9);
  EXPECT_EQ(why, stop_reason::max_time);
}

TEST(StoppingRule, TheMostGpuTimeWinsOverTheLeastRepetitions) {
  // A run's length is bounded: one repetition of 50 ms against at most 20 ms stops at once.
  const auto [n, why] = run(rule(6, 100, 20, 0.005), series(10, 50, 0.001));
  EXPECT_EQ(n, 1);
  EXPECT_EQ(why, stop_reason::max_time);
}

TEST(StoppingRule, PrecisionZeroRunsAFixedCount) {
  // thorough's settings: 30 repetitions, however tight.
  const auto [n, why] = run(rule(30, 30, 1e9, 0), series(100, 0.25, 0.0001));
  EXPECT_EQ(n, 30);
  EXPECT_EQ(why, stop_reason::max_repetitions);
}

TEST(StoppingRule, FromSettingsTheMostIsNeverBelowTheLeast) {
  measure_settings s;
  s.repetitions = 30;
  s.max_repetitions = 10;
  s.precision_pct = 0.5;
  s.max_time_ms = 250;
  const stopping_rule r = stopping_rule::of(s);
  EXPECT_EQ(r.least, 30);
  EXPECT_EQ(r.most, 30);
  EXPECT_DOUBLE_EQ(r.precision, 0.005);
  EXPECT_DOUBLE_EQ(r.max_ms, 250);
}

TEST(MedianInterval, RecordedIntervalIsTheOneReported) {
  timing t;
  t.timed = true;
  t.median_ms = 1.0;
  t.min_ms = 0.9;
  t.max_ms = 1.2;
  t.repetition_ms = {0.9, 1.0, 1.0, 1.0, 1.0, 1.0, 1.2};
  t.interval_lo_ms = 0.99;
  t.interval_hi_ms = 1.01;
  const auto i = interval_of_median(t);
  ASSERT_TRUE(i);
  EXPECT_DOUBLE_EQ(i->lo_ms, 0.99);
  EXPECT_DOUBLE_EQ(i->hi_ms, 1.01);
  EXPECT_GT(i->confidence, 0.95);
}

}  // namespace
}  // namespace cudalab::host
