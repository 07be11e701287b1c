// Launchers of the @LAB@ lab's kernels: choose the kernel instance, size the grid, launch, check.
#include "@LAB@.hpp"

#include "@LAB@_kernels.cuh"
#include "cudalab/cuda_error.hpp"
#include "cudalab/device_compare.cuh"
#include "cudalab/device_fill.cuh"
#include "cudalab/dispatch.hpp"
#include "cudalab/random.hpp"

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

namespace {

/// The input: element i of random stream 0 of the seed, in [-1, 1).
struct random_input {
  cudalab::random_stream s;
  __device__ float operator()(std::uint64_t i) const { return s.signed_float(i); }
};

/// The reference: the same single multiply the kernels make, so the bits must match.
struct scaled_input {
  const float* in;
  float factor;
  __device__ float operator()(std::uint64_t i) const { return factor * in[i]; }
};

}  // namespace

void fill_input(float* d_in, std::uint64_t n, std::uint64_t seed, cudaStream_t stream) {
  cudalab::fill_on_device(d_in, n, random_input{cudalab::random_stream(seed, 0)}, stream);
}

cudalab::verification compare_scaled(const float* d_out, const float* d_in, std::uint64_t n, float factor,
                                     cudaStream_t stream) {
  return cudalab::compare_exact_on_device(d_out, n, scaled_input{d_in, factor}, stream);
}

}  // namespace @LAB@
