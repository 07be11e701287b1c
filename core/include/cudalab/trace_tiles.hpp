// Tracing a launch whose blocks tile an array of one, two or three dimensions, halo included, with exact
// weights: the blocks fall into classes that record alike, and one block of each class is traced.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "cudalab/trace.hpp"

namespace cudalab {

/// The access model's line: accesses whose addresses all differ by the same whole number of lines cost
/// the same (sectors and lines are aligned within it).
inline constexpr std::uint64_t model_line_bytes = 128;

/// A block of a tile_grid: its position along x, y and z in blocks (its blockIdx, or the tile it works on).
struct tile_block {
  std::uint64_t x = 0, y = 0, z = 0;
};

/// How the blocks of a launch tile an array of up to three dimensions. Block (x, y, z) owns the elements
/// [x tile[0], (x + 1) tile[0]) along x, alike along y and z, and may touch `halo` elements more on
/// either side along each axis (a stencil's radius); the kernel's bounds checks drop what falls outside
/// [0, extent). An unused axis has extent 1 and tile 1.
struct tile_grid {
  std::array<std::uint64_t, 3> extent{1, 1, 1};  ///< elements along x (the contiguous one), y and z
  std::array<std::uint64_t, 3> tile{1, 1, 1};    ///< elements a block owns along each axis (at least 1)
  std::array<std::uint64_t, 3> halo{0, 0, 0};    ///< elements a block reaches past its tile on either side
  /// For each global array the blocks address by element coordinates, the bytes between neighbours
  /// along x, y and z: {4, 4 nx, 4 nx ny} for a row-major nx x ny x nz float array (row_major_strides),
  /// {4 ny, 4, 0} for the ny x nx transpose a block writes back.
  std::vector<std::array<std::uint64_t, 3>> strides;

