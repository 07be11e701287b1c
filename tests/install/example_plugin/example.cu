// The example plugin's one kernel: fill an array with its index (a coalesced store).
#include <cstdint>

#include "cudalab/cuda_error.hpp"

namespace example {

__global__ void iota_kernel(int* d_out, std::uint64_t n) {
  const std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x;
  if (i < n) d_out[i] = static_cast<int>(i);
}

void launch_iota(int* d_out, std::uint64_t n, cudaStream_t stream) {
  if (n == 0) return;
  iota_kernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(d_out, n);
  CUDALAB_CHECK_LAUNCH();
}

}  // namespace example
