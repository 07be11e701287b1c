// Device code of the mapped_pinned lab: the course chapter's AddKernel (unroll 1/2/4), a strided add, their index math.
#pragma once

#include <cstdint>

#include "cudalab/dispatch.hpp"
#include "cudalab/host_device.hpp"

namespace mapped_pinned {

/// The unroll factors add_unrolled_kernel is built for: the `unroll` parameter accepts these, and the
/// launcher picks the kernel instance from the same list.
using unrolls = cudalab::choices<1, 2, 4>;

/// Most blocks one add launch uses; larger arrays are covered by the grid-stride loop.
inline constexpr std::uint64_t max_grid_blocks = std::uint64_t(1) << 20;

/// Elements one block covers per loop iteration of the unrolled add: `unroll` tiles of one
/// element per thread.
CUDALAB_HD std::uint64_t add_tile_elements(std::uint64_t block_dim, std::uint64_t unroll) { return unroll * block_dim; }

/// Blocks the unrolled add launches for `n` elements (at least 1 when n > 0, at most max_grid_blocks).
CUDALAB_HD std::uint64_t add_grid(std::uint64_t n, std::uint64_t block_dim, std::uint64_t unroll) {
  const std::uint64_t tile = add_tile_elements(block_dim, unroll);
  const std::uint64_t blocks = (n + tile - 1) / tile;
  return blocks < max_grid_blocks ? blocks : max_grid_blocks;
}

/// Element that lane `thread` of block `block` handles in unrolled slot `u` of grid-stride
/// iteration `iteration`. Slot u of a tile starts u * block_dim after the tile, so each of the
/// `unroll` loads and stores of a warp touches 32 consecutive elements (coalesced).
CUDALAB_HD std::uint64_t add_index(std::uint64_t iteration, std::uint64_t block, std::uint64_t grid,
                                   std::uint64_t block_dim, std::uint64_t thread, std::uint64_t unroll,
                                   std::uint64_t u) {
  return (iteration * grid + block) * add_tile_elements(block_dim, unroll) + u * block_dim + thread;
}

/// Rows of the strided walk: the array is read as a `stride`-column matrix, column after column.
CUDALAB_HD std::uint64_t strided_rows(std::uint64_t n, std::uint64_t stride) { return (n + stride - 1) / stride; }

/// Blocks the strided add launches: one thread per cell of the rows x stride matrix (capped).
CUDALAB_HD std::uint64_t strided_grid(std::uint64_t n, std::uint64_t stride, std::uint64_t block_dim) {
  const std::uint64_t cells = strided_rows(n, stride) * stride;
  const std::uint64_t blocks = (cells + block_dim - 1) / block_dim;
  return blocks < max_grid_blocks ? blocks : max_grid_blocks;
}

/// Element that thread number `t` (counted over the whole grid-stride walk) handles in the strided
/// add: consecutive threads go down a column, `rows` elements apart, so neighbouring lanes touch
/// different 32-byte sectors. Cells past the end (when stride does not divide n) give an index >= n.
CUDALAB_HD std::uint64_t strided_index(std::uint64_t t, std::uint64_t rows, std::uint64_t stride) {
  return (t % stride) * rows + t / stride;
}

/// The result the add computes for one element: `value` plus `increment`, `cycles` times, with
/// 32-bit wrap-around (done in unsigned arithmetic so the host reference has no overflow).
CUDALAB_HD int add_reference(int value, int increment, int cycles) {
  return static_cast<int>(static_cast<std::uint32_t>(value) +
                          static_cast<std::uint32_t>(cycles) * static_cast<std::uint32_t>(increment));
}

#if defined(__CUDACC__)
/// One dependent add that the compiler may not fold: without the volatile asm, nvcc turns the
/// `cycles` loop into one multiply-add and the lab's knob for work per element would vanish.
__device__ __forceinline__ int add_once(int value, int increment) {
  asm volatile("add.s32 %0, %0, %1;" : "+r"(value) : "r"(increment));
  return value;
}

/// The original course chapter's AddKernel: d_out[i] = d_in[i] + increment * cycles, `unroll` elements per thread per
/// iteration, all loads issued before the adds and all stores after them (memory-level parallelism).
/// Access pattern: coalesced, each warp load/store covers 32 consecutive ints (4 sectors). The same
/// kernel reads device memory (pageable, pinned, streams) or host memory over the bus (mapped,
/// registered). Every slot checks its own index, so n need not be a multiple of the unroll factor.
template <int unroll>
__global__ void add_unrolled_kernel(const int* __restrict__ d_in, int* __restrict__ d_out, std::uint64_t n,
                                    int increment, int cycles) {
  const std::uint64_t grid = gridDim.x;
  for (std::uint64_t it = 0;; ++it) {
    const std::uint64_t first = add_index(it, blockIdx.x, grid, blockDim.x, threadIdx.x, unroll, 0);
    if (first >= n) break;
    int values[unroll];
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      const std::uint64_t i = first + std::uint64_t(u) * blockDim.x;
      values[u] = i < n ? d_in[i] : 0;
    }
#pragma unroll
    for (int u = 0; u < unroll; ++u)
      for (int k = 0; k < cycles; ++k) values[u] = add_once(values[u], increment);
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      const std::uint64_t i = first + std::uint64_t(u) * blockDim.x;
      if (i < n) d_out[i] = values[u];
    }
  }
}

/// The same add with a column-wise walk: neighbouring lanes are `rows` elements apart, so each warp
/// load and store touches 32 different sectors (uncoalesced). Over the bus every sector becomes its
/// own small transaction, which is what this variant shows.
__global__ void add_strided_kernel(const int* __restrict__ d_in, int* __restrict__ d_out, std::uint64_t n,
                                   std::uint64_t stride, int increment, int cycles) {
  const std::uint64_t rows = strided_rows(n, stride);
  const std::uint64_t cells = rows * stride;
  const std::uint64_t step = std::uint64_t(blockDim.x) * gridDim.x;
  for (std::uint64_t t = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; t < cells; t += step) {
    const std::uint64_t i = strided_index(t, rows, stride);
    if (i >= n) continue;
    int value = d_in[i];
    for (int k = 0; k < cycles; ++k) value = add_once(value, increment);
    d_out[i] = value;
  }
}
#endif  // __CUDACC__

}  // namespace mapped_pinned
