// A GPU's state through NVML without NVML: the clocks event reasons by name, the verdict on a run's
// two samples (throttled when power or heat held the clocks down in between, or a slowdown reason was
// active), and a sample in words.
#include <gtest/gtest.h>

#include "gpu_sample_fixture.hpp"
#include "results/gpu_state.hpp"

namespace cudalab::host {
namespace {

using names = std::vector<std::string>;

gpu_sample idle_sample() { return testing::idle_gpu_sample(1000000); }

// `start` and a sample taken 30 s later, changed by `change`.
template <typename Change>
throttling judged(const gpu_sample& start, Change change) {
  gpu_sample end = start;
  end.taken_at_ms += 30000;
  change(end);
  return judge_throttling(start, end, "GPU 0 (Test GPU)");
}

TEST(GpuState, ReasonsAreNamedInBitOrder) {
  EXPECT_EQ(clocks_event_reason_names(0), names{});
  EXPECT_EQ(clocks_event_reason_names(0x5), (names{"gpu_idle", "sw_power_cap"}));
  EXPECT_EQ(clocks_event_reason_names(0x1ff),
            (names{"gpu_idle", "applications_clocks_setting", "sw_power_cap", "hw_slowdown", "sync_boost",
                   "sw_thermal_slowdown", "hw_thermal_slowdown", "hw_power_brake_slowdown", "display_clock_setting"}));
  EXPECT_EQ(clocks_event_reason_names(0x208), (names{"hw_slowdown", "0x200"}));  // a bit of a newer driver
}

TEST(GpuState, SlowdownsArePowerAndHeatNotSettingsOrRest) {
  EXPECT_EQ(
      clocks_event_reason_names(slowdown_reason_bits()),
      (names{"sw_power_cap", "hw_slowdown", "sw_thermal_slowdown", "hw_thermal_slowdown", "hw_power_brake_slowdown"}));
  gpu_sample s = idle_sample();
  s.clocks_event_reasons = 0x1 | 0x2 | 0x10 | 0x100 | 0x20;
  EXPECT_EQ(active_slowdowns(s), names{"sw_thermal_slowdown"});
}

TEST(GpuState, ACalmRunIsNotThrottled) {
  const throttling t = judged(idle_sample(), [](gpu_sample& end) {
    end.clocks_event_reasons = 0x1 | 0x2 | 0x10 | 0x100;  // idle, settings, sync boost: no slowdown
    end.power_w = 450;
    end.temperature_c = 60;
  });
  EXPECT_FALSE(t.throttled);
  EXPECT_TRUE(t.warning.empty());
  EXPECT_DOUBLE_EQ(t.between_s, 30.0);
  EXPECT_EQ(t.power_violation_s, 0.0);
  EXPECT_EQ(t.thermal_violation_s, 0.0);
  EXPECT_TRUE(t.slowdown_reasons.empty());
}

TEST(GpuState, PowerViolationThatGrewIsThrottling) {
  const throttling t = judged(idle_sample(), [](gpu_sample& end) { end.power_violation_ns = 3500000000; });
  EXPECT_TRUE(t.throttled);
  EXPECT_DOUBLE_EQ(*t.power_violation_s, 2.5);
  EXPECT_EQ(t.warning,
            "GPU 0 (Test GPU) ran throttled during the 30.0 s of the run: power capping for 2.500 s. Its timings "
            "may be low and noisy; a cooler GPU, or one with nothing else running on it, gives steadier ones");
}

TEST(GpuState, ThermalViolationThatGrewIsThrottling) {
  const throttling t = judged(idle_sample(), [](gpu_sample& end) { end.thermal_violation_ns = 1000000; });
  EXPECT_TRUE(t.throttled);
  EXPECT_NE(t.warning.find("thermal slowdown for 0.001 s"), std::string::npos) << t.warning;
  EXPECT_EQ(t.warning.find("power capping"), std::string::npos) << t.warning;
}

TEST(GpuState, ASlowdownReasonAtTheStartOrTheEndIsThrottling) {
  gpu_sample hot = idle_sample();
  hot.clocks_event_reasons = 0x40;  // hw_thermal_slowdown when the run started
  const throttling at_start = judged(hot, [](gpu_sample& end) { end.clocks_event_reasons = 0x1; });
  EXPECT_TRUE(at_start.throttled);
  EXPECT_EQ(at_start.slowdown_reasons, names{"hw_thermal_slowdown"});
  EXPECT_NE(at_start.warning.find("slowdown reasons active at its start or end: hw_thermal_slowdown"),
            std::string::npos);
  const throttling at_end = judged(idle_sample(), [](gpu_sample& end) { end.clocks_event_reasons = 0x4 | 0x80; });
  EXPECT_TRUE(at_end.throttled);
  EXPECT_EQ(at_end.slowdown_reasons, (names{"sw_power_cap", "hw_power_brake_slowdown"}));
}

TEST(GpuState, WhatNvmlCouldNotReadJudgesNothing) {
  gpu_sample bare;
  bare.taken_at_ms = 5000;
  const throttling t = judged(bare, [](gpu_sample&) {});
  EXPECT_FALSE(t.throttled);
  EXPECT_FALSE(t.power_violation_s);
  EXPECT_FALSE(t.thermal_violation_s);
  // A counter known at one end only says nothing either.
  const throttling half = judged(bare, [](gpu_sample& end) { end.power_violation_ns = 9000000000; });
  EXPECT_FALSE(half.throttled);
}

TEST(GpuState, ACounterThatWentBackIsNoThrottling) {  // the driver was reloaded between the samples
  const throttling t = judged(idle_sample(), [](gpu_sample& end) { end.power_violation_ns = 10; });
  EXPECT_FALSE(t.throttled);
  EXPECT_EQ(t.power_violation_s, 0.0);
}

TEST(GpuState, ASampleInWords) {
  gpu_sample s = idle_sample();
  s.applications_sm_clock_mhz = 1755;
  EXPECT_EQ(sample_text(s),
            "SM 1980 MHz of 1980 (applications clock 1755), memory 2619 MHz of 2619, 71.5 W of 700 W, 35 °C, P0, "
            "clocks event reasons: gpu_idle");
  s.clocks_event_reasons = 0;
  s.power_limit_w.reset();
  s.max_sm_clock_mhz.reset();
  s.applications_sm_clock_mhz.reset();
  EXPECT_EQ(sample_text(s), "SM 1980 MHz, memory 2619 MHz of 2619, 71.5 W, 35 °C, P0, clocks event reasons: none");
  EXPECT_EQ(sample_text(gpu_sample{}), "nothing NVML could read");
}

}  // namespace
}  // namespace cudalab::host
