// cudalab/trace_tiles.hpp: the classes of a grid of tiles, and class-weighted traces of 2D and 3D stencils
// with a halo that equal tracing every block (cudalab::testing::predict_every_block), at odd sizes.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cudalab/testing.hpp"
#include "cudalab/trace_tiles.hpp"

namespace {

using cudalab::access_kind;
using cudalab::memory_space;
using cudalab::tile_block;
using cudalab::tile_grid;
using cudalab::testing::difference;
using cudalab::testing::predict_every_block;
using cudalab::testing::predict_trace;

/// A stencil of radius `radius` over a row-major nx x ny x nz array of `element_bytes` elements, through
/// shared memory: a block of tx x ty x tz threads (x fastest) owns a tile of as many elements, loads
/// the window of its tile and halo into shared memory (a block-stride loop over the window's elements,
/// zeros outside the array), then each thread whose element lies in the array reads its centre and its
/// two neighbours `radius` away along each used axis from the window and writes its element out.
struct stencil {
  std::uint64_t nx, ny, nz;
  unsigned tx, ty, tz;
  unsigned radius;
  unsigned element_bytes;

  bool uses(int axis) const { return axis == 0 || (axis == 1 ? ny : nz) > 1; }
  unsigned halo(int axis) const { return uses(axis) ? radius : 0; }
  unsigned window(int axis) const { return (axis == 0 ? tx : axis == 1 ? ty : tz) + 2 * halo(axis); }

  tile_grid grid() const {
    tile_grid g;
    g.extent = {nx, ny, nz};
    g.tile = {tx, ty, tz};
    g.halo = {halo(0), halo(1), halo(2)};
    g.strides = {cudalab::row_major_strides(g.extent, element_bytes)};  // the input and the output alike
    return g;
  }

  /// The accesses of block `b`, warp step by warp step, as the kernel would issue them.
  void trace_block(cudalab::trace_sink& sink, const tile_block& b) const {
    const std::int64_t x0 = b.x * tx, y0 = b.y * ty, z0 = b.z * tz;
    const unsigned threads = tx * ty * tz, wx = window(0), wy = window(1), wz = window(2);
    const unsigned cells = wx * wy * wz;
    auto global = [&](std::int64_t x, std::int64_t y, std::int64_t z) -> long long {
      const bool inside =
          x >= 0 && y >= 0 && z >= 0 && x < std::int64_t(nx) && y < std::int64_t(ny) && z < std::int64_t(nz);
      return inside ? static_cast<long long>(((z * ny + y) * nx + x) * element_bytes) : -1;
    };
    for (unsigned warp = 0; warp * 32 < threads; ++warp) {
      // The window: cell c = tid + k * threads, at (c % wx, c / wx % wy, c / (wx wy)) of the window.
      for (unsigned first = warp * 32; first < cells; first += threads) {
        auto cell = [&](unsigned lane) { return first + lane; };
        auto in_warp = [&](unsigned lane) { return warp * 32 + lane < threads && cell(lane) < cells; };
        sink.warp(memory_space::global, access_kind::load, element_bytes, [&](unsigned lane) -> long long {
          if (!in_warp(lane)) return -1;
          const unsigned c = cell(lane);
          return global(x0 - halo(0) + c % wx, y0 - halo(1) + c / wx % wy, z0 - halo(2) + c / (wx * wy));
        });
        sink.warp(memory_space::shared, access_kind::store, element_bytes, [&](unsigned lane) -> long long {
          return in_warp(lane) ? static_cast<long long>(cell(lane)) * element_bytes : -1;
        });
      }
      // The stencil: thread t at (t % tx, t / tx % ty, t / (tx ty)) of the tile.
      auto lx = [&](unsigned lane) { return (warp * 32 + lane) % tx; };
      auto ly = [&](unsigned lane) { return (warp * 32 + lane) / tx % ty; };
      auto lz = [&](unsigned lane) { return (warp * 32 + lane) / (tx * ty); };
      auto works = [&](unsigned lane) {
        return warp * 32 + lane < threads && global(x0 + lx(lane), y0 + ly(lane), z0 + lz(lane)) >= 0;
      };
      std::vector<std::tuple<int, int, int>> taps = {{0, 0, 0}};
      for (int axis = 0; axis < 3; ++axis)
        if (uses(axis))
          for (int side : {-1, 1})
            taps.emplace_back(axis == 0 ? side * int(radius) : 0, axis == 1 ? side * int(radius) : 0,
                              axis == 2 ? side * int(radius) : 0);
      for (const auto& [dx, dy, dz] : taps)
        sink.warp(memory_space::shared, access_kind::load, element_bytes, [&](unsigned lane) -> long long {
          if (!works(lane)) return -1;
          const std::int64_t cx = lx(lane) + halo(0) + dx, cy = ly(lane) + halo(1) + dy, cz = lz(lane) + halo(2) + dz;
          return static_cast<long long>((cz * wy + cy) * wx + cx) * element_bytes;
        });
      sink.warp(memory_space::global, access_kind::store, element_bytes, [&](unsigned lane) -> long long {
        return works(lane) ? global(x0 + lx(lane), y0 + ly(lane), z0 + lz(lane)) : -1;
      });
    }
  }

