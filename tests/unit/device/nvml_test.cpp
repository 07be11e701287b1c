// NVML loaded at run time, against the fake NVML (tests/support/fakenvml) named by CUDALAB_NVML_LIBRARY:
// samples by PCI bus id, values NVML cannot give left out, the older name of the clocks event reasons,
// and every way NVML can be missing (no library, no functions, no driver) said without failing; a
// run's start and end samples of several GPUs, and the warning of the one that ran throttled.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "device/nvml.hpp"

namespace cudalab::host {
namespace {

// Environment variables set for a scope, then unset (none of them is set outside the tests).
class scoped_env {
 public:
  scoped_env(std::initializer_list<std::pair<const char*, std::string>> vars) {
    for (const auto& [name, value] : vars) {
      ::setenv(name, value.c_str(), 1);
      names_.push_back(name);
    }
  }
  ~scoped_env() {
    for (const char* name : names_) ::unsetenv(name);
  }
  scoped_env(const scoped_env&) = delete;
  scoped_env& operator=(const scoped_env&) = delete;

 private:
  std::vector<const char*> names_;
};

// The fake's GPU p (each test samples GPUs of its own: the fake counts calls per GPU).
std::string bus_id(int p) { return fmt::format("0000:{:02x}:00.0", 0x18 + p); }

TEST(Nvml, SamplesTheGpuAtAPciBusId) {
  const scoped_env env{{"CUDALAB_NVML_LIBRARY", CUDALAB_FAKE_NVML}};
  const nvml_library nvml;
  ASSERT_TRUE(nvml.status().available) << nvml.status().reason;
  EXPECT_EQ(nvml.status().library, CUDALAB_FAKE_NVML);
  EXPECT_EQ(nvml.status().driver_version, "999.99.99-fake");
  std::string why;
  const auto s = nvml.sample("0000:18:00.0", why);
  ASSERT_TRUE(s) << why;
  EXPECT_GT(s->taken_at_ms, 1700000000000);  // now, in milliseconds since 1970
  EXPECT_EQ(s->sm_clock_mhz, 1980u);
  EXPECT_EQ(s->memory_clock_mhz, 2619u);
  EXPECT_EQ(s->max_sm_clock_mhz, 1980u);
  EXPECT_EQ(s->applications_memory_clock_mhz, 2619u);
  EXPECT_EQ(s->clocks_event_reasons, 0u);
  EXPECT_EQ(s->power_w, 120.0);  // from milliwatts
  EXPECT_EQ(s->power_limit_w, 700.0);
  EXPECT_EQ(s->temperature_c, 40u);
  EXPECT_EQ(s->performance_state, 0u);
  EXPECT_EQ(s->power_violation_ns, 0u);
  EXPECT_EQ(s->thermal_violation_ns, 0u);
}

TEST(Nvml, EachSampleReadsTheGpuAnew) {
  EXPECT_EQ(bus_id(5), "0000:1d:00.0");
  const scoped_env env{{"CUDALAB_NVML_LIBRARY", CUDALAB_FAKE_NVML},
                       {"FAKENVML_POWER_VIOLATION_NS", "100,2500000100"},
                       {"FAKENVML_REASONS", "0x1,0x24"},
                       {"FAKENVML_SM_CLOCK_MHZ", "1980,1410"}};
  const nvml_library nvml;
  std::string why;
  const auto start = nvml.sample(bus_id(5), why);
  const auto end = nvml.sample(bus_id(5), why);
  ASSERT_TRUE(start && end) << why;
  EXPECT_EQ(start->power_violation_ns, 100u);
  EXPECT_EQ(end->power_violation_ns, 2500000100u);
  EXPECT_EQ(end->clocks_event_reasons, 0x24u);
  EXPECT_EQ(end->sm_clock_mhz, 1410u);
  EXPECT_LE(start->taken_at_ms, end->taken_at_ms);
  EXPECT_DOUBLE_EQ(*judge_throttling(*start, *end, "GPU 5").power_violation_s, 2.5);
}

TEST(Nvml, WhatTheGpuDoesNotSupportIsLeftOut) {
  const scoped_env env{{"CUDALAB_NVML_LIBRARY", CUDALAB_FAKE_NVML},
                       {"FAKENVML_NOT_SUPPORTED", "nvmlDeviceGetApplicationsClock,nvmlDeviceGetViolationStatus"}};
  const nvml_library nvml;
  std::string why;
  const auto s = nvml.sample(bus_id(6), why);
  ASSERT_TRUE(s) << why;
  EXPECT_FALSE(s->applications_sm_clock_mhz);
  EXPECT_FALSE(s->applications_memory_clock_mhz);
  EXPECT_FALSE(s->power_violation_ns);
  EXPECT_FALSE(s->thermal_violation_ns);
  EXPECT_EQ(s->sm_clock_mhz, 1980u);
}

TEST(Nvml, AnOlderDriverAnswersUnderTheOldName) {
  const scoped_env env{{"CUDALAB_NVML_LIBRARY", CUDALAB_FAKE_NVML_OLD}, {"FAKENVML_REASONS", "0x40"}};
  const nvml_library nvml;
  ASSERT_TRUE(nvml.status().available) << nvml.status().reason;
  std::string why;
  const auto s = nvml.sample(bus_id(7), why);
  ASSERT_TRUE(s) << why;
  EXPECT_EQ(s->clocks_event_reasons, 0x40u);  // through nvmlDeviceGetCurrentClocksThrottleReasons
}

TEST(Nvml, AGpuNvmlDoesNotKnowIsSaidSo) {
  const scoped_env env{{"CUDALAB_NVML_LIBRARY", CUDALAB_FAKE_NVML}};
  const nvml_library nvml;
  std::string why;
  EXPECT_FALSE(nvml.sample("0000:05:00.0", why));
  EXPECT_EQ(why, "NVML finds no GPU at PCI bus id 0000:05:00.0: Not Found (NVML error 6)");
  EXPECT_FALSE(nvml.sample("", why));
  EXPECT_EQ(why, "the CUDA runtime gave no PCI bus id for it");
}

TEST(Nvml, NoLibraryIsAReasonNotAFailure) {
  const scoped_env env{{"CUDALAB_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1"}};
  const nvml_library nvml;
  EXPECT_FALSE(nvml.status().available);
  EXPECT_NE(nvml.status().reason.find("/nonexistent/libnvidia-ml.so.1: cannot open shared object file"),
            std::string::npos)
      << nvml.status().reason;
  std::string why;
  EXPECT_FALSE(nvml.sample("0000:18:00.0", why));
  EXPECT_EQ(why, "NVML is unavailable: " + nvml.status().reason);
}

TEST(Nvml, ALibraryWithoutNvmlIsAReason) {
  const scoped_env env{{"CUDALAB_NVML_LIBRARY", "libm.so.6"}};
  const nvml_library nvml;
  EXPECT_FALSE(nvml.status().available);
  EXPECT_EQ(nvml.status().reason, "libm.so.6 has no function nvmlInit_v2");
}

TEST(Nvml, ADriverThatIsNotLoadedIsAReason) {
  const scoped_env env{{"CUDALAB_NVML_LIBRARY", CUDALAB_FAKE_NVML}, {"FAKENVML_INIT_ERROR", "9"}};
  const nvml_library nvml;
  EXPECT_FALSE(nvml.status().available);
  EXPECT_EQ(nvml.status().reason, "nvmlInit_v2 failed: Driver Not Loaded (NVML error 9)");
}

TEST(Nvml, ARunSamplesEachGpuAtItsStartAndEnd) {
  const scoped_env env{{"CUDALAB_NVML_LIBRARY", CUDALAB_FAKE_NVML},
                       {"FAKENVML_GPU", "3"},
                       {"FAKENVML_THERMAL_VIOLATION_NS", "0,3000000000"}};
  const nvml_library nvml;
  run_context c;
  c.devices.resize(3);
  c.devices[0].ordinal = 3;
  c.devices[1].ordinal = 2;
  c.devices[2].ordinal = 9;
  c.devices[0].device.name = "Hot GPU";
  c.devices[0].gpu.pci_bus_id = bus_id(3);
  c.devices[1].gpu.pci_bus_id = bus_id(2);
  c.devices[2].gpu.pci_bus_id = "0000:05:00.0";  // NVML knows no such GPU
  const std::vector<std::string> notes = record_gpu_start(nvml, c);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0],
            "the clocks and throttling of GPU 9 () are not recorded: NVML finds no GPU at PCI bus id 0000:05:00.0: "
            "Not Found (NVML error 6)");
  EXPECT_TRUE(c.nvml.available);
  EXPECT_TRUE(c.devices[0].gpu.start && c.devices[1].gpu.start);
  EXPECT_FALSE(c.devices[0].gpu.end);
  const std::vector<std::string> warnings = record_gpu_end(nvml, c);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].rfind("GPU 3 (Hot GPU) ran throttled during the ", 0), 0u) << warnings[0];
  EXPECT_NE(warnings[0].find("thermal slowdown for 3.000 s"), std::string::npos) << warnings[0];
  EXPECT_TRUE(c.devices[0].gpu.throttle.throttled);
  EXPECT_FALSE(c.devices[1].gpu.throttle.throttled);
  ASSERT_TRUE(c.devices[1].gpu.end);
  EXPECT_FALSE(c.devices[2].gpu.start || c.devices[2].gpu.end);
  EXPECT_EQ(c.gpu.pci_bus_id, bus_id(3));  // the context's own: the first GPU's
  EXPECT_TRUE(c.gpu.throttle.throttled);
}

TEST(Nvml, WithoutNvmlARunSaysSoOnce) {
  const scoped_env env{{"CUDALAB_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1"}};
  const nvml_library nvml;
  run_context c;
  c.devices.resize(2);
  const std::vector<std::string> notes = record_gpu_start(nvml, c);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].rfind("the GPUs' clocks and throttling are not recorded: NVML is unavailable: ", 0), 0u);
  EXPECT_FALSE(c.nvml.available);
  EXPECT_TRUE(record_gpu_end(nvml, c).empty());
  EXPECT_EQ(c.devices[1].gpu.unavailable.rfind("NVML is unavailable: ", 0), 0u);
}

}  // namespace
}  // namespace cudalab::host
