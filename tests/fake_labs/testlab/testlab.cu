// Launchers of the test lab's kernels.
#include "testlab.hpp"

#include "cudalab/cuda_error.hpp"
#include "testlab_kernels.cuh"

namespace testlab {

namespace {
unsigned grid_for(std::uint64_t n, int block) { return static_cast<unsigned>((n + block - 1) / block); }
}  // namespace

void launch_copy(const float* d_in, float* d_out, std::uint64_t n, int block, cudaStream_t stream) {
  if (n == 0) return;
  copy_kernel<<<grid_for(n, block), block, 0, stream>>>(d_in, d_out, n);
  CUDALAB_CHECK_LAUNCH();
}

void launch_scale(const float* d_in, float* d_out, std::uint64_t n, int rounds, int block, cudaStream_t stream) {
  if (n == 0) return;
  scale_kernel<<<grid_for(n, block), block, 0, stream>>>(d_in, d_out, n, rounds);
  CUDALAB_CHECK_LAUNCH();
}

}  // namespace testlab
