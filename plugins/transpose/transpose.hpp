// What the transpose lab's files share: a point's settings and the table that declares and reads them, the
// kernels, the launchers (the only door to them) and the trace of a launch over the tiles it covers.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cudalab/param_table.hpp"
#include "cudalab/trace_tiles.hpp"
#include "cudalab/verification.hpp"
#include "transpose_kernels.cuh"

namespace transpose {

/// The parameters of one point.
struct settings {
  unsigned rows, cols;
  unsigned block_rows;
};

using settings_table = cudalab::param_table<settings>;

/// The lab's parameters, each said once: spec() lists them, read() gives a point's settings.
/// `block_rows` is a tuning parameter (lab_point::retune).
inline const settings_table parameters = {
    settings_table::integer(&settings::rows, "rows", 16384, 1, std::int64_t(1) << 20, "elements",
                            "rows of the input matrix"),
    settings_table::integer(&settings::cols, "cols", 16384, 1, std::int64_t(1) << 20, "elements",
                            "columns of the input matrix (row-major, floats)"),
    settings_table::integer(&settings::block_rows, "block_rows", 8, 1, 32, "threads",
                            "thread rows per 32-wide block for copy, copy_shared, padded_rows, "
                            "diagonal and padded_hinted (each block moves a 64x32 strip of two "
                            "tiles, each thread 64/block_rows rows of it); must divide 32")
        .only(block_rows_choices::values())
        .tunes(),
};

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

/// One launch as the trace sees it: the kernel, the input matrix and the blocks' shape.
struct launch_shape {
  kernel k;
  unsigned rows, cols;  ///< of the input
  unsigned block_rows;  ///< thread rows (warps) per block
  unsigned strip;       ///< stacked 32x32 tiles per block
};

/// The tiles the blocks of a launch cover, for cudalab::trace_tiles: strips of `strip` stacked tiles of
/// the input (x its columns, y its rows), or of the output for naive_col, in the input's layout and,
/// for the transposes, the output's.
cudalab::tile_grid tiles_of(const launch_shape& launch);

/// Feeds the accesses of the block that works on tile `b` of tiles_of(launch) to `sink`, warp by warp.
void trace_block(const launch_shape& launch, cudalab::tile_block b, cudalab::trace_sink& sink);

/// Feeds the warp accesses of the launch to the access model: one block of each class of its tiles,
/// weighted by the blocks it stands for (transpose_trace.cpp).
void trace_launch(const launch_shape& launch, cudalab::trace_sink& sink);

}  // namespace transpose
