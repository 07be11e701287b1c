// Launchers of the reduction lab's kernels: pick the template instance, launch, check; and the CUB baseline.
#include "reduction.hpp"

#include <cub/cub.cuh>

#include <algorithm>
#include <stdexcept>

#include "cudalab/cuda_error.hpp"
#include "cudalab/device_buffer.hpp"
#include "cudalab/device_fill.cuh"
#include "cudalab/dispatch.hpp"
#include "cudalab/random.hpp"
#include "reduction_kernels.cuh"

namespace reduction {

namespace {

std::size_t shared_bytes_for(kernel k, unsigned block, std::size_t element_bytes) {
  return k == kernel::warp_shuffle || k == kernel::vector_single_pass ? 0 : block * element_bytes;
}

unsigned grid_of(std::uint64_t blocks) {
  if (blocks == 0 || blocks > 0x7fffffffu) throw std::invalid_argument("grid size out of range");
  return static_cast<unsigned>(blocks);
}

/// Input element i (fill_input): a float that is a multiple of 2^-24 in [0, 1), or an int in [-100, 100].
template <class T>
struct random_input;
template <>
struct random_input<float> {
  cudalab::random_stream s;
  __device__ float operator()(std::uint64_t i) const { return s.unit_float(i); }
};
template <>
struct random_input<int> {
  cudalab::random_stream s;
  __device__ int operator()(std::uint64_t i) const { return static_cast<int>(s.integer(i, -100, 100)); }
};

/// An input element in the reference's integer units: 2^-24 for a float (x * 2^24 is a whole number
/// below 2^24 for fill_input's floats, so the product and the conversion are exact), 1 for an int.
__device__ __forceinline__ long long units_of(float x) { return static_cast<long long>(x * 16777216.0f); }
__device__ __forceinline__ long long units_of(int x) { return x; }

/// d_sums[0] += sum of units_of(x), d_sums[1] += sum of |units_of(x)|, over d_in[0, n), in 64-bit
/// integers (wrapping addition of two's-complement words: the total is exact, it is far below 2^63).
/// REQUIRES: blockDim.x a multiple of 32 (whole warps reach the shuffles: no thread leaves early).
template <class T>
__global__ void reference_sums_kernel(const T* __restrict__ d_in, std::uint64_t n,
                                      unsigned long long* __restrict__ d_sums) {
  unsigned long long sum = 0, abs_sum = 0;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    const long long u = units_of(d_in[i]);
    sum += static_cast<unsigned long long>(u);
    abs_sum += static_cast<unsigned long long>(u < 0 ? -u : u);
  }
  for (unsigned offset = warp_size / 2; offset > 0; offset >>= 1) {
    sum += __shfl_down_sync(0xffffffffu, sum, offset);
    abs_sum += __shfl_down_sync(0xffffffffu, abs_sum, offset);
  }
  if (threadIdx.x % warp_size == 0) {
    atomicAdd(&d_sums[0], sum);
    atomicAdd(&d_sums[1], abs_sum);
  }
}

}  // namespace

template <class T>
void fill_input(T* d_in, std::uint64_t n, std::uint64_t seed, cudaStream_t stream) {
  cudalab::fill_on_device(d_in, n, random_input<T>{cudalab::random_stream(seed, 0)}, stream);
}

template <class T>
exact_sums reference_sums(const T* d_in, std::uint64_t n, cudaStream_t stream) {
  constexpr unsigned block = 256;
  const std::uint64_t blocks = std::min<std::uint64_t>(std::max<std::uint64_t>((n + block - 1) / block, 1), 4096);
  cudalab::device_buffer<unsigned long long> d_sums(2);
  d_sums.fill_bytes(0, stream);
  reference_sums_kernel<T><<<static_cast<unsigned>(blocks), block, 0, stream>>>(d_in, n, d_sums.data());
  CUDALAB_CHECK_LAUNCH();
  unsigned long long h_sums[2] = {0, 0};
  d_sums.download(h_sums, stream);
  // Cleared before the memory is freed: freed device memory keeps its bytes, and a submission that reads
  // where the allocator put them (right after the input) would find the answer there.
  d_sums.fill_bytes(0, stream);
  CUDALAB_CUDA_CHECK(cudaStreamSynchronize(stream));
  return {static_cast<std::int64_t>(h_sums[0]), static_cast<std::uint64_t>(h_sums[1])};
}

