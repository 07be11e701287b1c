// NVML, the NVIDIA driver's management library (libnvidia-ml), loaded at run time, and a run's GPUs
// sampled through it at the run's start and end. Nothing here fails a run: without NVML the context
// says why, and the run goes on.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "results/gpu_state.hpp"
#include "results/run_context.hpp"

namespace cudalab::host {

/// libnvidia-ml, loaded and initialised for as long as the object lives (nvmlShutdown and dlclose
/// when it goes). NVML needs no CUDA context and sees every GPU of the host whatever
/// CUDA_VISIBLE_DEVICES says, so the parent of an isolated run can sample the GPUs its children use.
class nvml_library {
 public:
  /// Loads $CUDALAB_NVML_LIBRARY when set (a test's fake NVML), else libnvidia-ml.so.1, and
  /// initialises NVML. Never throws: a library that is missing, lacks a function cudalab needs or fails
  /// to initialise leaves status().available false, with the reason.
  nvml_library();
  ~nvml_library();
  nvml_library(const nvml_library&) = delete;
  nvml_library& operator=(const nvml_library&) = delete;

  const nvml_status& status() const { return status_; }

  /// The GPU at `pci_bus_id` (as cudaDeviceGetPCIBusId writes it) now; nullopt, with `why` set, when
  /// NVML is unavailable or has no such GPU. A value NVML cannot give on this GPU is left out of the
  /// sample. Uses nvmlDeviceGetCurrentClocksEventReasons, or its older name
  /// nvmlDeviceGetCurrentClocksThrottleReasons on a driver that lacks it.
  std::optional<gpu_sample> sample(const std::string& pci_bus_id, std::string& why) const;

 private:
  struct functions;
  struct library_closer {
    void operator()(void* handle) const noexcept;
  };

  nvml_status status_;
  std::unique_ptr<void, library_closer> library_;
  std::unique_ptr<functions> fn_;
};

/// Sets context.nvml and takes the start sample of each GPU of the run (each of context.devices, or
/// its one GPU; context.gpu then mirrors the first), each found by the PCI bus id open_device read;
/// a GPU that cannot be sampled gets the reason in its `unavailable`. Called once the GPUs are ready
/// (after the ceilings), before the first lab file runs. Returns what to say about the GPUs that
/// cannot be sampled (one line when NVML itself is unavailable).
std::vector<std::string> record_gpu_start(const nvml_library& nvml, run_context& context);

/// Takes the end sample of each GPU and judges it (judge_throttling), after the last result; returns
/// the warning of each GPU that ran throttled, in the order of the GPUs.
std::vector<std::string> record_gpu_end(const nvml_library& nvml, run_context& context);

}  // namespace cudalab::host
