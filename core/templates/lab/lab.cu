// Launchers of the @LAB@ lab's kernels: choose the kernel instance, size the grid, launch, check.
#include "@LAB@.hpp"

#include "@LAB@_kernels.cuh"
#include "cudalab/cuda_error.hpp"
#include "cudalab/dispatch.hpp"

namespace @LAB@ {

void launch_scale(const float* d_in, float* d_out, std::uint64_t n, float factor, int block, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>((n + block - 1) / block);
  scale_kernel<<<blocks, block, 0, stream>>>(d_in, d_out, n, factor);
  CUDALAB_CHECK_LAUNCH();
}

void launch_scale_vec4(const float* d_in, float* d_out, std::uint64_t n, float factor, int unroll, int blocks,
                       int block, cudaStream_t stream) {
  cudalab::dispatch(unrolls{}, unroll, "unroll", [&](auto u) {
    scale_vec4_kernel<u><<<blocks, block, 0, stream>>>(d_in, d_out, n, factor);
  });
  CUDALAB_CHECK_LAUNCH();
}

}  // namespace @LAB@
