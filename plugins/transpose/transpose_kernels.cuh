// Device code of the transpose lab (kernels nvcc-only) and the tile index math trace() shares with them.
#pragma once

#include <cstdint>

#include "cudalab/host_device.hpp"

namespace transpose {

/// Side of the square tile every tiled kernel works on, in elements (one warp spans a tile row).
inline constexpr unsigned tile_dim = 32;

/// The tile a block works on: the row and column of its top-left element, in elements.
struct tile_origin {
  unsigned row0 = 0;
  unsigned col0 = 0;
};

/// Tiles needed to cover `extent` elements (rounds up, so edge tiles may be partial).
CUDALAB_HD unsigned tiles_along(unsigned extent) { return (extent + tile_dim - 1) / tile_dim; }

/// Row-major block order: block b takes tile (b / tiles_x, b % tiles_x), so consecutive blocks
/// walk along a tile row of the input.
CUDALAB_HD tile_origin row_major_tile(unsigned block, unsigned tiles_x) {
  return {(block / tiles_x) * tile_dim, (block % tiles_x) * tile_dim};
}

/// Diagonal block order (a bijection on the tile grid for any tiles_x, tiles_y): block b takes tile
/// row b % tiles_y and tile column (b / tiles_y + b % tiles_y) % tiles_x, so blocks running at the
/// same time spread over many rows of the input and many rows of the output.
CUDALAB_HD tile_origin diagonal_tile(unsigned block, unsigned tiles_x, unsigned tiles_y) {
  const unsigned tile_row = block % tiles_y;
  const unsigned tile_col = (block / tiles_y + tile_row) % tiles_x;
  return {tile_row * tile_dim, tile_col * tile_dim};
}

/// Offset of element (row, col) of a row-major matrix with `ld` columns.
CUDALAB_HD std::uint64_t element_offset(unsigned row, unsigned col, unsigned ld) {
  return std::uint64_t(row) * ld + col;
}

/// Word index of (r, c) in a plain float tile[32][32]: a column of it lies in one bank.
CUDALAB_HD unsigned plain_tile_index(unsigned r, unsigned c) { return r * tile_dim + c; }

/// Word index of (r, c) in a padded float tile[32][33]: each row starts one bank later.
CUDALAB_HD unsigned padded_tile_index(unsigned r, unsigned c) { return r * (tile_dim + 1) + c; }

/// Word index of (r, c) in an XOR-swizzled float tile[32][32]: column c of row r is stored at
/// c ^ r, so both a row and a column of the logical tile fall in 32 different banks.
CUDALAB_HD unsigned swizzled_tile_index(unsigned r, unsigned c) { return r * tile_dim + (c ^ r); }

#if defined(__CUDACC__)

/// Baseline: copies the block's 32x32 tile in place (out[y][x] = in[y][x]) with the same tile walk
/// and launch geometry as the transposes: reads and writes both walk rows, fully coalesced.
template <unsigned block_rows>
__global__ void copy_tile_kernel(const float* __restrict__ d_in, float* __restrict__ d_out,
                                 unsigned rows, unsigned cols) {
  const tile_origin t = row_major_tile(blockIdx.x, tiles_along(cols));
  const unsigned x = t.col0 + threadIdx.x;
#pragma unroll
  for (unsigned j = threadIdx.y; j < tile_dim; j += block_rows) {
    const unsigned y = t.row0 + j;
    if (y < rows && x < cols) d_out[element_offset(y, x, cols)] = d_in[element_offset(y, x, cols)];
  }
}

/// Baseline through shared memory: the tile goes global -> shared -> global without moving,
/// rows in and rows out; the cost of the staging alone (no bank conflicts).
template <unsigned block_rows>
__global__ void copy_shared_kernel(const float* __restrict__ d_in, float* __restrict__ d_out,
                                   unsigned rows, unsigned cols) {
  __shared__ float tile[tile_dim * tile_dim];
  const tile_origin t = row_major_tile(blockIdx.x, tiles_along(cols));
  const unsigned x = t.col0 + threadIdx.x;
#pragma unroll
  for (unsigned j = threadIdx.y; j < tile_dim; j += block_rows) {
    const unsigned y = t.row0 + j;
    if (y < rows && x < cols) tile[plain_tile_index(j, threadIdx.x)] = d_in[element_offset(y, x, cols)];
  }
  __syncthreads();
#pragma unroll
  for (unsigned j = threadIdx.y; j < tile_dim; j += block_rows) {
    const unsigned y = t.row0 + j;
    if (y < rows && x < cols) d_out[element_offset(y, x, cols)] = tile[plain_tile_index(j, threadIdx.x)];
  }
}

/// Naive transpose, reading rows and writing columns: a warp reads 32 neighbours of an input row
/// (4 sectors) and writes them down an output column, one 32-byte sector per lane (32 sectors).
template <unsigned block_rows>
__global__ void transpose_naive_row_kernel(const float* __restrict__ d_in, float* __restrict__ d_out,
                                           unsigned rows, unsigned cols) {
  const tile_origin t = row_major_tile(blockIdx.x, tiles_along(cols));
  const unsigned x = t.col0 + threadIdx.x;
#pragma unroll
  for (unsigned j = threadIdx.y; j < tile_dim; j += block_rows) {
    const unsigned y = t.row0 + j;
    if (y < rows && x < cols) d_out[element_offset(x, y, rows)] = d_in[element_offset(y, x, cols)];
  }
}

/// Naive transpose, reading columns and writing rows: blocks walk the output (cols x rows); a warp
/// reads down an input column (32 sectors) and writes a contiguous output row (4 sectors).
template <unsigned block_rows>
__global__ void transpose_naive_col_kernel(const float* __restrict__ d_in, float* __restrict__ d_out,
                                           unsigned rows, unsigned cols) {
  const tile_origin t = row_major_tile(blockIdx.x, tiles_along(rows));  // a tile of the output
  const unsigned ox = t.col0 + threadIdx.x;                             // output column = input row
#pragma unroll
  for (unsigned j = threadIdx.y; j < tile_dim; j += block_rows) {
    const unsigned oy = t.row0 + j;  // output row = input column
    if (oy < cols && ox < rows) d_out[element_offset(oy, ox, rows)] = d_in[element_offset(ox, oy, cols)];
  }
}

/// Tiled transpose through a plain tile[32][32]: rows of the input go into rows of the tile
/// (coalesced, no conflicts), then a warp reads a tile column, 32 lanes in one bank: a 32-way
/// bank conflict, 32 wavefronts per request. Global reads and writes are both coalesced.
template <unsigned block_rows>
__global__ void transpose_tile_kernel(const float* __restrict__ d_in, float* __restrict__ d_out,
                                      unsigned rows, unsigned cols) {
  __shared__ float tile[tile_dim * tile_dim];
  const tile_origin t = row_major_tile(blockIdx.x, tiles_along(cols));
  const unsigned x = t.col0 + threadIdx.x;
#pragma unroll
  for (unsigned j = threadIdx.y; j < tile_dim; j += block_rows) {
    const unsigned y = t.row0 + j;
    if (y < rows && x < cols) tile[plain_tile_index(j, threadIdx.x)] = d_in[element_offset(y, x, cols)];
  }
  __syncthreads();
  const unsigned ox = t.row0 + threadIdx.x;  // output column = input row
#pragma unroll
  for (unsigned j = threadIdx.y; j < tile_dim; j += block_rows) {
    const unsigned oy = t.col0 + j;  // output row = input column
    if (oy < cols && ox < rows) d_out[element_offset(oy, ox, rows)] = tile[plain_tile_index(threadIdx.x, j)];
  }
}

/// The padded tile's transpose for the block's tile `t`: as transpose_tile_kernel, but the tile is
/// [32][33], so the 32 words of a tile column lie in 32 different banks: no conflicts.
template <unsigned block_rows>
__device__ __forceinline__ void transpose_padded_tile(const float* __restrict__ d_in, float* __restrict__ d_out,
                                                      unsigned rows, unsigned cols, tile_origin t,
                                                      float* tile) {
  const unsigned x = t.col0 + threadIdx.x;
#pragma unroll
  for (unsigned j = threadIdx.y; j < tile_dim; j += block_rows) {
    const unsigned y = t.row0 + j;
    if (y < rows && x < cols) tile[padded_tile_index(j, threadIdx.x)] = d_in[element_offset(y, x, cols)];
  }
  __syncthreads();
  const unsigned ox = t.row0 + threadIdx.x;
#pragma unroll
  for (unsigned j = threadIdx.y; j < tile_dim; j += block_rows) {
    const unsigned oy = t.col0 + j;
    if (oy < cols && ox < rows) d_out[element_offset(oy, ox, rows)] = tile[padded_tile_index(threadIdx.x, j)];
  }
}

/// Tiled transpose through a padded tile[32][33] in row-major block order: coalesced global reads
/// and writes, conflict-free column reads. Launched with 32x32 threads (one element each) as the
/// `padded` variant and with 32 x block_rows threads (several rows each) as `padded_rows`.
template <unsigned block_rows>
__global__ void transpose_padded_kernel(const float* __restrict__ d_in, float* __restrict__ d_out,
                                        unsigned rows, unsigned cols) {
  __shared__ float tile[tile_dim * (tile_dim + 1)];
  transpose_padded_tile<block_rows>(d_in, d_out, rows, cols, row_major_tile(blockIdx.x, tiles_along(cols)), tile);
}

/// The padded-tile transpose with diagonal block order: the same accesses inside a block, but
/// consecutive blocks take tiles along a diagonal, spreading concurrent reads and writes over
/// many rows (the classic cure for partition camping).
template <unsigned block_rows>
__global__ void transpose_diagonal_kernel(const float* __restrict__ d_in, float* __restrict__ d_out,
                                          unsigned rows, unsigned cols) {
  __shared__ float tile[tile_dim * (tile_dim + 1)];
  transpose_padded_tile<block_rows>(d_in, d_out, rows, cols,
                                    diagonal_tile(blockIdx.x, tiles_along(cols), tiles_along(rows)), tile);
}

/// Tiled transpose through an XOR-swizzled tile[32][32]: element (r, c) lives at column c ^ r, so
/// tile rows and tile columns both spread over the 32 banks: no conflicts and no padding words.
template <unsigned block_rows>
__global__ void transpose_swizzled_kernel(const float* __restrict__ d_in, float* __restrict__ d_out,
                                          unsigned rows, unsigned cols) {
  __shared__ float tile[tile_dim * tile_dim];
  const tile_origin t = row_major_tile(blockIdx.x, tiles_along(cols));
  const unsigned x = t.col0 + threadIdx.x;
#pragma unroll
  for (unsigned j = threadIdx.y; j < tile_dim; j += block_rows) {
    const unsigned y = t.row0 + j;
    if (y < rows && x < cols) tile[swizzled_tile_index(j, threadIdx.x)] = d_in[element_offset(y, x, cols)];
  }
  __syncthreads();
  const unsigned ox = t.row0 + threadIdx.x;
#pragma unroll
  for (unsigned j = threadIdx.y; j < tile_dim; j += block_rows) {
    const unsigned oy = t.col0 + j;
    if (oy < cols && ox < rows) d_out[element_offset(oy, ox, rows)] = tile[swizzled_tile_index(threadIdx.x, j)];
  }
}

#endif  // __CUDACC__

}  // namespace transpose
