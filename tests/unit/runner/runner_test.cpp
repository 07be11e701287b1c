// The runner's CPU-side logic: variant order and filtering, and rates and percentages.
#include <gtest/gtest.h>

#include "runner/runner.hpp"

namespace cudalab::host {
namespace {

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

}  // namespace
}  // namespace cudalab::host
