// A GPU's sample as NVML gives it, for the host's tests of what is made of samples (the verdict on
// throttling, the context's JSON, the report).
#pragma once

#include <cstdint>

#include "results/gpu_state.hpp"

namespace cudalab::host::testing {

/// An idle H100 at `taken_at_ms`: SM 1980 MHz and memory 2619 MHz (its top and applications clocks),
/// gpu_idle, 71.5 W of 700 W, 35 °C, P0, 1 s of power violation time so far and none thermal.
gpu_sample idle_gpu_sample(std::int64_t taken_at_ms);

}  // namespace cudalab::host::testing
