// Device code of the test lab (kernels are nvcc-only; the index math is shared with g++): a coalesced copy and a scaled
// copy, with the index math shared with trace().
#pragma once

#include <cstdint>

#include "cudalab/host_device.hpp"

namespace testlab {

/// Element a thread copies in the flat copy: one element per thread, consecutive threads
/// touch consecutive elements (fully coalesced).
CUDALAB_HD std::uint64_t copy_index(std::uint64_t block, std::uint64_t block_dim, std::uint64_t thread) {
  return block * block_dim + thread;
}

#if defined(__CUDACC__)
/// Coalesced copy: out[i] = in[i]. Shows the best case of global access, 4 sectors per request.
__global__ void copy_kernel(const float* __restrict__ d_in, float* __restrict__ d_out, std::uint64_t n) {
  const std::uint64_t i = copy_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i < n) d_out[i] = d_in[i];
}

/// Repeated scaled copy: out[i] = in[i] * 2^-k after `rounds` dependent passes; a long kernel
/// with the same access pattern as the copy, for timing-stability checks.
__global__ void scale_kernel(const float* __restrict__ d_in, float* __restrict__ d_out, std::uint64_t n, int rounds) {
  const std::uint64_t i = copy_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i >= n) return;
  float v = d_in[i];
  for (int r = 0; r < rounds; ++r) v = v * 0.5f;
  d_out[i] = v;
}
#endif  // __CUDACC__

}  // namespace testlab
