// Launchers of the fault lab's kernels.
#include "faultlab.hpp"

#include "cudalab/cuda_error.hpp"
#include "faultlab_kernels.cuh"

namespace faultlab {

namespace {
unsigned grid_for(std::uint64_t n, int block) { return static_cast<unsigned>((n + block - 1) / block); }
}  // namespace

void launch_copy(const float* d_in, float* d_out, std::uint64_t n, int block, cudaStream_t stream) {
  if (n == 0) return;
  copy_kernel<<<grid_for(n, block), block, 0, stream>>>(d_in, d_out, n);
  CUDALAB_CHECK_LAUNCH();
}

void launch_oob_write(float* d_out, std::uint64_t n, int block, cudaStream_t stream) {
  if (n == 0) return;
  oob_write_kernel<<<grid_for(n, block), block, 0, stream>>>(d_out, n);
  CUDALAB_CHECK_LAUNCH();
}

void launch_spin_forever(const int* d_flag, float* d_out, cudaStream_t stream) {
  spin_forever_kernel<<<1, 32, 0, stream>>>(d_flag, d_out);
  CUDALAB_CHECK_LAUNCH();
}

void launch_wrong_value(const float* d_in, float* d_out, std::uint64_t n, int block, cudaStream_t stream) {
  if (n == 0) return;
  wrong_value_kernel<<<grid_for(n, block), block, 0, stream>>>(d_in, d_out, n);
  CUDALAB_CHECK_LAUNCH();
}

}  // namespace faultlab