  /// Blocks along `axis` (0 x, 1 y, 2 z): extent / tile, rounded up.
  std::uint64_t blocks_along(int axis) const { return (extent[axis] + tile[axis] - 1) / tile[axis]; }
  /// Blocks in the grid.
  std::uint64_t blocks() const { return blocks_along(0) * blocks_along(1) * blocks_along(2); }
};

/// The strides of a row-major array of `extent` elements of `element_bytes` each (x contiguous).
inline std::array<std::uint64_t, 3> row_major_strides(const std::array<std::uint64_t, 3>& extent,
                                                      std::uint64_t element_bytes) {
  return {element_bytes, element_bytes * extent[0], element_bytes * extent[0] * extent[1]};
}

/// Blocks that record alike: `first` stands for `blocks` of them.
struct tile_class {
  tile_block first;
  std::uint64_t blocks = 0;
};

namespace detail {

/// Blocks along one axis that the bounds clip alike and whose tile origins lie alike within a line:
/// blocks first, first + period, ... (`count` of them).
struct axis_group {
  std::uint64_t clipped_low = 0, clipped_high = 0;  ///< elements of the block's reach outside [0, extent)
  std::uint64_t first = 0;
  std::uint64_t count = 0;
};

inline std::uint64_t gcd_of(std::uint64_t a, std::uint64_t b) {
  while (b != 0) a = std::exchange(b, a % b);
  return a;
}

/// The groups of one axis: each block whose reach the bounds clip on its own, and the unclipped ones
/// by their tile origin's offset within a line in every array (which repeats every `period` blocks).
inline std::vector<axis_group> axis_groups(const tile_grid& g, int axis) {
  const std::uint64_t n = g.blocks_along(axis), tile = g.tile[axis], halo = g.halo[axis], extent = g.extent[axis];
  // Unclipped: b tile >= halo and b tile + tile + halo <= extent.
  const std::uint64_t low_end = std::min(n, (halo + tile - 1) / tile);
  const std::uint64_t high_start =
      std::max(low_end, extent >= tile + halo ? std::min(n, (extent - tile - halo) / tile + 1) : std::uint64_t(0));
  std::uint64_t period = 1;
  for (const auto& stride : g.strides) {
    const std::uint64_t step = (tile % model_line_bytes) * (stride[axis] % model_line_bytes) % model_line_bytes;
    period = std::max(period, model_line_bytes / gcd_of(step, model_line_bytes));  // powers of two: the lcm
  }
  std::vector<axis_group> groups;
  auto clipped = [&](std::uint64_t b) {
    const std::uint64_t begin = b * tile, end = b * tile + tile + halo;
    groups.push_back({halo > begin ? halo - begin : 0, end > extent ? end - extent : 0, b, 1});
  };
  for (std::uint64_t b = 0; b < low_end; ++b) clipped(b);
  const std::uint64_t unclipped = high_start - low_end;
  for (std::uint64_t k = 0; k < std::min(period, unclipped); ++k)
    groups.push_back({0, 0, low_end + k, (unclipped - k + period - 1) / period});
  for (std::uint64_t b = high_start; b < n; ++b) clipped(b);
  return groups;
}

}  // namespace detail

/// The classes of `grid`'s blocks. Two blocks share a class when the bounds clip their reach alike at
/// every edge (the same partial tile, the same halo cut off) and their tile origins lie at the same
/// offset within a 128-byte line in every array of `strides` (at odd widths rows start at different
/// offsets): one then addresses what the other does, each array moved by whole lines, so the access
/// model counts both alike - exactly, given that the kernel's accesses depend on its block only through
/// the tile origin (addresses linear in it, shared-memory words and bounds checks relative to it).
/// `first` is the class's first block in z, y, x order; the counts add up to grid.blocks().
/// REQUIRES: tile >= 1 along every axis (else std::invalid_argument).
inline std::vector<tile_class> tile_classes(const tile_grid& grid) {
  for (int axis = 0; axis < 3; ++axis)
    if (grid.tile[axis] == 0) throw std::invalid_argument("tile_grid: a tile is at least one element along each axis");
  if (grid.blocks() == 0) return {};
  const std::array<std::vector<detail::axis_group>, 3> groups = {
      detail::axis_groups(grid, 0), detail::axis_groups(grid, 1), detail::axis_groups(grid, 2)};
  // A class: the clipping along each axis, then the tile origin's offset within a line in each array.
  std::map<std::vector<std::uint64_t>, tile_class> classes;
  for (const detail::axis_group& z : groups[2])
    for (const detail::axis_group& y : groups[1])
      for (const detail::axis_group& x : groups[0]) {
        std::vector<std::uint64_t> key = {x.clipped_low,  x.clipped_high, y.clipped_low,
                                          y.clipped_high, z.clipped_low,  z.clipped_high};
        for (const auto& stride : grid.strides) {
          std::uint64_t offset = 0;
          for (int axis = 0; axis < 3; ++axis) {
            const std::uint64_t b = axis == 0 ? x.first : axis == 1 ? y.first : z.first;
            const std::uint64_t step = (grid.tile[axis] % model_line_bytes) * (stride[axis] % model_line_bytes);
            offset += (b % model_line_bytes) * (step % model_line_bytes);
          }
          key.push_back(offset % model_line_bytes);
        }
        tile_class& c = classes[key];
        if (c.blocks == 0) c.first = {x.first, y.first, z.first};
        c.blocks += x.count * y.count * z.count;
      }
  std::vector<tile_class> out;
  for (const auto& [key, c] : classes) out.push_back(c);
  std::sort(out.begin(), out.end(), [](const tile_class& a, const tile_class& b) {
    return std::tie(a.first.z, a.first.y, a.first.x) < std::tie(b.first.z, b.first.y, b.first.x);
  });
  return out;
}

/// Traces a launch whose blocks tile `grid`: `trace_block(tile_block)` records one block's accesses,
/// and is called for the first block of each class of tile_classes(grid), weighted by the class's
/// count. Exact whenever tile_classes' condition holds; cudalab::testing::predict_every_block traces
/// every block to check it. Weights multiply any weight already set (`weighted`).
template <class F>
void trace_tiles(trace_sink& sink, const tile_grid& grid, F&& trace_block) {
  for (const tile_class& c : tile_classes(grid)) {
    weighted w(sink, c.blocks);
    trace_block(c.first);
  }
}

}  // namespace cudalab
