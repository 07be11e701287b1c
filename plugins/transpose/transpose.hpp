// Host-side declarations of the transpose lab's launchers (the only door to its kernels).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cudalab/verification.hpp"

namespace transpose {

/// The kernels of the lab; each shows one access pattern (see transpose_kernels.cuh).
enum class kernel {
  copy_tile,    ///< tile copy, rows in and rows out (the ceiling)
  copy_shared,  ///< tile copy staged through shared memory
  naive_row,    ///< read rows, write columns
  naive_col,    ///< read columns, write rows
  tile,         ///< plain tile[32][32]: 32-way conflicts on the column read
  padded,       ///< padded tile[32][33]
  swizzled,     ///< XOR-swizzled tile[32][32]
  diagonal,     ///< padded tile, diagonal block order
  hinted,       ///< padded tile, L2 prefetch and evict-first cache hints
};

/// Blocks a launch of `k` uses for a rows x cols input: one per strip of `strip` vertically
/// stacked 32x32 tiles (of the output for naive_col, of the input otherwise).
unsigned blocks_for(kernel k, unsigned rows, unsigned cols, unsigned strip);

/// Enqueues one launch of `k` on `stream`: d_out gets d_in (rows x cols floats, row-major)
/// transposed into cols x rows, or copied unchanged for the copy kernels. Blocks are 32 x block_rows
/// threads moving a strip of `strip` tiles (strip * 32 rows); each thread handles
/// strip * 32 / block_rows rows of it.
/// REQUIRES: block_rows one of block_rows_choices (divisors of 32); strip one of strip_choices (1 or
/// tuned_strip); d_in and d_out hold rows * cols floats.
void launch(kernel k, const float* d_in, float* d_out, unsigned rows, unsigned cols, unsigned block_rows,
            unsigned strip, cudaStream_t stream);

/// Fills d_in[0, n) on the GPU with random whole numbers below 2^24 (exact in float, so a misplaced
/// element shows) from `seed` (cudalab::random_stream(seed, 0)).
void fill_input(float* d_in, std::uint64_t n, std::uint64_t seed, cudaStream_t stream);

/// Compares every element of d_out on the GPU with what a variant must leave there: the transpose of
/// d_in (rows x cols, row-major) as a cols x rows matrix when `transposes`, else d_in itself.
/// REQUIRES: d_in and d_out hold rows * cols floats.
cudalab::verification compare_output(const float* d_out, const float* d_in, unsigned rows, unsigned cols,
                                     bool transposes, cudaStream_t stream);

}  // namespace transpose
