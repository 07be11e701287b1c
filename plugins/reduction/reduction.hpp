// Host-side declarations of the reduction lab's launchers (the only door to its kernels).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "reduction_kernels.cuh"

namespace reduction {

/// One pass of kernel `k` (any but vector_single_pass): reduces d_in[0, n) to one partial per
/// block in d_out[0, blocks), `block` threads per block. REQUIRES: block a power of two in
/// [64, 1024]; n >= 1; blocks == pass_blocks(k, n, block, ...); d_out holds `blocks` elements.
/// Instantiated for float and int.
template <class T>
void launch_pass(kernel k, const T* d_in, T* d_out, std::uint64_t n, std::uint64_t blocks, unsigned block,
                 cudaStream_t stream);

/// The whole reduction in one launch of kernel 9: *d_result = sum of d_in[0, n).
/// REQUIRES: d_in 16-byte aligned; d_partials holds `blocks` elements; *d_counter == 0 (it is
/// left at 0); block a multiple of 32 in [64, 1024]. Instantiated for float and int.
template <class T>
void launch_vector_single_pass(const T* d_in, T* d_partials, unsigned* d_counter, T* d_result, std::uint64_t n,
                               std::uint64_t blocks, unsigned block, cudaStream_t stream);

/// Blocks of kernel `k` (for element type T) one SM keeps resident at `block` threads, from the
/// CUDA occupancy calculator; the grid-stride kernels launch sm_count times this (one wave).
template <class T>
int resident_blocks_per_sm(kernel k, unsigned block);

/// Scratch bytes cub::DeviceReduce::Sum needs for n elements of T.
template <class T>
std::size_t cub_sum_temp_bytes(std::uint64_t n);

/// *d_result = cub::DeviceReduce::Sum of d_in[0, n). REQUIRES: d_temp holds
/// cub_sum_temp_bytes<T>(n) bytes.
template <class T>
void launch_cub_sum(void* d_temp, std::size_t temp_bytes, const T* d_in, T* d_result, std::uint64_t n,
                    cudaStream_t stream);

}  // namespace reduction