  /// What the access model predicts for the class-weighted trace, and for every block traced.
  std::pair<cudalab::access_stats, cudalab::access_stats> both_ways() const {
    const auto by_class = predict_trace([&](cudalab::trace_sink& sink) {
      cudalab::trace_tiles(sink, grid(), [&](const tile_block& b) { trace_block(sink, b); });
    });
    const auto every =
        predict_every_block(grid(), [&](cudalab::trace_sink& sink, const tile_block& b) { trace_block(sink, b); });
    return {every, by_class};
  }
};

/// The example of docs/writing-a-plugin.md, as printed there: a 5-point stencil on an nx x ny float grid,
/// blocks of 32 x 8 threads owning 32 x 8 tiles, a halo of 1 through a 34 x 10 shared window.
namespace guide {

struct settings {
  std::uint64_t nx, ny;
};

// ---- as in the guide ----
cudalab::tile_grid tiles_of(const settings& s) {
  cudalab::tile_grid grid;
  grid.extent = {s.nx, s.ny, 1};  // elements along x (contiguous), y, z
  grid.tile = {32, 8, 1};         // what a block owns
  grid.halo = {1, 1, 0};          // how far past its tile it reaches, on either side
  grid.strides = {cudalab::row_major_strides(grid.extent, sizeof(float))};  // in and out: one layout
  return grid;
}

// Block b's accesses, warp by warp, as the kernel issues them; addresses from the kernel's own index math.
void trace_block(const settings& s, cudalab::tile_block b, cudalab::trace_sink& sink) {
  const long long x0 = b.x * 32, y0 = b.y * 8;
  auto cell = [&](long long x, long long y) -> long long {  // -1 outside the grid: the kernel's bounds check
    return x >= 0 && y >= 0 && x < (long long)s.nx && y < (long long)s.ny ? (y * s.nx + x) * 4 : -1;
  };
  for (long long warp = 0; warp < 8; ++warp) {
    for (long long first = warp * 32; first < 34 * 10; first += 256) {  // the window, block-stride
      sink.warp(memory_space::global, access_kind::load, 4, [&](unsigned lane) {
        const long long c = first + lane;  // window cell (c % 34, c / 34)
        return c < 340 ? cell(x0 - 1 + c % 34, y0 - 1 + c / 34) : -1;
      });
      sink.warp(memory_space::shared, access_kind::store, 4, [&](unsigned lane) {
        const long long c = first + lane;
        return c < 340 ? c * 4 : -1;
      });
    }
    for (auto [dx, dy] : {std::pair{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}})  // lane l: (l, warp) of the tile
      sink.warp(memory_space::shared, access_kind::load, 4, [&](unsigned lane) {
        return cell(x0 + lane, y0 + warp) < 0 ? -1 : ((warp + 1 + dy) * 34 + lane + 1 + dx) * 4;
      });
    sink.warp(memory_space::global, access_kind::store, 4, [&](unsigned lane) { return cell(x0 + lane, y0 + warp); });
  }
}

void trace_kernel(const settings& s, cudalab::trace_sink& sink) {
  cudalab::trace_tiles(sink, tiles_of(s), [&](cudalab::tile_block b) { trace_block(s, b, sink); });
}
// ---- end of the guide's code ----

}  // namespace guide

/// The classes of a grid as {first block (x, y, z): blocks}.
using class_weights = std::map<std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>, std::uint64_t>;

class_weights weights(const tile_grid& g) {
  class_weights out;
  for (const cudalab::tile_class& c : cudalab::tile_classes(g)) out[{c.first.x, c.first.y, c.first.z}] = c.blocks;
  return out;
}

tile_grid matrix(std::uint64_t cols, std::uint64_t rows, std::uint64_t tile_x, std::uint64_t tile_y,
                 std::uint64_t halo = 0) {
  tile_grid g;
  g.extent = {cols, rows, 1};
  g.tile = {tile_x, tile_y, 1};
  g.halo = {halo, halo, 0};
  g.strides = {cudalab::row_major_strides(g.extent, 4)};
  return g;
}

TEST(TileClasses, WholeTileRowsOfFloatsSplitOnlyAtTheClippedEdges) {
  // A 70 x 45 float matrix in 32 x 32 tiles: 3 x 2 blocks; the last block row holds 6 rows, the last
  // block column 13 columns. A tile column starts 128 bytes on and a tile row 32 rows = 45 x 128 bytes
  // on, so the inner block stands for both of its row, the last column's first block for both of its.
  const tile_grid g = matrix(45, 70, 32, 32);
  EXPECT_EQ(weights(g), (class_weights{{{0, 0, 0}, 2}, {{1, 0, 0}, 2}, {{0, 2, 0}, 1}, {{1, 2, 0}, 1}}));
  // Every element loaded once: 70 rows in two tile columns, weighted right.
  const auto s = predict_trace([&](cudalab::trace_sink& sink) {
    cudalab::trace_tiles(sink, g, [&](const tile_block& b) {
      for (std::uint64_t j = 0; j < 32; ++j)
        sink.warp(memory_space::global, access_kind::load, 4, [&](unsigned l) -> long long {
          const std::uint64_t y = b.y * 32 + j, x = b.x * 32 + l;
          return y < 70 && x < 45 ? static_cast<long long>((y * 45 + x) * 4) : -1;
        });
    });
  });
  EXPECT_EQ(s.global_load.requests, 2u * 70);
  EXPECT_EQ(s.global_load.requested_bytes, 70u * 45 * 4);
  EXPECT_EQ(s.traced_warps, 0u);  // exact: no sample
}

TEST(TileClasses, OneRowOfBlocksTracesTheFirstForTheWholeOnesAndTheLastOnItsOwn) {
  EXPECT_EQ(weights(matrix(5 * 32 - 3, 1, 32, 1)), (class_weights{{{0, 0, 0}, 4}, {{4, 0, 0}, 1}}));
  EXPECT_EQ(weights(matrix(5 * 32, 1, 32, 1)), (class_weights{{{0, 0, 0}, 5}}));
  EXPECT_EQ(weights(matrix(32, 4 * 8 - 1, 32, 8)), (class_weights{{{0, 0, 0}, 3}, {{0, 3, 0}, 1}}));
  EXPECT_EQ(weights(matrix(1, 1, 32, 8)), (class_weights{{{0, 0, 0}, 1}}));
  EXPECT_TRUE(cudalab::tile_classes(matrix(0, 7, 32, 8)).empty());
  EXPECT_TRUE(cudalab::tile_classes(matrix(7, 0, 32, 8)).empty());
  EXPECT_THROW(cudalab::tile_classes(matrix(7, 7, 0, 8)), std::invalid_argument);
}

TEST(TileClasses, OddWidthsSplitTheInnerBlocksByWhereTheirRowsStartInALine) {
  // 16 x 16 float tiles of a 97 x 144 matrix: a tile column starts 64 bytes on, a tile row 16 x 97 x 4 =
  // 6208 bytes (48 lines and a half) on. The whole blocks start at 0 or 64 bytes into a line, whichever
  // axis put them there: block (1, 0) and block (0, 1) address alike, 48 lines apart. Block column 6 is
  // clipped (97 = 6 x 16 + 1), its rows at 0 or 64 bytes.
  const tile_grid g = matrix(97, 16 * 9, 16, 16);
  EXPECT_EQ(weights(g),
            (class_weights{{{0, 0, 0}, 3 * 5 + 3 * 4}, {{1, 0, 0}, 3 * 5 + 3 * 4}, {{6, 0, 0}, 5}, {{6, 1, 0}, 4}}));
  std::uint64_t blocks = 0;
  for (const cudalab::tile_class& c : cudalab::tile_classes(g)) blocks += c.blocks;
  EXPECT_EQ(blocks, g.blocks());
}

TEST(TileClasses, AHaloClippedAtAnEdgeMakesAClassOfItsOwn) {
  // A halo of 1 around 32 x 8 tiles of a 4099 x 4097 grid: the first and last block along each axis
  // lose part of their halo; the inner block rows start at 4 offsets in a line (8 rows of 4099 floats
  // are 1024 lines and 96 bytes). 18 classes stand for 129 x 513 blocks.
  const tile_grid g = matrix(4099, 4097, 32, 8, 1);
  const auto classes = cudalab::tile_classes(g);
  EXPECT_EQ(classes.size(), 3u * 6);
  std::uint64_t blocks = 0;
  for (const cudalab::tile_class& c : classes) blocks += c.blocks;
  EXPECT_EQ(blocks, 129u * 513);
  EXPECT_EQ(weights(g).at({1, 1, 0}), 127u * ((511 + 3) / 4));  // inner blocks at the first offset
}

TEST(TraceTiles, A2DHaloStencilTracedByClassEqualsEveryBlockAtOddSizes) {
  for (auto [nx, ny] :
       {std::pair<std::uint64_t, std::uint64_t>{1, 1}, {5, 3}, {33, 17}, {100, 37}, {129, 65}, {37, 200}})
    for (auto [tx, ty] : {std::pair<unsigned, unsigned>{32, 8}, {16, 16}, {32, 4}, {8, 8}, {24, 3}})
      for (unsigned radius : {1u, 2u})
        for (unsigned bytes : {4u, 8u}) {
          const stencil st{nx, ny, 1, tx, ty, 1, radius, bytes};
          const auto [every, by_class] = st.both_ways();
          EXPECT_EQ(difference(every, by_class), "")
              << nx << " x " << ny << ", tiles " << tx << " x " << ty << ", radius " << radius << ", " << bytes << " B";
          EXPECT_GT(every.global_load.requests, 0u);
        }
}

TEST(TraceTiles, A3DHaloStencilTracedByClassEqualsEveryBlockAtOddSizes) {
  for (auto [nx, ny, nz] : {std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>{1, 1, 1},
                            {33, 5, 7},
                            {17, 9, 3},
                            {40, 3, 5},
                            {65, 11, 9}})
    for (auto [tx, ty, tz] : {std::tuple<unsigned, unsigned, unsigned>{32, 4, 2}, {8, 4, 4}, {16, 2, 3}}) {
      const stencil st{nx, ny, nz, tx, ty, tz, 1, 4};
      const auto [every, by_class] = st.both_ways();
      EXPECT_EQ(difference(every, by_class), "")
          << nx << " x " << ny << " x " << nz << ", tiles " << tx << " x " << ty << " x " << tz;
    }
}

TEST(TraceTiles, TheGuidesStencilIsExactAtOddSizes) {
  for (auto [nx, ny] : {std::pair<std::uint64_t, std::uint64_t>{1, 1}, {33, 17}, {100, 37}, {65, 200}}) {
    const guide::settings s{nx, ny};
    const auto every = predict_every_block(
        guide::tiles_of(s), [&](cudalab::trace_sink& sink, const tile_block& b) { guide::trace_block(s, b, sink); });
    const auto by_class = predict_trace([&](cudalab::trace_sink& sink) { guide::trace_kernel(s, sink); });
    EXPECT_EQ(difference(every, by_class), "") << nx << " x " << ny;
    EXPECT_EQ(every.global_store.requested_bytes, nx * ny * 4);  // every element written once
  }
  // What the guide says: four classes of inner blocks at nx = 33, 18 blocks traced for 4097 x 4097.
  EXPECT_EQ(cudalab::tile_classes(guide::tiles_of({4097, 4097})).size(), 18u);
  std::uint64_t inner = 0;
  for (const cudalab::tile_class& c : cudalab::tile_classes(guide::tiles_of({33 + 64, 8 * 20})))
    inner += c.first.x == 1 && c.first.y > 0 && c.first.y < 19;
  EXPECT_EQ(inner, 4u);
}

TEST(TraceTiles, TheExactCheckCatchesAGridThatHidesAHalo) {
  // The stencil reaches one element past its tile, but the grid declares no halo: block 0 and the inner
  // blocks then share a class though block 0's halo lies outside the array. The check must see it.
  const stencil st{100, 37, 1, 32, 8, 1, 1, 4};
  tile_grid wrong = st.grid();
  wrong.halo = {0, 0, 0};
  const auto by_class = predict_trace([&](cudalab::trace_sink& sink) {
    cudalab::trace_tiles(sink, wrong, [&](const tile_block& b) { st.trace_block(sink, b); });
  });
  const auto every =
      predict_every_block(wrong, [&](cudalab::trace_sink& sink, const tile_block& b) { st.trace_block(sink, b); });
  EXPECT_NE(difference(every, by_class), "");
}

TEST(TraceTiles, DifferenceNamesEachTotalThatDiffers) {
  cudalab::access_stats a, b;
  EXPECT_EQ(difference(a, b), "");
  b.global_load.sectors = 124;
  a.global_load.sectors = 120;
  b.shared_store.wavefronts = 3;
  EXPECT_EQ(difference(a, b),
            "global_load.sectors: 120 expected, 124 got\n"
            "shared_store.wavefronts: 0 expected, 3 got\n");
}

}  // namespace
