// Getting the GPU ready for a run: probe, device properties, the memory refusal, the ceilings.
#include "device/open_device.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <algorithm>

#include "cudalab/cuda_error.hpp"
#include "device/ceilings.hpp"
#include "device/cold_cache.hpp"
#include "device/cuda_software.hpp"
#include "device/gpu_probe.hpp"
#include "device/memory_check.hpp"
#include "exit_codes.hpp"
#include "plugin/plugin_call.hpp"

namespace cudalab::host {

int open_device(const std::vector<planned_lab>& plans, const measure_settings& timing,
                const std::optional<ceilings>& given, run_context& ctx, const progress_fn& progress) {
  const auto step_done = [&] {
    if (progress) progress();
  };
  const gpu_status gpu = probe_gpu();
  if (!gpu.usable) {
    fmt::print(stderr, "cudalab: {}\n", no_gpu_message(gpu));
    return exit_no_gpu;
  }
  step_done();
  try {
    ctx.device = read_device_info(0);
    ctx.gpu.pci_bus_id = read_pci_bus_id(0);
    const cuda_software cuda = read_cuda_software();
    ctx.cuda_runtime = cuda.runtime;
    ctx.cuda_driver = cuda.driver;
    int clock_khz = 0;
    if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0) == cudaSuccess) ctx.sm_clock_mhz = clock_khz / 1000;
  } catch (const cuda_error& e) {
    fmt::print(stderr, "cudalab: reading the device's properties failed: {}\n", e.what());
    return exit_cuda_error;
  }
  // Refuse sizes that cannot fit before anything is allocated.
  std::size_t free_device = 0, total_device = 0;
  const bool have_context = cudaMemGetInfo(&free_device, &total_device) == cudaSuccess;
  record_persisting_l2_default();  // before any lab or submission code runs
  if (have_context) {
    try {
      const auto problems = check_memory(plans, free_device, host_memory_available());
      if (!problems.empty()) {
        fmt::print(stderr, "{}\n", lab_file_error(problems).what());
        return exit_bad_lab_file;
      }
    } catch (const lab_call_error& e) {
      fmt::print(stderr, "cudalab: {}\n", e.what());
      return exit_lab_error;
    }
  }
  step_done();
  if (given) {
    ctx.measured = *given;
    return exit_ok;
  }
  const bool timed = std::any_of(plans.begin(), plans.end(), [](const auto& pl) { return pl.plan.measure.timing; });
  try {
    if (timed) ctx.measured = process_ceilings(ctx.device, timing, progress);
  } catch (const cuda_error& e) {
    fmt::print(stderr, "cudalab: measuring the device failed: {}\n", e.what());
    return exit_cuda_error;
  }
  return exit_ok;
}

}  // namespace cudalab::host
