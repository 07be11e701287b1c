// Launchers of the mapped_pinned lab's kernels: choose the kernel instance, size the grid, launch, check.
#include "mapped_pinned.hpp"

#include "cudalab/cuda_error.hpp"
#include "cudalab/device_compare.cuh"
#include "cudalab/device_fill.cuh"
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

namespace {

/// The input (fill_input).
struct input_values {
  cudalab::random_stream s;
  __device__ int operator()(std::uint64_t i) const { return input_value(s, i); }
};

/// What every variant leaves in its output (compare_sums).
struct sums {
  cudalab::random_stream s;
  int increment, cycles;
  __device__ int operator()(std::uint64_t i) const { return add_reference(input_value(s, i), increment, cycles); }
};

}  // namespace

void fill_input(int* d_out, std::uint64_t n, std::uint64_t seed, cudaStream_t stream) {
  cudalab::fill_on_device(d_out, n, input_values{cudalab::random_stream(seed, 0)}, stream);
}

cudalab::verification compare_sums(const int* got, std::uint64_t n, std::uint64_t seed, int increment, int cycles,
                                   cudaStream_t stream) {
  return cudalab::compare_exact_on_device(got, n, sums{cudalab::random_stream(seed, 0), increment, cycles}, stream);
}

}  // namespace mapped_pinned
