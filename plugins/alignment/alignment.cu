// Launchers of the alignment lab's kernels: pick the template instance, size the grid, launch, check.
#include "alignment.hpp"

#include <algorithm>
#include <stdexcept>

#include "alignment_kernels.cuh"
#include "cudalab/cuda_error.hpp"
#include "cudalab/device_compare.cuh"
#include "cudalab/device_fill.cuh"
#include "cudalab/dispatch.hpp"
#include "cudalab/random.hpp"

namespace alignment {

namespace {

unsigned grid_of(std::uint64_t items, int block, int unroll) {
  return static_cast<unsigned>(
      blocks_for(items, static_cast<std::uint64_t>(block), static_cast<std::uint64_t>(unroll)));
}

template <class Load>
void offset_read_with(const float* d_in, float* d_out, std::uint64_t count, std::uint64_t offset, int unroll, int block,
                      cudaStream_t stream) {
  const unsigned grid = grid_of(count, block, unroll);
  cudalab::dispatch(unrolls{}, unroll, "unroll", [&](auto u) {
    offset_read_kernel<Load, u><<<grid, block, 0, stream>>>(d_in, d_out, count, offset);
  });
  CUDALAB_CHECK_LAUNCH();
}

template <class Vec>
void vector_copy_of(const float* d_in, float* d_out, std::uint64_t n, int unroll, int block, cudaStream_t stream) {
  const std::uint64_t width = sizeof(Vec) / sizeof(float);
  // At least one block, so that the scalar tail of an n < width array is still copied.
  const unsigned grid = std::max(1u, grid_of(n / width, block, unroll));
  cudalab::dispatch(unrolls{}, unroll, "unroll",
                    [&](auto u) { vector_copy_kernel<Vec, u><<<grid, block, 0, stream>>>(d_in, d_out, n); });
  CUDALAB_CHECK_LAUNCH();
}

template <class Access>
void grid_stride_copy_with(const float* d_in, float* d_out, std::uint64_t n, int unroll, int grid, int block,
                           cudaStream_t stream) {
  cudalab::dispatch(unrolls{}, unroll, "unroll",
                    [&](auto u) { grid_stride_copy_kernel<Access, u><<<grid, block, 0, stream>>>(d_in, d_out, n); });
  CUDALAB_CHECK_LAUNCH();
}

}  // namespace

void launch_offset_read(const float* d_in, float* d_out, std::uint64_t count, std::uint64_t offset, cache_operator op,
                        int unroll, int block, cudaStream_t stream) {
  if (count == 0) return;
  switch (op) {
    case cache_operator::default_path:
      return offset_read_with<load_default>(d_in, d_out, count, offset, unroll, block, stream);
    case cache_operator::ldg:
      return offset_read_with<load_ldg>(d_in, d_out, count, offset, unroll, block, stream);
    case cache_operator::ldca:
      return offset_read_with<load_ldca>(d_in, d_out, count, offset, unroll, block, stream);
    case cache_operator::ldcg:
      return offset_read_with<load_ldcg>(d_in, d_out, count, offset, unroll, block, stream);
    case cache_operator::ldcs:
      return offset_read_with<load_ldcs>(d_in, d_out, count, offset, unroll, block, stream);
  }
}

void launch_offset_write(const float* d_in, float* d_out, std::uint64_t count, std::uint64_t offset, int unroll,
                         int block, cudaStream_t stream) {
  if (count == 0) return;
  const unsigned grid = grid_of(count, block, unroll);
  cudalab::dispatch(unrolls{}, unroll, "unroll",
                    [&](auto u) { offset_write_kernel<u><<<grid, block, 0, stream>>>(d_in, d_out, count, offset); });
  CUDALAB_CHECK_LAUNCH();
}

void launch_offset_copy(const float* d_in, float* d_out, std::uint64_t count, std::uint64_t offset, int unroll,
                        int block, cudaStream_t stream) {
  if (count == 0) return;
  const unsigned grid = grid_of(count, block, unroll);
  cudalab::dispatch(unrolls{}, unroll, "unroll",
                    [&](auto u) { offset_copy_kernel<u><<<grid, block, 0, stream>>>(d_in, d_out, count, offset); });
  CUDALAB_CHECK_LAUNCH();
}

void launch_strided_read(const float* d_in, float* d_out, std::uint64_t count, std::uint64_t stride, int unroll,
                         int block, cudaStream_t stream) {
  if (count == 0) return;
  const unsigned grid = grid_of(count, block, unroll);
  cudalab::dispatch(unrolls{}, unroll, "unroll",
                    [&](auto u) { strided_read_kernel<u><<<grid, block, 0, stream>>>(d_in, d_out, count, stride); });
  CUDALAB_CHECK_LAUNCH();
}

void launch_vector_copy(const float* d_in, float* d_out, std::uint64_t n, int vector_bytes, int unroll, int block,
                        cudaStream_t stream) {
  if (n == 0) return;
  switch (vector_bytes) {
    case 4:
      return vector_copy_of<float>(d_in, d_out, n, unroll, block, stream);
    case 8:
      return vector_copy_of<float2>(d_in, d_out, n, unroll, block, stream);
    case 16:
      return vector_copy_of<float4>(d_in, d_out, n, unroll, block, stream);
    default:
      throw std::invalid_argument("vector width must be 4, 8 or 16 bytes");
  }
}

void launch_grid_stride_copy(const float* d_in, float* d_out, std::uint64_t n, copy_hint hint, int unroll, int grid,
                             int block, cudaStream_t stream) {
  if (n == 0) return;
  if (hint == copy_hint::streaming)
    grid_stride_copy_with<streaming_access>(d_in, d_out, n, unroll, grid, block, stream);
  else
    grid_stride_copy_with<plain_access>(d_in, d_out, n, unroll, grid, block, stream);
}

int grid_stride_blocks_per_sm(int block) {
  // The unroll-1 plain instance stands for all: they use about the same registers and no shared memory.
  int blocks = 0;
  CUDALAB_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, grid_stride_copy_kernel<plain_access, 1>, block, 0));
  return blocks;
}

