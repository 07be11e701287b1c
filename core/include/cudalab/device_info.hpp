// device_info: the facts about the GPU that labs size themselves by and reports print.
#pragma once

#include <cstdint>
#include <string>

namespace cudalab {

/// Properties of the device a run uses, read once by the host (cudaGetDeviceProperties).
struct device_info {
  int ordinal = 0;
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  std::uint64_t global_memory_bytes = 0;
  std::uint64_t l2_cache_bytes = 0;
  std::uint64_t shared_memory_per_block_optin_bytes = 0;
  int max_threads_per_block = 0;
  int max_threads_per_sm = 0;  ///< resident threads per SM (2048 on Hopper)
  int memory_bus_width_bits = 0;
  int memory_clock_khz = 0;
  bool can_map_host_memory = false;
  /// Theoretical DRAM bandwidth in GB/s (10^9 bytes/s): 2 (DDR) x clock x bus width.
  double peak_dram_gbps() const { return 2.0 * memory_clock_khz * 1e3 * (memory_bus_width_bits / 8.0) / 1e9; }
};

}  // namespace cudalab
