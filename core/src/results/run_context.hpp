// The run's context: what a run happened on and when, and the device's measured ceilings.
#pragma once

#include <string>
#include <vector>

#include "cudalab/device_info.hpp"

namespace cudalab::host {

/// The device's measured ceilings, GB/s (10^9 bytes/s), 0 when not measured.
struct ceilings {
  double d2d_copy_gbps = 0;  ///< device-to-device cudaMemcpy, bytes read + written
  double h2d_gbps = 0;       ///< pinned host to device
  double d2h_gbps = 0;       ///< device to pinned host
  double bidir_gbps = 0;     ///< both directions at once, bytes of both added
};

/// One GPU of a run over several (--devices).
struct run_device {
  int ordinal = 0;  ///< as --devices names it: a CUDA ordinal among the devices this process sees
  device_info device;
  ceilings measured;
};

/// What a run happened on and when.
struct run_context {
  std::string cudalab_version;
  std::string started_at;  ///< ISO 8601, UTC
  std::string command_line;
  device_info device;  ///< over several GPUs: the first listed
  ceilings measured;   ///< likewise
  std::string profile;
  std::vector<run_device> devices;  ///< --devices: every GPU listed once, in order; empty otherwise  ///< run profile
                                    ///< file, "" for built-in defaults
};

}  // namespace cudalab::host
