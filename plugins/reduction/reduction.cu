// Launchers of the reduction lab's kernels: pick the template instance, launch, check; and the CUB baseline.
#include "reduction.hpp"

#include <cub/cub.cuh>

#include <stdexcept>
#include <string>

#include "cudalab/cuda_error.hpp"
#include "reduction_kernels.cuh"

namespace reduction {

namespace {

std::size_t shared_bytes_for(kernel k, unsigned block, std::size_t element_bytes) {
  return k == kernel::warp_shuffle || k == kernel::vector_single_pass ? 0 : block * element_bytes;
}

template <class T, unsigned block_size>
void launch_fixed(kernel k, const T* d_in, T* d_out, std::uint64_t n, unsigned grid, cudaStream_t stream) {
  const std::size_t shared = std::size_t(block_size) * sizeof(T);
  if (k == kernel::unroll_complete)
    reduce_unroll_complete_kernel<T, block_size><<<grid, block_size, shared, stream>>>(d_in, d_out, n);
  else
    reduce_grid_stride_kernel<T, block_size><<<grid, block_size, shared, stream>>>(d_in, d_out, n);
  CUDALAB_CHECK_LAUNCH();
}

/// Calls f.template operator()<block_size>() for the compile-time block size equal to `block`.
template <class F>
void with_block_size(unsigned block, F&& f) {
  switch (block) {
    case 64: return f(std::integral_constant<unsigned, 64>{});
    case 128: return f(std::integral_constant<unsigned, 128>{});
    case 256: return f(std::integral_constant<unsigned, 256>{});
    case 512: return f(std::integral_constant<unsigned, 512>{});
    case 1024: return f(std::integral_constant<unsigned, 1024>{});
    default: throw std::invalid_argument("reduction: block must be 64, 128, 256, 512 or 1024, not " +
                                         std::to_string(block));
  }
}

unsigned grid_of(std::uint64_t blocks) {
  if (blocks == 0 || blocks > 0x7fffffffu) throw std::invalid_argument("reduction: grid size out of range");
  return static_cast<unsigned>(blocks);
}

}  // namespace

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
    case kernel::grid_stride:
      with_block_size(block, [&](auto size) { launch_fixed<T, decltype(size)::value>(k, d_in, d_out, n, grid, stream); });
      return;
    case kernel::warp_shuffle:
      reduce_warp_shuffle_kernel<T><<<grid, block, shared, stream>>>(d_in, d_out, n);
      break;
    case kernel::vector_single_pass:
      throw std::invalid_argument("reduction: vector_single_pass has its own launcher");
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
  const std::size_t shared = shared_bytes_for(k, block, sizeof(T));
  switch (k) {
    case kernel::grid_stride:
      with_block_size(block, [&](auto size) {
        CUDALAB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &blocks, reduce_grid_stride_kernel<T, decltype(size)::value>, int(block), shared));
      });
      break;
    case kernel::warp_shuffle:
      CUDALAB_CUDA_CHECK(
          cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, reduce_warp_shuffle_kernel<T>, int(block), shared));
      break;
    case kernel::vector_single_pass:
      CUDALAB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &blocks, reduce_vector_single_pass_kernel<T>, int(block), shared));
      break;
    default:
      blocks = int(max_threads_per_sm / block);
  }
  return blocks > 0 ? blocks : 1;
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
  CUDALAB_CUDA_CHECK(
      cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_result, static_cast<std::int64_t>(n), stream));
}

#define REDUCTION_INSTANTIATE(T)                                                                               \
  template void launch_pass<T>(kernel, const T*, T*, std::uint64_t, std::uint64_t, unsigned, cudaStream_t);  \
  template void launch_vector_single_pass<T>(const T*, T*, unsigned*, T*, std::uint64_t, std::uint64_t,      \
                                             unsigned, cudaStream_t);                                        \
  template int resident_blocks_per_sm<T>(kernel, unsigned);                                                  \
  template std::size_t cub_sum_temp_bytes<T>(std::uint64_t);                                                 \
  template void launch_cub_sum<T>(void*, std::size_t, const T*, T*, std::uint64_t, cudaStream_t);

REDUCTION_INSTANTIATE(float)
REDUCTION_INSTANTIATE(int)

#undef REDUCTION_INSTANTIATE

}  // namespace reduction
