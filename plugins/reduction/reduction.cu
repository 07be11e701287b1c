// Launchers of the reduction lab's kernels: pick the template instance, launch, check; and the CUB baseline.
#include "reduction.hpp"

#include <cub/cub.cuh>

#include <algorithm>
#include <stdexcept>

#include "cudalab/cuda_error.hpp"
#include "cudalab/dispatch.hpp"
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
  template void launch_cub_sum<T>(void*, std::size_t, const T*, T*, std::uint64_t, cudaStream_t);

REDUCTION_INSTANTIATE(float)
REDUCTION_INSTANTIATE(int)

#undef REDUCTION_INSTANTIATE

}  // namespace reduction
