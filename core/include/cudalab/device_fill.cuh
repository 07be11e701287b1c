// Filling a device buffer on the GPU from a function of the element index: a lab's random inputs
// (random.hpp) made at memory speed instead of on the CPU and copied. Include it from a .cu file.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

#include "cudalab/cuda_error.hpp"

namespace cudalab {

namespace detail {
template <class T, class Value>
__global__ void fill_kernel(T* out, std::uint64_t n, Value value) {
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x)
    out[i] = value(i);
}

/// A grid for a grid-stride loop over n items: enough blocks to fill the GPU, at most one per 256 items.
inline unsigned grid_for(std::uint64_t n, unsigned block) {
  return static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>((n + block - 1) / block, 8192)));
}
}  // namespace detail

/// Enqueues out[i] = value(i) for every i < n on `stream`. `value` is a copyable functor with a
/// `__device__ T operator()(std::uint64_t i) const` (it may hold device pointers). `out` may be device
/// memory or mapped host memory. Throws cuda_error for a failed launch.
template <class T, class Value>
void fill_on_device(T* out, std::uint64_t n, Value value, cudaStream_t stream) {
  if (n == 0) return;
  constexpr unsigned block = 256;
  detail::fill_kernel<<<detail::grid_for(n, block), block, 0, stream>>>(out, n, value);
  CUDALAB_CHECK_LAUNCH();
}

}  // namespace cudalab
