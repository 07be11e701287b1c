// A GPU's sample as NVML gives it, for the host's tests.
#include "gpu_sample_fixture.hpp"

namespace cudalab::host::testing {

gpu_sample idle_gpu_sample(std::int64_t taken_at_ms) {
  gpu_sample s;
  s.taken_at_ms = taken_at_ms;
  s.sm_clock_mhz = s.max_sm_clock_mhz = s.applications_sm_clock_mhz = 1980;
  s.memory_clock_mhz = s.max_memory_clock_mhz = s.applications_memory_clock_mhz = 2619;
  s.clocks_event_reasons = 0x1;  // gpu_idle
  s.power_w = 71.5;
  s.power_limit_w = 700;
  s.temperature_c = 35;
  s.performance_state = 0;
  s.power_violation_ns = 1000000000;
  s.thermal_violation_ns = 0;
  return s;
}

}  // namespace cudalab::host::testing
