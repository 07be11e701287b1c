// Launchers of the mapped_pinned lab's kernels: choose the kernel instance, size the grid, launch, check.
#include "mapped_pinned.hpp"

#include "cudalab/cuda_error.hpp"
#include "cudalab/dispatch.hpp"
#include "mapped_pinned_kernels.cuh"

namespace mapped_pinned {

void launch_add_unrolled(const int* d_in, int* d_out, std::uint64_t n, int increment, int cycles, int unroll, int block,
                         cudaStream_t stream) {
  if (n == 0) return;
  const auto grid = static_cast<unsigned>(add_grid(n, block, unroll));
  cudalab::dispatch(unrolls{}, unroll, "unroll", [&](auto u) {
    add_unrolled_kernel<u><<<grid, block, 0, stream>>>(d_in, d_out, n, increment, cycles);
  });
  CUDALAB_CHECK_LAUNCH();
}

void launch_add_strided(const int* d_in, int* d_out, std::uint64_t n, std::uint64_t stride, int increment, int cycles,
                        int block, cudaStream_t stream) {
  if (n == 0) return;
  const auto grid = static_cast<unsigned>(strided_grid(n, stride, block));
  add_strided_kernel<<<grid, block, 0, stream>>>(d_in, d_out, n, stride, increment, cycles);
  CUDALAB_CHECK_LAUNCH();
}

}  // namespace mapped_pinned
