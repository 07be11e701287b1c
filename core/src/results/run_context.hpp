// The run's context: what a run happened on and when, the device's measured ceilings, its state
// through NVML at the start and end, and an isolated run's schedule (each job on its GPU).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cudalab/device_info.hpp"
#include "results/gpu_state.hpp"

namespace cudalab::host {

/// The device's measured ceilings, GB/s (10^9 bytes/s), 0 when not measured.
struct ceilings {
  double d2d_copy_gbps = 0;  ///< device-to-device cudaMemcpy, bytes read + written
  double h2d_gbps = 0;       ///< pinned host to device
  double d2h_gbps = 0;       ///< device to pinned host
  double bidir_gbps = 0;     ///< both directions at once, bytes of both added
  /// device-to-device cudaMemcpy of buffers that fit in L2 together (each a quarter of it), bytes read +
  /// written: the ceiling of a working set that stays in L2
  double l2_copy_gbps = 0;
};

/// One GPU of a run over several (--devices).
struct run_device {
  int ordinal = 0;  ///< as --devices names it: a CUDA ordinal among the devices this process sees
  device_info device;
  ceilings measured;
  gpu_state gpu;  ///< its clocks, power and throttling at the start and end of the run (NVML)
};

/// A lab file of the run as it was planned: every parameter (fixed ones and each swept axis's
/// values), the effective [measure] settings and the seed, so that a results file says what ran.
struct lab_description {
  std::string file;  ///< as given on the command line (results' lab_file)
  std::string plugin;
  std::string title;
  /// What the lab file says it shows and what to look for: its leading comment, without the '#'s
  /// (lines kept; "" when it has none)
  std::string about;
  std::vector<std::pair<std::string, std::string>> params;              ///< every parameter's value at the base point
  std::vector<std::pair<std::string, std::vector<std::string>>> sweep;  ///< each swept axis, its values
  std::vector<std::pair<std::string, std::string>> sweep_spacing;       ///< each swept axis: list, step or factor
  std::vector<std::vector<std::string>> sweep_zip;  ///< each zipped group's axes, which move together (none: a product)
  std::vector<std::pair<std::string, std::string>> measure;  ///< every [measure] setting in effect
  std::vector<std::string> variants;                         ///< run, the baseline first
};

/// One job of an isolated run as it ran: a lab file, a part of its points (--devices), or in variant
/// mode one point's variants.
struct scheduled_job {
  std::string lab_file;           ///< as given on the command line (results' lab_file)
  std::uint64_t first_point = 0;  ///< its first and last point index
  std::uint64_t last_point = 0;
  int device = -1;        ///< the GPU ordinal of the worker that ran it (-1: the run names no GPU)
  bool alone = false;     ///< over several workers, it ran with nothing beside it (its traffic crosses the host bus)
  double start_s = 0;     ///< when it started, seconds after the run started
  double duration_s = 0;  ///< how long its children took, seconds
};

/// How an isolated run spent its time: the start, then each job on its worker.
struct run_schedule {
  /// Seconds from the run's start until the GPUs were ready: each one probed and its ceilings measured,
  /// one after the other, by a child of its own.
  double probe_s = 0;
  double end_s = 0;                 ///< when the last job ended, seconds after the run started
  std::vector<scheduled_job> jobs;  ///< the jobs that started, in plan order
};

/// What a run happened on and when.
struct run_context {
  std::string cudalab_version;
  std::string git_revision;        ///< the commit cudalab was built from ("-dirty", or "unknown")
  std::string cuda_toolkit;        ///< the CUDA toolkit it was built with ("13.0.48")
  std::string cuda_architectures;  ///< the GPU architectures it was built for ("90")
  std::string cuda_runtime;        ///< the CUDA runtime it ran on ("13.0")
  std::string cuda_driver;         ///< the newest CUDA the driver supports ("13.0")
  std::string hostname;
  std::string started_at;  ///< ISO 8601 with its zone: UTC, "2026-11-24T03:12:09Z"
  std::string command_line;
  device_info device;                    ///< over several GPUs: the first listed
  int sm_clock_mhz = 0;                  ///< the device's top SM clock (the runtime's clock rate attribute)
  ceilings measured;                     ///< likewise
  gpu_state gpu;                         ///< likewise: its state through NVML at the start and end
  nvml_status nvml;                      ///< whether that state could be read, and the driver's version
  std::string profile;                   ///< run profile file, "" for built-in defaults
  std::string counters;                  ///< `run --profile`: which ncu counted ("Nsight Compute 2025.3.1.0"), or
                                         ///< why nothing was counted; "" for a run without --profile
  std::vector<run_device> devices;       ///< --devices: every GPU listed once, in order; empty otherwise
  std::vector<lab_description> labs;     ///< the lab files run, in order
  std::optional<run_schedule> schedule;  ///< an isolated run's (jobs once it ended); none in one process
};

}  // namespace cudalab::host
