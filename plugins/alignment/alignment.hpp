// Host-side declarations of the alignment lab's launchers (the only door to its kernels).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cudalab/verification.hpp"

namespace alignment {

/// The cache operator a misaligned read uses (see alignment_kernels.cuh).
enum class cache_operator { default_path, ldg, ldca, ldcg, ldcs };

/// Whether the grid-stride copy uses plain or streaming (evict-first) loads and stores.
enum class copy_hint { plain, streaming };

/// d_out[i] = d_in[i + offset] for i < count, loaded with `op`, `unroll` elements per thread.
/// REQUIRES: unroll is one of `unrolls`; block is a multiple of 32; d_in holds count + offset floats.
void launch_offset_read(const float* d_in, float* d_out, std::uint64_t count, std::uint64_t offset, cache_operator op,
                        int unroll, int block, cudaStream_t stream);

/// d_out[i + offset] = d_in[i] for i < count. REQUIRES: as launch_offset_read.
void launch_offset_write(const float* d_in, float* d_out, std::uint64_t count, std::uint64_t offset, int unroll,
                         int block, cudaStream_t stream);

/// d_out[i + offset] = d_in[i + offset] for i < count. REQUIRES: as launch_offset_read.
void launch_offset_copy(const float* d_in, float* d_out, std::uint64_t count, std::uint64_t offset, int unroll,
                        int block, cudaStream_t stream);

/// d_out[i] = d_in[i * stride] for i < count. REQUIRES: d_in holds (count - 1) * stride + 1 floats.
void launch_strided_read(const float* d_in, float* d_out, std::uint64_t count, std::uint64_t stride, int unroll,
                         int block, cudaStream_t stream);

/// Copies n floats as vectors of `vector_bytes` (4, 8 or 16) per lane, `unroll` vectors per thread.
/// REQUIRES: d_in and d_out are 16-byte aligned.
void launch_vector_copy(const float* d_in, float* d_out, std::uint64_t n, int vector_bytes, int unroll, int block,
                        cudaStream_t stream);

/// Copies n floats as float4 with a grid-stride loop over `grid` blocks, `unroll` vectors per pass.
/// REQUIRES: d_in and d_out are 16-byte aligned; grid >= 1; unroll is one of `unrolls`.
void launch_grid_stride_copy(const float* d_in, float* d_out, std::uint64_t n, copy_hint hint, int unroll, int grid,
                             int block, cudaStream_t stream);

/// How many blocks of `block` threads of the grid-stride copy fit on one SM at once (occupancy).
int grid_stride_blocks_per_sm(int block);

/// Fills d_in[0, n) with random floats in [-1, 1) (cudalab::random_stream(seed, 0)), as bit patterns.
void fill_input(std::uint32_t* d_in, std::uint64_t n, std::uint64_t seed, cudaStream_t stream);

/// Where each output element of a variant comes from: what verify() expects.
enum class movement {
  copy,           ///< out[i] = in[i] for every i
  read_shifted,   ///< out[i] = in[i + offset] for i < count
  write_shifted,  ///< out[i + offset] = in[i] for i < count
  both_shifted,   ///< out[i + offset] = in[i + offset] for i < count
  strided,        ///< out[i] = in[i * stride] for i < count
};

/// Compares every element of d_out[0, n) on the GPU, as bit patterns, with what `how` moves from d_in
/// (`count` elements; `offset` and `stride` as the variants use them); elements nothing moves must
/// hold `poison`.
cudalab::verification compare_moved(const std::uint32_t* d_out, const std::uint32_t* d_in, std::uint64_t n,
                                    movement how, std::uint64_t count, std::uint64_t offset, std::uint64_t stride,
                                    std::uint32_t poison, cudaStream_t stream);

}  // namespace alignment
