// The device `explain` models without a GPU (model_device.hpp).
#include "model/model_device.hpp"

namespace cudalab::host {

device_info model_device() {
  device_info d;
  d.ordinal = -1;
  d.name = "NVIDIA H100 80GB HBM3 (modelled, not present)";
  d.cc_major = 9;
  d.cc_minor = 0;
  d.sm_count = 132;
  d.global_memory_bytes = std::uint64_t(80) << 30;
  d.l2_cache_bytes = std::uint64_t(50) << 20;
  d.shared_memory_per_block_optin_bytes = 227 * 1024;
  d.max_threads_per_block = 1024;
  d.max_threads_per_sm = 2048;
  d.memory_bus_width_bits = 5120;
  d.memory_clock_khz = 2619000;
  d.can_map_host_memory = true;
  return d;
}

}  // namespace cudalab::host
