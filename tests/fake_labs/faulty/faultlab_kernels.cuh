// Device code of the fault lab: a correct copy and three kernels that fail on purpose (an out-of-bounds
// write, a kernel that never ends, a wrong result), to test how cudalab survives them.
#pragma once

#include <cstdint>

#include "cudalab/host_device.hpp"

namespace faultlab {

/// Element a thread handles: one per thread, consecutive threads on consecutive elements.
CUDALAB_HD std::uint64_t element_index(std::uint64_t block, std::uint64_t block_dim, std::uint64_t thread) {
  return block * block_dim + thread;
}

/// How far past the end of the output the out-of-bounds kernel writes: 1 TiB, far from any allocation.
inline constexpr std::uint64_t oob_distance_elements = (std::uint64_t(1) << 40) / sizeof(float);

#if defined(__CUDACC__)
/// Correct coalesced copy: out[i] = in[i].
__global__ void copy_kernel(const float* __restrict__ d_in, float* __restrict__ d_out, std::uint64_t n) {
  const std::uint64_t i = element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i < n) d_out[i] = d_in[i];
}

/// Writes 1 TiB past the end of the output: an illegal address, a sticky error for the context.
__global__ void oob_write_kernel(float* d_out, std::uint64_t n) {
  const std::uint64_t i = element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i < n) d_out[n + oob_distance_elements + i] = 1.0f;
}

/// Never ends: waits for a flag nobody sets (volatile, so the load is repeated every time).
__global__ void spin_forever_kernel(const volatile int* d_flag, float* d_out) {
  while (*d_flag == 0) {
  }
  d_out[threadIdx.x] = 0.0f;
}

/// Wrong result: out[i] = in[i] + 1.
__global__ void wrong_value_kernel(const float* __restrict__ d_in, float* __restrict__ d_out, std::uint64_t n) {
  const std::uint64_t i = element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i < n) d_out[i] = d_in[i] + 1.0f;
}
#endif  // __CUDACC__

}  // namespace faultlab
