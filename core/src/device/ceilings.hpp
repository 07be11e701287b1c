// The device's bandwidth ceilings, measured once per process: what the labs' numbers are compared with.
#pragma once

#include <functional>

#include "cudalab/device_info.hpp"
#include "labfile/run_profile.hpp"
#include "results/run_context.hpp"

namespace cudalab::host {

/// Called after each step of a long job, as a sign of life (a child's watchdog restarts on it).
using progress_fn = std::function<void()>;

/// Measures device-to-device cudaMemcpy (bytes read + written) of DRAM-sized buffers and of buffers
/// that fit in L2 together, pinned host->device, device->host, and both directions at once, each the
/// median of the timing settings' repetitions, calling `progress` (when set) after each. Sizes: up to
/// 1 GiB on the device (a quarter of free memory at most), a quarter of device.l2_cache_bytes each for
/// the L2 copy (none when it is 0), and 256 MiB pinned. Throws cuda_error.
ceilings measure_ceilings(const device_info& device, const measure_settings& settings,
                          const progress_fn& progress = {});

/// The process-wide ceilings: measured on the first call, the same afterwards.
const ceilings& process_ceilings(const device_info& device, const measure_settings& settings,
                                 const progress_fn& progress = {});

}  // namespace cudalab::host
