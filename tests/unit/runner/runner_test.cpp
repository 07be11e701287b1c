// The runner's CPU-side logic: variant order and filtering, rates and percentages, batching, statistics,
// planning several files, and refusing sizes that do not fit before anything is allocated.
#include <gtest/gtest.h>

#include <cmath>

#include "device/memory_check.hpp"
#include "device/timing.hpp"
#include "plan/planning.hpp"
#include "runner/runner.hpp"
#include "test_plugins.hpp"

namespace cudalab::host {
namespace {

const std::string cli_dir = std::string(CUDALAB_SOURCE_DIR) + "/tests/fixtures/cli/";

lab_plan plan_with(std::vector<std::string> variants, std::string baseline) {
  lab_plan p;
  p.variants = std::move(variants);
  p.baseline = std::move(baseline);
  return p;
}

TEST(Runner, BaselineRunsFirst) {
  const auto v = variants_to_run(plan_with({"copy", "scale", "memcpy"}, "memcpy"), {});
  EXPECT_EQ(v, (std::vector<std::string>{"memcpy", "copy", "scale"}));
}

TEST(Runner, FilterKeepsBaselineForComparison) {
  const auto v = variants_to_run(plan_with({"copy", "scale", "memcpy"}, "memcpy"), {"scale"});
  EXPECT_EQ(v, (std::vector<std::string>{"memcpy", "scale"}));
}

TEST(Runner, FilterOfOnlyTheBaselineRunsIt) {
  const auto v = variants_to_run(plan_with({"copy", "memcpy"}, "memcpy"), {"memcpy"});
  EXPECT_EQ(v, (std::vector<std::string>{"memcpy"}));
}

TEST(Runner, BaselineRunsEvenWhenNotListed) {
  const auto v = variants_to_run(plan_with({"copy", "scale"}, "memcpy"), {});
  EXPECT_EQ(v, (std::vector<std::string>{"memcpy", "copy", "scale"}));
}

TEST(Runner, FilterMatchingNothingRunsNothing) {
  EXPECT_TRUE(variants_to_run(plan_with({"copy", "memcpy"}, "memcpy"), {"scale"}).empty());
}

TEST(Runner, NoBaselineKeepsOrder) {
  const auto v = variants_to_run(plan_with({"b", "a"}, ""), {});
  EXPECT_EQ(v, (std::vector<std::string>{"b", "a"}));
}

TEST(Runner, RatesOnTheDevicePath) {
  run_context ctx;
  ctx.measured.d2d_copy_gbps = 2000;
  ctx.device.memory_clock_khz = 1000000;    // 1 GHz
  ctx.device.memory_bus_width_bits = 4096;  // 512 B: peak 2 * 1e9 * 512 = 1024 GB/s
  variant_result r;
  r.bytes = {500'000'000, 500'000'000, memory_path::device};
  r.time.timed = true;
  r.time.median_ms = 1.0;
  compute_rates(r, ctx, 2000.0);
  EXPECT_DOUBLE_EQ(r.gbps, 1000.0);
  EXPECT_DOUBLE_EQ(r.pct_of_baseline, 50.0);
  EXPECT_DOUBLE_EQ(r.pct_of_ceiling, 50.0);
  EXPECT_NEAR(r.pct_of_peak, 100.0 * 1000.0 / 1024.0, 1e-9);
}

TEST(Runner, BusTrafficIsComparedWithTheMatchingDirection) {
  run_context ctx;
  ctx.measured = {3000, 50, 40, 80};
  variant_result both, in, out;
  both.bytes = {40'000'000, 40'000'000, memory_path::host_bus};
  in.bytes = {40'000'000, 0, memory_path::host_bus};
  out.bytes = {0, 40'000'000, memory_path::host_bus};
  for (auto* r : {&both, &in, &out}) {
    r->time.timed = true;
    r->time.median_ms = 1.0;
    compute_rates(*r, ctx, 0);
  }
  EXPECT_DOUBLE_EQ(both.pct_of_ceiling, 100.0);  // 80 GB/s of 80
  EXPECT_DOUBLE_EQ(in.pct_of_ceiling, 80.0);     // 40 of 50 (host to device)
  EXPECT_DOUBLE_EQ(out.pct_of_ceiling, 100.0);   // 40 of 40 (device to host)
  EXPECT_DOUBLE_EQ(both.pct_of_peak, 0.0);       // no DRAM peak for bus traffic
  EXPECT_DOUBLE_EQ(both.pct_of_baseline, 0.0);
}

TEST(Runner, UntimedResultsHaveNoRates) {
  variant_result r;
  r.bytes = {1, 1, memory_path::device};
  compute_rates(r, run_context{}, 10);
  EXPECT_EQ(r.gbps, 0.0);
}

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

TEST(Planning, PlansEveryFileAndReportsAllProblemsTogether) {
  const auto path = cudalab::host::testing::test_plugin_path();
  const auto ok = plan_lab_files({{cli_dir + "testlab.toml"}, path, nullptr, {}, {}});
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0].plan.point_count(), 2u);
  try {
    plan_lab_files(
        {{cli_dir + "bad_key.toml", cli_dir + "testlab.toml", cli_dir + "bad_key.toml"}, path, nullptr, {}, {}});
    FAIL() << "expected lab_file_error";
  } catch (const lab_file_error& e) {
    EXPECT_EQ(e.problems().size(), 2u);
  }
}

TEST(Planning, MissingPluginIsAPluginError) {
  EXPECT_THROW(
      plan_lab_files({{cli_dir + "missing_plugin.toml"}, cudalab::host::testing::test_plugin_path(), nullptr, {}, {}}),
      plugin_error);
}

TEST(Planning, UnknownVariantFilterIsReported) {
  try {
    plan_lab_files({{cli_dir + "testlab.toml"}, cudalab::host::testing::test_plugin_path(), nullptr, {}, {"cpy"}});
    FAIL();
  } catch (const lab_file_error& e) {
    ASSERT_EQ(e.problems().size(), 1u);
    EXPECT_NE(e.problems()[0].message.find("did you mean 'copy'"), std::string::npos) << e.what();
  }
}

TEST(Planning, SizesThatDoNotFitAreRefusedWithTheNumbers) {
  const auto plans =
      plan_lab_files({{cli_dir + "testlab.toml"}, cudalab::host::testing::test_plugin_path(), nullptr, {"n=4Gi"}, {}});
  // 4Gi floats: 32 GiB on the device (two buffers), 48 GiB on the host.
  const auto problems = check_memory(plans, std::uint64_t(16) << 30, std::uint64_t(64) << 30);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].message.find("32.00"), std::string::npos) << problems[0].message;
  EXPECT_NE(problems[0].message.find("device memory"), std::string::npos) << problems[0].message;
  EXPECT_EQ(check_memory(plans, std::uint64_t(80) << 30, std::uint64_t(64) << 30).size(), 0u);
  EXPECT_EQ(check_memory(plans, std::uint64_t(80) << 30, std::uint64_t(40) << 30).size(), 1u);
}

TEST(Planning, HostMemoryIsKnownOnLinux) { EXPECT_GT(host_memory_available(), 0u); }

}  // namespace
}  // namespace cudalab::host
