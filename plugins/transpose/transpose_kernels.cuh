// Device code of the transpose lab (kernels nvcc-only) and the tile index math trace() shares with them.
#pragma once

#include <cstdint>

#include "cudalab/dispatch.hpp"
#include "cudalab/host_device.hpp"

namespace transpose {

/// Side of the square tile every tiled kernel works on, in elements (one warp spans a tile row).
inline constexpr unsigned tile_dim = 32;

/// Tiles a block of the tuned variants (copy, copy_shared, padded_rows, diagonal, padded_hinted) moves:
/// a strip of two vertically stacked tiles, 64 x 32 elements. Twice the loads in flight per thread
/// before the shared stores, half the blocks, and 256 contiguous bytes per output row for the transposes.
inline constexpr unsigned tuned_strip = 2;

/// The thread rows per block (divisors of 32) and the strip heights the kernels are built for: the
/// `block_rows` parameter accepts the first list, and the launcher picks kernel instances from both.
using block_rows_choices = cudalab::choices<1u, 2u, 4u, 8u, 16u, 32u>;
using strip_choices = cudalab::choices<1u, tuned_strip>;

/// The strip a block works on: the row and column of its top-left element, in elements.
struct tile_origin {
  unsigned row0 = 0;
  unsigned col0 = 0;
};

/// Tiles needed to cover `extent` elements (rounds up, so edge tiles may be partial).
CUDALAB_HD unsigned tiles_along(unsigned extent) { return (extent + tile_dim - 1) / tile_dim; }

/// Strips of `strip` vertically stacked tiles needed to cover `extent` rows (the last may be partial).
CUDALAB_HD unsigned strips_along(unsigned extent, unsigned strip) { return (tiles_along(extent) + strip - 1) / strip; }

/// Row-major block order: block b takes the strip of `strip` tiles whose top tile is
/// (b / tiles_x, b % tiles_x) in strip units, so consecutive blocks walk along the input's columns.
/// With strip = 1 a block takes one tile.
CUDALAB_HD tile_origin row_major_tile(unsigned block, unsigned tiles_x, unsigned strip = 1) {
  return {(block / tiles_x) * strip * tile_dim, (block % tiles_x) * tile_dim};
}

/// Diagonal block order (a bijection on the strips_y x tiles_x grid of strips for any sizes):
/// block b takes strip row b % strips_y and tile column (b / strips_y + b % strips_y) % tiles_x,
/// so blocks running at the same time spread over many rows of the input and of the output.
CUDALAB_HD tile_origin diagonal_tile(unsigned block, unsigned tiles_x, unsigned strips_y, unsigned strip = 1) {
  const unsigned strip_row = block % strips_y;
  const unsigned tile_col = (block / strips_y + strip_row) % tiles_x;
  return {strip_row * strip * tile_dim, tile_col * tile_dim};
}

/// Offset of element (row, col) of a row-major matrix with `ld` columns.
CUDALAB_HD std::uint64_t element_offset(unsigned row, unsigned col, unsigned ld) {
  return std::uint64_t(row) * ld + col;
}

/// Word index of (r, c) in a plain float tile[rows][32]: a column of it lies in one bank.
CUDALAB_HD unsigned plain_tile_index(unsigned r, unsigned c) { return r * tile_dim + c; }

/// Word index of (r, c) in a padded float tile[rows][33]: each row starts one bank later.
CUDALAB_HD unsigned padded_tile_index(unsigned r, unsigned c) { return r * (tile_dim + 1) + c; }

/// Word index of (r, c) in an XOR-swizzled float tile[rows][32]: column c of row r is stored at
/// c ^ (r % 32), so both a row and a column of each 32x32 tile fall in 32 different banks.
CUDALAB_HD unsigned swizzled_tile_index(unsigned r, unsigned c) { return r * tile_dim + (c ^ (r % tile_dim)); }

#if defined(__CUDACC__)

// Every kernel below: a block of 32 x block_rows threads moves a strip of `strip` vertically stacked
// 32x32 tiles (strip * 32 rows). Thread row threadIdx.y takes strip rows threadIdx.y + i * block_rows;
// the loops over i have a compile-time trip count, so they unroll fully and a thread issues all its
// loads before its first store (loads in flight are what a memory-bound kernel lives on). A loop
// `for (j = threadIdx.y; j < 32; j += block_rows)` unrolls at most partly; on the H100 it ran 14-20 %
// slower.

/// Baseline: copies the block's strip in place (out[y][x] = in[y][x]) with the same tile walk and
/// launch geometry as the transposes: all loads into registers, then all stores; both walk rows,
/// fully coalesced.
template <unsigned block_rows, unsigned strip>
__global__ void __launch_bounds__(tile_dim* block_rows)
    copy_tile_kernel(const float* __restrict__ d_in, float* __restrict__ d_out, unsigned rows, unsigned cols) {
  constexpr unsigned per_thread = strip * tile_dim / block_rows;
  const tile_origin t = row_major_tile(blockIdx.x, tiles_along(cols), strip);
  const unsigned x = t.col0 + threadIdx.x;
  float v[per_thread];
#pragma unroll
  for (unsigned i = 0; i < per_thread; ++i) {
    const unsigned y = t.row0 + threadIdx.y + i * block_rows;
    if (y < rows && x < cols) v[i] = d_in[element_offset(y, x, cols)];
  }
#pragma unroll
  for (unsigned i = 0; i < per_thread; ++i) {
    const unsigned y = t.row0 + threadIdx.y + i * block_rows;
    if (y < rows && x < cols) d_out[element_offset(y, x, cols)] = v[i];
  }
}

/// Baseline through shared memory: the strip goes global -> shared -> global without moving,
/// rows in and rows out; the cost of the staging alone (no bank conflicts).
template <unsigned block_rows, unsigned strip>
__global__ void __launch_bounds__(tile_dim* block_rows)
    copy_shared_kernel(const float* __restrict__ d_in, float* __restrict__ d_out, unsigned rows, unsigned cols) {
  constexpr unsigned per_thread = strip * tile_dim / block_rows;
  __shared__ float tile[strip * tile_dim * tile_dim];
  const tile_origin t = row_major_tile(blockIdx.x, tiles_along(cols), strip);
  const unsigned x = t.col0 + threadIdx.x;
#pragma unroll
  for (unsigned i = 0; i < per_thread; ++i) {
    const unsigned j = threadIdx.y + i * block_rows, y = t.row0 + j;
    if (y < rows && x < cols) tile[plain_tile_index(j, threadIdx.x)] = d_in[element_offset(y, x, cols)];
  }
  __syncthreads();
#pragma unroll
  for (unsigned i = 0; i < per_thread; ++i) {
    const unsigned j = threadIdx.y + i * block_rows, y = t.row0 + j;
    if (y < rows && x < cols) d_out[element_offset(y, x, cols)] = tile[plain_tile_index(j, threadIdx.x)];
  }
}

/// Naive transpose, reading rows and writing columns: a warp reads 32 neighbours of an input row
/// (4 sectors) and writes them down an output column, one 32-byte sector per lane (32 sectors).
template <unsigned block_rows, unsigned strip>
__global__ void __launch_bounds__(tile_dim* block_rows)
    transpose_naive_row_kernel(const float* __restrict__ d_in, float* __restrict__ d_out, unsigned rows,
                               unsigned cols) {
  const tile_origin t = row_major_tile(blockIdx.x, tiles_along(cols), strip);
  const unsigned x = t.col0 + threadIdx.x;
#pragma unroll
  for (unsigned i = 0; i < strip * tile_dim / block_rows; ++i) {
    const unsigned y = t.row0 + threadIdx.y + i * block_rows;
    if (y < rows && x < cols) d_out[element_offset(x, y, rows)] = d_in[element_offset(y, x, cols)];
  }
}

/// Naive transpose, reading columns and writing rows: blocks walk the output (cols x rows); a warp
/// reads down an input column (32 sectors) and writes a contiguous output row (4 sectors).
template <unsigned block_rows, unsigned strip>
__global__ void __launch_bounds__(tile_dim* block_rows)
    transpose_naive_col_kernel(const float* __restrict__ d_in, float* __restrict__ d_out, unsigned rows,
                               unsigned cols) {
  const tile_origin t = row_major_tile(blockIdx.x, tiles_along(rows), strip);  // a strip of the output
  const unsigned ox = t.col0 + threadIdx.x;                                    // output column = input row
#pragma unroll
  for (unsigned i = 0; i < strip * tile_dim / block_rows; ++i) {
    const unsigned oy = t.row0 + threadIdx.y + i * block_rows;  // output row = input column
    if (oy < cols && ox < rows) d_out[element_offset(oy, ox, rows)] = d_in[element_offset(ox, oy, cols)];
  }
}

/// Global accesses as written: the compiler loads the const __restrict__ input with ld.global.nc.
struct plain_access {
  static __device__ __forceinline__ float load(const float* p) { return *p; }
  static __device__ __forceinline__ void store(float* p, float v) { *p = v; }
};

/// Global accesses with cache hints. Each load asks L2 to fetch the whole aligned 256 bytes around
/// it (`L2::256B`; the block on the right reads the other 128 bytes a moment later) and skips L1,
/// which nothing rereads. Each store is evict-first (`st.global.cs`): written lines, never read
/// again, leave L2 before the prefetched input lines do.
struct hinted_access {
  static __device__ __forceinline__ float load(const float* p) {
    float v;
    asm volatile("ld.global.nc.L1::no_allocate.L2::256B.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
  }
  static __device__ __forceinline__ void store(float* p, float v) { __stcs(p, v); }
};

/// The shared-tile transpose of the strip at `t`, with `tile_index` the layout of the shared tile
/// (strip * 32 rows of 32 or 33 words): input rows go into tile rows (coalesced), then for tile s of
/// the strip a warp reads tile column j, tile[s * 32 + lane][j], and writes it as part of output row
/// col0 + j, columns row0 + s * 32 + lane (coalesced).
/// `access` is plain_access or hinted_access.
template <unsigned block_rows, unsigned strip, unsigned (*tile_index)(unsigned, unsigned), class access = plain_access>
__device__ __forceinline__ void transpose_strip(const float* __restrict__ d_in, float* __restrict__ d_out,
                                                unsigned rows, unsigned cols, tile_origin t, float* tile) {
  constexpr unsigned per_thread = strip * tile_dim / block_rows;
  const unsigned x = t.col0 + threadIdx.x;
#pragma unroll
  for (unsigned i = 0; i < per_thread; ++i) {
    const unsigned j = threadIdx.y + i * block_rows, y = t.row0 + j;
    if (y < rows && x < cols) tile[tile_index(j, threadIdx.x)] = access::load(d_in + element_offset(y, x, cols));
  }
  __syncthreads();
#pragma unroll
  for (unsigned i = 0; i < per_thread; ++i) {
    const unsigned k = threadIdx.y + i * block_rows;  // strip row: tile k / 32, tile column k % 32
    const unsigned s = k / tile_dim, j = k % tile_dim;
    const unsigned oy = t.col0 + j, ox = t.row0 + s * tile_dim + threadIdx.x;
    if (oy < cols && ox < rows)
      access::store(d_out + element_offset(oy, ox, rows), tile[tile_index(s * tile_dim + threadIdx.x, j)]);
  }
}

/// Tiled transpose through a plain tile[32][32]: rows of the input go into rows of the tile
/// (coalesced, no conflicts), then a warp reads a tile column, 32 lanes in one bank: a 32-way
/// bank conflict, 32 wavefronts per request. Global reads and writes are both coalesced.
template <unsigned block_rows, unsigned strip>
__global__ void __launch_bounds__(tile_dim* block_rows)
    transpose_tile_kernel(const float* __restrict__ d_in, float* __restrict__ d_out, unsigned rows, unsigned cols) {
  __shared__ float tile[strip * tile_dim * tile_dim];
  transpose_strip<block_rows, strip, plain_tile_index>(d_in, d_out, rows, cols,
                                                       row_major_tile(blockIdx.x, tiles_along(cols), strip), tile);
}

/// Tiled transpose through a padded tile[32][33] in row-major block order: coalesced global reads
/// and writes, conflict-free column reads (the 32 words of a tile column lie in 32 banks). Launched
/// with 32x32 threads and one tile per block (one element per thread) as the `padded` variant, and
/// with 32 x block_rows threads and a two-tile strip per block as `padded_rows`.
template <unsigned block_rows, unsigned strip>
__global__ void __launch_bounds__(tile_dim* block_rows)
    transpose_padded_kernel(const float* __restrict__ d_in, float* __restrict__ d_out, unsigned rows, unsigned cols) {
  __shared__ float tile[strip * tile_dim * (tile_dim + 1)];
  transpose_strip<block_rows, strip, padded_tile_index>(d_in, d_out, rows, cols,
                                                        row_major_tile(blockIdx.x, tiles_along(cols), strip), tile);
}

/// The padded-tile transpose in row-major block order with cache hints on its global accesses
/// (hinted_access): the same sectors and shared accesses as transpose_padded_kernel.
template <unsigned block_rows, unsigned strip>
__global__ void __launch_bounds__(tile_dim* block_rows)
    transpose_hinted_kernel(const float* __restrict__ d_in, float* __restrict__ d_out, unsigned rows, unsigned cols) {
  __shared__ float tile[strip * tile_dim * (tile_dim + 1)];
  transpose_strip<block_rows, strip, padded_tile_index, hinted_access>(
      d_in, d_out, rows, cols, row_major_tile(blockIdx.x, tiles_along(cols), strip), tile);
}

/// The padded-tile transpose with diagonal block order: the same accesses inside a block, but
/// consecutive blocks take strips along a diagonal, spreading concurrent reads and writes over
/// many rows (the classic cure for partition camping).
template <unsigned block_rows, unsigned strip>
__global__ void __launch_bounds__(tile_dim* block_rows)
    transpose_diagonal_kernel(const float* __restrict__ d_in, float* __restrict__ d_out, unsigned rows, unsigned cols) {
  __shared__ float tile[strip * tile_dim * (tile_dim + 1)];
  transpose_strip<block_rows, strip, padded_tile_index>(
      d_in, d_out, rows, cols, diagonal_tile(blockIdx.x, tiles_along(cols), strips_along(rows, strip), strip), tile);
}

/// Tiled transpose through an XOR-swizzled tile[32][32]: element (r, c) lives at column c ^ r, so
/// tile rows and tile columns both spread over the 32 banks: no conflicts and no padding words.
template <unsigned block_rows, unsigned strip>
__global__ void __launch_bounds__(tile_dim* block_rows)
    transpose_swizzled_kernel(const float* __restrict__ d_in, float* __restrict__ d_out, unsigned rows, unsigned cols) {
  __shared__ float tile[strip * tile_dim * tile_dim];
  transpose_strip<block_rows, strip, swizzled_tile_index>(d_in, d_out, rows, cols,
                                                          row_major_tile(blockIdx.x, tiles_along(cols), strip), tile);
}

#endif  // __CUDACC__

}  // namespace transpose