namespace {

/// The input: random floats in [-1, 1), stored as their bit patterns.
struct random_input {
  cudalab::random_stream s;
  __device__ std::uint32_t operator()(std::uint64_t i) const { return __float_as_uint(s.signed_float(i)); }
};

/// What output element j holds after a correct run: the input element moved there, or the poison.
struct moved_element {
  const std::uint32_t* in;
  movement how;
  std::uint64_t count, offset, stride;
  std::uint32_t poison;

  __device__ std::uint32_t operator()(std::uint64_t j) const {
    switch (how) {
      case movement::copy:
        return in[j];
      case movement::read_shifted:
        return j < count ? in[j + offset] : poison;
      case movement::write_shifted:
        return j >= offset && j - offset < count ? in[j - offset] : poison;
      case movement::both_shifted:
        return j >= offset && j - offset < count ? in[j] : poison;
      case movement::strided:
        return j < count ? in[j * stride] : poison;
    }
    return poison;
  }
};

}  // namespace

void fill_input(std::uint32_t* d_in, std::uint64_t n, std::uint64_t seed, cudaStream_t stream) {
  cudalab::fill_on_device(d_in, n, random_input{cudalab::random_stream(seed, 0)}, stream);
}

cudalab::verification compare_moved(const std::uint32_t* d_out, const std::uint32_t* d_in, std::uint64_t n,
                                    movement how, std::uint64_t count, std::uint64_t offset, std::uint64_t stride,
                                    std::uint32_t poison, cudaStream_t stream) {
  return cudalab::compare_exact_on_device(d_out, n, moved_element{d_in, how, count, offset, stride, poison}, stream);
}

}  // namespace alignment
