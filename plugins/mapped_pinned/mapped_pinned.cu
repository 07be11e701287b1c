// Launchers of the mapped_pinned lab's kernels.
#include "mapped_pinned.hpp"

#include <stdexcept>
#include <string>

#include "cudalab/cuda_error.hpp"
#include "mapped_pinned_kernels.cuh"

namespace mapped_pinned {

void launch_add_unrolled(const int* d_in, int* d_out, std::uint64_t n, int increment, int cycles, int unroll,
                         int block, cudaStream_t stream) {
  if (n == 0) return;
  const auto grid = static_cast<unsigned>(add_grid(n, block, unroll));
  switch (unroll) {
    case 1:
      add_unrolled_kernel<1><<<grid, block, 0, stream>>>(d_in, d_out, n, increment, cycles);
      break;
    case 2:
      add_unrolled_kernel<2><<<grid, block, 0, stream>>>(d_in, d_out, n, increment, cycles);
      break;
    case 4:
      add_unrolled_kernel<4><<<grid, block, 0, stream>>>(d_in, d_out, n, increment, cycles);
      break;
    default:
      throw std::invalid_argument("mapped_pinned: unroll must be 1, 2 or 4, not " + std::to_string(unroll));
  }
  CUDALAB_CHECK_LAUNCH();
}

void launch_add_strided(const int* d_in, int* d_out, std::uint64_t n, std::uint64_t stride, int increment,
                        int cycles, int block, cudaStream_t stream) {
  if (n == 0) return;
  const auto grid = static_cast<unsigned>(strided_grid(n, stride, block));
  add_strided_kernel<<<grid, block, 0, stream>>>(d_in, d_out, n, stride, increment, cycles);
  CUDALAB_CHECK_LAUNCH();
}

}  // namespace mapped_pinned
