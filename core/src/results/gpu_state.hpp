// A GPU's state as NVML reports it (clocks, clock event reasons, power, temperature, violation times):
// one sample, the pair a run takes at its start and end, and what the two say about throttling.
// device/nvml reads the samples; here they are data, words and the judgement, without NVML.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cudalab::host {

/// Whether NVML (the driver's libnvidia-ml) could be used by the process that sampled the GPUs.
struct nvml_status {
  bool available = false;
  std::string library;         ///< the file loaded or tried ("libnvidia-ml.so.1", or $CUDALAB_NVML_LIBRARY)
  std::string reason;          ///< why it is not available ("" when it is)
  std::string driver_version;  ///< the NVIDIA driver's version ("580.65.06"), "" when unknown
};

/// One sample of a GPU. A value NVML could not give (not supported on this GPU, an error) is nullopt.
struct gpu_sample {
  std::int64_t taken_at_ms = 0;                                    ///< milliseconds since the Unix epoch (UTC)
  std::optional<unsigned> sm_clock_mhz, memory_clock_mhz;          ///< now
  std::optional<unsigned> max_sm_clock_mhz, max_memory_clock_mhz;  ///< the most the GPU can run at
  std::optional<unsigned> applications_sm_clock_mhz, applications_memory_clock_mhz;  ///< its target clocks
  std::optional<std::uint64_t> clocks_event_reasons;  ///< NVML's bits: why the clocks are what they are
  std::optional<double> power_w;                      ///< drawn now
  std::optional<double> power_limit_w;                ///< the limit the driver enforces
  std::optional<unsigned> temperature_c;              ///< the GPU die
  std::optional<unsigned> performance_state;          ///< P-state: 0 (P0, the fastest) to 15
  /// How long, in total since the driver started, power or heat held the clocks below the
  /// applications clocks (NVML's violation status), ns.
  std::optional<std::uint64_t> power_violation_ns, thermal_violation_ns;
};

/// What a run's two samples of one GPU say: the run ran throttled when the power or thermal violation
/// time grew between them, or a slowdown reason (slowdown_reason_bits) was active in either.
struct throttling {
  bool throttled = false;
  double between_s = 0;                       ///< from the start sample to the end sample
  std::optional<double> power_violation_s;    ///< power violation time that grew in between (nullopt: unknown)
  std::optional<double> thermal_violation_s;  ///< thermal violation time likewise
  std::vector<std::string> slowdown_reasons;  ///< slowdown reasons active at the start or the end, by name
  std::string warning;                        ///< what the run prints on stderr ("" when not throttled)
};

/// One GPU of a run through NVML: its samples at the start and at the end of the run, and their verdict.
struct gpu_state {
  std::string pci_bus_id;           ///< from the CUDA runtime ("0000:19:00.0"): how NVML finds the GPU
  std::string unavailable;          ///< why a sample is missing ("" when both were taken)
  std::optional<gpu_sample> start;  ///< before the first lab file runs (after the ceilings)
  std::optional<gpu_sample> end;    ///< after the last result
  throttling throttle;              ///< judged when both samples exist
};

/// The names of the clocks event reasons in `bits` ("gpu_idle", "sw_power_cap", ...), in bit order;
/// a bit NVML added later than cudalab knows is named by its value ("0x200").
std::vector<std::string> clocks_event_reason_names(std::uint64_t bits);

/// The reasons that slow a GPU down below the clocks it was asked for: software power capping,
/// hardware slowdown, software and hardware thermal slowdown, hardware power brake. Not: idle, the
/// applications clocks setting, sync boost or the display clock setting, which are settings or rest.
std::uint64_t slowdown_reason_bits();

/// The slowdown reasons active when `sample` was taken, by name (none: it was not throttled then).
std::vector<std::string> active_slowdowns(const gpu_sample& sample);

/// The verdict on the samples `start` and `end` of the GPU named `gpu` ("GPU 0 (NVIDIA H100 80GB HBM3)").
throttling judge_throttling(const gpu_sample& start, const gpu_sample& end, const std::string& gpu);

/// A sample in one line: "SM 1980 MHz of 1980, memory 2619 MHz of 2619, 71.5 W of 700 W, 35 C, P0,
/// reasons: gpu_idle" (what NVML could not give is left out).
std::string sample_text(const gpu_sample& sample);

}  // namespace cudalab::host
