// Device code of the @LAB@ lab, and the index math its kernels share with trace(): out[i] = factor * in[i],
// one float per thread, or 16-byte vectors in a grid-stride loop with `unroll` loads in flight.
#pragma once

#include <cstdint>

#include "cudalab/dispatch.hpp"
#include "cudalab/host_device.hpp"

namespace @LAB@ {

/// The unroll factors the vector kernel is built for: the `unroll` parameter accepts these, and the
/// launcher picks the kernel instance from the same list.
using unrolls = cudalab::choices<1, 2, 4>;

/// Floats in one 16-byte vector (a float4).
inline constexpr unsigned floats_per_vector = 4;

/// The element (or vector) thread `thread` of block `block` starts at.
CUDALAB_HD std::uint64_t first_item(std::uint64_t block, std::uint64_t block_dim, std::uint64_t thread) {
  return block * block_dim + thread;
}

#if defined(__CUDACC__)
/// One float per thread: a warp reads 32 consecutive floats, 4 sectors per request.
__global__ void scale_kernel(const float* __restrict__ d_in, float* __restrict__ d_out, std::uint64_t n,
                             float factor) {
  const std::uint64_t i = first_item(blockIdx.x, blockDim.x, threadIdx.x);
  if (i < n) d_out[i] = factor * d_in[i];
}

/// 16-byte vectors in a grid-stride loop, Unroll loads in flight per thread before the stores: a warp
/// reads 512 consecutive bytes, 16 sectors per request. Block 0's first threads scale the n % 4 floats
/// after the last whole vector.
template <int Unroll>
__global__ void scale_vec4_kernel(const float* __restrict__ d_in, float* __restrict__ d_out, std::uint64_t n,
                                  float factor) {
  const std::uint64_t vectors = n / floats_per_vector;
  const float4* in = reinterpret_cast<const float4*>(d_in);
  float4* out = reinterpret_cast<float4*>(d_out);
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t base = first_item(blockIdx.x, blockDim.x, threadIdx.x); base < vectors; base += Unroll * stride) {
    float4 v[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll; ++u)
      if (base + u * stride < vectors) v[u] = in[base + u * stride];
#pragma unroll
    for (int u = 0; u < Unroll; ++u)
      if (base + u * stride < vectors)
        out[base + u * stride] = make_float4(factor * v[u].x, factor * v[u].y, factor * v[u].z, factor * v[u].w);
  }
  const std::uint64_t tail = vectors * floats_per_vector + threadIdx.x;
  if (blockIdx.x == 0 && tail < n) d_out[tail] = factor * d_in[tail];
}
#endif  // __CUDACC__

}  // namespace @LAB@