template <class T>
void launch_pass(kernel k, const T* d_in, T* d_out, std::uint64_t n, std::uint64_t blocks, unsigned block,
                 cudaStream_t stream) {
  const unsigned grid = grid_of(blocks);
  const std::size_t shared = shared_bytes_for(k, block, sizeof(T));
  switch (k) {
    case kernel::interleaved_divergent:
      reduce_interleaved_divergent_kernel<T><<<grid, block, shared, stream>>>(d_in, d_out, n);
      break;
    case kernel::interleaved_strided:
      reduce_interleaved_strided_kernel<T><<<grid, block, shared, stream>>>(d_in, d_out, n);
      break;
    case kernel::sequential:
      reduce_sequential_kernel<T><<<grid, block, shared, stream>>>(d_in, d_out, n);
      break;
    case kernel::first_add:
      reduce_first_add_kernel<T><<<grid, block, shared, stream>>>(d_in, d_out, n);
      break;
    case kernel::unroll_last_warp:
      reduce_unroll_last_warp_kernel<T><<<grid, block, shared, stream>>>(d_in, d_out, n);
      break;
    case kernel::unroll_complete:
      cudalab::dispatch(block_sizes{}, block, "block", [&](auto b) {
        reduce_unroll_complete_kernel<T, b><<<grid, block, shared, stream>>>(d_in, d_out, n);
      });
      break;
    case kernel::grid_stride:
      cudalab::dispatch(block_sizes{}, block, "block", [&](auto b) {
        reduce_grid_stride_kernel<T, b><<<grid, block, shared, stream>>>(d_in, d_out, n);
      });
      break;
    case kernel::warp_shuffle:
      reduce_warp_shuffle_kernel<T><<<grid, block, shared, stream>>>(d_in, d_out, n);
      break;
    case kernel::vector_single_pass:
      throw std::invalid_argument("vector_single_pass has its own launcher");
  }
  CUDALAB_CHECK_LAUNCH();
}

template <class T>
void launch_vector_single_pass(const T* d_in, T* d_partials, unsigned* d_counter, T* d_result, std::uint64_t n,
                               std::uint64_t blocks, unsigned block, cudaStream_t stream) {
  reduce_vector_single_pass_kernel<T><<<grid_of(blocks), block, 0, stream>>>(d_in, d_partials, d_counter, d_result, n);
  CUDALAB_CHECK_LAUNCH();
}

template <class T>
int resident_blocks_per_sm(kernel k, unsigned block) {
  int blocks = 0;
  auto occupancy = [&](auto kernel_function) {
    CUDALAB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel_function, int(block),
                                                                     shared_bytes_for(k, block, sizeof(T))));
  };
  switch (k) {
    case kernel::grid_stride:
      cudalab::dispatch(block_sizes{}, block, "block", [&](auto b) { occupancy(reduce_grid_stride_kernel<T, b>); });
      break;
    case kernel::warp_shuffle:
      occupancy(reduce_warp_shuffle_kernel<T>);
      break;
    case kernel::vector_single_pass:
      occupancy(reduce_vector_single_pass_kernel<T>);
      break;
    default:
      throw std::invalid_argument("only the grid-stride kernels launch a wave of resident blocks");
  }
  return std::max(blocks, 1);
}

template <class T>
std::size_t cub_sum_temp_bytes(std::uint64_t n) {
  std::size_t bytes = 0;
  CUDALAB_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr),
                                            static_cast<std::int64_t>(n)));
  return bytes;
}

template <class T>
void launch_cub_sum(void* d_temp, std::size_t temp_bytes, const T* d_in, T* d_result, std::uint64_t n,
                    cudaStream_t stream) {
  CUDALAB_CUDA_CHECK(cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_result, static_cast<std::int64_t>(n), stream));
}

#define REDUCTION_INSTANTIATE(T)                                                                                  \
  template void launch_pass<T>(kernel, const T*, T*, std::uint64_t, std::uint64_t, unsigned, cudaStream_t);       \
  template void launch_vector_single_pass<T>(const T*, T*, unsigned*, T*, std::uint64_t, std::uint64_t, unsigned, \
                                             cudaStream_t);                                                       \
  template int resident_blocks_per_sm<T>(kernel, unsigned);                                                       \
  template std::size_t cub_sum_temp_bytes<T>(std::uint64_t);                                                      \
  template void launch_cub_sum<T>(void*, std::size_t, const T*, T*, std::uint64_t, cudaStream_t);                 \
  template void fill_input<T>(T*, std::uint64_t, std::uint64_t, cudaStream_t);                                    \
  template exact_sums reference_sums<T>(const T*, std::uint64_t, cudaStream_t);

REDUCTION_INSTANTIATE(float)
REDUCTION_INSTANTIATE(int)

#undef REDUCTION_INSTANTIATE

}  // namespace reduction
