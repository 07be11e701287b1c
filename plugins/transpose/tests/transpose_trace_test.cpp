// The transpose plugin on the CPU: its parameter checks, its tile index math, and the access model's predictions,
// which trace one block of each class of tiles and must equal tracing every block.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../transpose.hpp"
#include "../transpose_kernels.cuh"
#include "cudalab/testing.hpp"

namespace {

const cudalab::testing::lab_under_test& lab() {
  static const cudalab::testing::lab_under_test l("transpose");
  return l;
}

cudalab::params with(const std::map<std::string, cudalab::param_value>& overrides) { return lab().with(overrides); }

cudalab::access_stats predict(const std::string& variant, const cudalab::params& p) {
  return lab().predict(variant, p);
}

TEST(TransposeSpec, RejectsBadCombinations) {
  for (std::int64_t br : {3, 5, 12, 24}) EXPECT_THROW(with({{"block_rows", br}}), std::invalid_argument) << br;
  for (std::int64_t br : {1, 2, 4, 8, 16, 32}) EXPECT_NO_THROW(with({{"block_rows", br}}));
  EXPECT_THROW(with({{"rows", std::int64_t(1) << 20}, {"cols", std::int64_t(1) << 20}}), std::invalid_argument);
}

TEST(TransposeSpec, OnlyBlockRowsTunesAndNoHostMemory) {
  // A sweep over block_rows keeps the point (retune); rows and cols shape the input and the reference.
  for (const cudalab::param_spec& ps : lab().spec().params) EXPECT_EQ(ps.tuning, ps.name == "block_rows") << ps.name;
  // Input and output on the device; the input is made and the output checked on the GPU.
  const cudalab::requirements r =
      lab().requirements_of(with({{"rows", std::int64_t(1000)}, {"cols", std::int64_t(3)}}));
  EXPECT_EQ(r.device_bytes, 2u * 1000 * 3 * sizeof(float));
  EXPECT_EQ(r.host_bytes, 0u);
  EXPECT_EQ(r.host_pinned_bytes, 0u);
}

TEST(TransposeIndexMath, DiagonalOrderVisitsEveryTileOnce) {
  using namespace transpose;
  for (auto [tx, ty] : {std::pair{1u, 1u}, {3u, 5u}, {5u, 3u}, {7u, 7u}, {16u, 4u}, {1u, 9u}}) {
    std::set<std::pair<unsigned, unsigned>> seen;
    for (unsigned b = 0; b < tx * ty; ++b) {
      const tile_origin t = diagonal_tile(b, tx, ty);
      EXPECT_LT(t.row0 / tile_dim, ty);
      EXPECT_LT(t.col0 / tile_dim, tx);
      seen.insert({t.row0, t.col0});
    }
    EXPECT_EQ(seen.size(), std::size_t(tx) * ty) << tx << "x" << ty;
  }
}

TEST(TransposeIndexMath, TwoTileStripsCoverEveryTileOnce) {
  using namespace transpose;
  // Row-major and diagonal orders over strips of tuned_strip stacked tiles, with a ragged last strip.
  for (auto [rows, cols] : {std::pair{64u, 32u}, {65u, 33u}, {1000u, 3u}, {3u, 1000u}, {161u, 97u}}) {
    const unsigned tx = tiles_along(cols), ty = tiles_along(rows), sy = strips_along(rows, tuned_strip);
    EXPECT_EQ(sy, (ty + 1) / 2);
    for (bool diagonal : {false, true}) {
      std::set<std::pair<unsigned, unsigned>> seen;
      for (unsigned b = 0; b < tx * sy; ++b) {
        const tile_origin t = diagonal ? diagonal_tile(b, tx, sy, tuned_strip) : row_major_tile(b, tx, tuned_strip);
        EXPECT_EQ(t.row0 % (tuned_strip * tile_dim), 0u);
        for (unsigned s = 0; s < tuned_strip; ++s) {
          if (t.row0 + s * tile_dim < rows) {
            EXPECT_TRUE(seen.insert({t.row0 + s * tile_dim, t.col0}).second);
          }
        }
      }
      EXPECT_EQ(seen.size(), std::size_t(tx) * ty) << rows << "x" << cols << (diagonal ? " diagonal" : "");
    }
  }
}

TEST(TransposeIndexMath, SwizzleIsAPermutationOfEachRow) {
  using namespace transpose;
  for (unsigned r = 0; r < 2 * tile_dim; ++r) {  // rows of a second stacked tile too
    std::set<unsigned> row;
    for (unsigned c = 0; c < tile_dim; ++c) row.insert(swizzled_tile_index(r, c));
    EXPECT_EQ(row.size(), tile_dim);
    EXPECT_EQ(*row.begin(), r * tile_dim);
    EXPECT_EQ(*row.rbegin(), r * tile_dim + tile_dim - 1);
  }
}

// At 16384^2 every traced tile is full, so the predictions are the textbook numbers.
struct expectation {
  const char* variant;
  double load_sectors, store_sectors;  // per request
  double shared_load_conflicts;        // extra wavefronts per shared load request (-1: no shared use)
};

TEST(TransposeTrace, SectorsAndConflictsPerVariantAtDefaultSize) {
  const expectation cases[] = {
      {"copy", 4, 4, -1},    {"copy_shared", 4, 4, 0},   {"naive_row", 4, 32, -1}, {"naive_col", 32, 4, -1},
      {"tile", 4, 4, 31},    {"padded", 4, 4, 0},        {"swizzled", 4, 4, 0},    {"padded_rows", 4, 4, 0},
      {"diagonal", 4, 4, 0}, {"padded_hinted", 4, 4, 0},
  };
  const cudalab::params p = with({});
  const std::uint64_t elements = std::uint64_t(16384) * 16384;
  for (const auto& e : cases) {
    SCOPED_TRACE(e.variant);
    const auto s = predict(e.variant, p);
    EXPECT_DOUBLE_EQ(s.global_load.sectors_per_request(), e.load_sectors);
    EXPECT_DOUBLE_EQ(s.global_store.sectors_per_request(), e.store_sectors);
    EXPECT_DOUBLE_EQ(s.global_load.efficiency(), 4.0 / e.load_sectors);
    EXPECT_DOUBLE_EQ(s.global_store.efficiency(), 4.0 / e.store_sectors);
    // One request per 32 elements each way, over the whole launch.
    EXPECT_EQ(s.global_load.requests, elements / 32);
    EXPECT_EQ(s.global_store.requests, elements / 32);
    if (e.shared_load_conflicts < 0) {
      EXPECT_EQ(s.shared_load.requests, 0u);
      EXPECT_EQ(s.shared_store.requests, 0u);
      continue;
    }
    EXPECT_EQ(s.shared_load.requests, elements / 32);
    EXPECT_EQ(s.shared_store.requests, elements / 32);
    EXPECT_EQ(s.shared_store.conflicts(), 0u);  // rows of the tile go in row-wise
    EXPECT_DOUBLE_EQ(s.shared_load.conflicts_per_request(), e.shared_load_conflicts);
    EXPECT_DOUBLE_EQ(s.shared_load.wavefronts_per_request(), e.shared_load_conflicts + 1);
  }
}

TEST(TransposeTrace, PlainTileColumnReadIsThirtyTwoWayAtEveryBlockRows) {
  for (std::int64_t br : {1, 8, 32}) {
    const auto p = with({{"block_rows", br}});
    EXPECT_DOUBLE_EQ(predict("copy_shared", p).shared_load.conflicts_per_request(), 0.0) << br;
    EXPECT_DOUBLE_EQ(predict("padded_rows", p).shared_load.conflicts_per_request(), 0.0) << br;
    EXPECT_DOUBLE_EQ(predict("diagonal", p).shared_load.conflicts_per_request(), 0.0) << br;
    EXPECT_DOUBLE_EQ(predict("padded_hinted", p).shared_load.conflicts_per_request(), 0.0) << br;
    EXPECT_DOUBLE_EQ(predict("tile", p).shared_load.conflicts_per_request(), 31.0);  // fixed 32x32 block
  }
}

TEST(TransposeTrace, LibraryCopyIsNotTraced) {
  const auto s = predict("memcpy", with({}));
  EXPECT_EQ(s.global_load.requests + s.global_store.requests, 0u);
}

TEST(TransposeTrace, OneByOneMovesOneElement) {
  const auto p = with({{"rows", std::int64_t(1)}, {"cols", std::int64_t(1)}});
  for (const auto& v : lab().spec().variants) {
    if (v.name == "memcpy") continue;
    SCOPED_TRACE(v.name);
    const auto s = predict(v.name, p);
    EXPECT_EQ(s.global_load.requests, 1u);
    EXPECT_EQ(s.global_load.requested_bytes, 4u);
    EXPECT_EQ(s.global_store.requested_bytes, 4u);
    EXPECT_EQ(s.global_load.sectors, 1u);
    EXPECT_EQ(s.shared_load.conflicts(), 0u);
  }
}

TEST(TransposeTrace, OddShapesTraceEveryVariant) {
  for (auto [r, c] : {std::pair{33, 65}, {1000, 3}, {3, 1000}, {31, 1}, {4097, 129}}) {
    const auto p = with({{"rows", std::int64_t(r)}, {"cols", std::int64_t(c)}});
    for (const auto& v : lab().spec().variants) {
      if (v.name == "memcpy") continue;
      SCOPED_TRACE(v.name + " at " + std::to_string(r) + "x" + std::to_string(c));
      const auto s = predict(v.name, p);
      EXPECT_GT(s.global_load.requests, 0u);
      EXPECT_GT(s.global_store.requests, 0u);
      EXPECT_LE(s.global_load.sectors_per_request(), 32.0);
      EXPECT_GE(s.global_load.sectors_per_request(), 1.0);
    }
  }
}

// What Nsight Compute counted on an H100 (ncu 2025.3.1, CUDA 13, 2026-11-24: `cudalab run --profile
// labs/transpose_shapes.toml --set sweep.rows=[1,33,1000,4097] --set sweep.cols=[3,65,1025]`, the
// kernel of each variant; tests/fixtures/profile/ncu_transpose_shapes.csv holds five of its points).
// Shared requests are SASS's instructions with an active lane (smsp__sass_inst_executed_op_shared_*),
// wavefronts the addresses' (sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_*), conflicts those
// over the ideal.
struct global_count {
  std::uint64_t requests, sectors;
};
struct shared_count {
  std::uint64_t requests, wavefronts, conflicts;
};
struct h100_count {
  const char* variant;
  std::int64_t rows, cols;
  global_count ld, st;
  shared_count sh_ld, sh_st;  // {} where the kernel has none
};

void expect_counts(const cudalab::global_totals& t, const global_count& c) {
  EXPECT_EQ(t.requests, c.requests);
  EXPECT_EQ(t.sectors, c.sectors);
}

void expect_counts(const cudalab::shared_totals& t, const shared_count& c) {
  EXPECT_EQ(t.requests, c.requests);
  EXPECT_EQ(t.wavefronts, c.wavefronts);
  EXPECT_EQ(t.conflicts(), c.conflicts);
}

TEST(TransposeTrace, PartialTilesAsTheH100CountsThem) {
  // Edge tiles are partial: a row of 65 floats starts mid-sector (5 sectors for 32 floats where the
  // rows are misaligned), a 1-row matrix has 1-lane column stores, the last tile column and strip row
  // differ from the inner blocks and from each other. Every count is the hardware's exactly.
  const h100_count counts[] = {
      {"copy", 1, 1025, {33, 129}, {33, 129}, {}, {}},
      {"tile", 1, 1025, {33, 129}, {1025, 1025}, {1025, 1025, 0}, {33, 33, 0}},
      {"naive_row", 33, 65, {99, 353}, {99, 2145}, {}, {}},
      {"naive_col", 33, 65, {130, 2145}, {130, 381}, {}, {}},
      {"tile", 33, 65, {99, 353}, {130, 381}, {130, 2145, 2015}, {99, 99, 0}},
      {"padded_rows", 1000, 3, {1000, 1250}, {96, 375}, {96, 96, 0}, {1000, 1000, 0}},
      {"swizzled", 1000, 3, {1000, 1250}, {96, 375}, {96, 96, 0}, {1000, 1000, 0}},
      {"copy", 4097, 65, {12291, 44041}, {12291, 44041}, {}, {}},
      {"diagonal", 4097, 65, {12291, 44041}, {8385, 40513}, {8385, 8385, 0}, {12291, 12291, 0}},
      {"padded_hinted", 4097, 65, {12291, 44041}, {8385, 40513}, {8385, 8385, 0}, {12291, 12291, 0}},
      {"tile", 4097, 1025, {135201, 643201}, {132225, 640513}, {132225, 4199425, 4067200}, {135201, 135201, 0}},
      {"padded", 4097, 1025, {135201, 643201}, {132225, 640513}, {132225, 132225, 0}, {135201, 135201, 0}},
  };
  for (const h100_count& c : counts) {
    SCOPED_TRACE(std::string(c.variant) + " at " + std::to_string(c.rows) + "x" + std::to_string(c.cols));
    const auto s = predict(c.variant, with({{"rows", c.rows}, {"cols", c.cols}}));
    expect_counts(s.global_load, c.ld);
    expect_counts(s.global_store, c.st);
    expect_counts(s.shared_load, c.sh_ld);
    expect_counts(s.shared_store, c.sh_st);
    EXPECT_EQ(s.traced_warps, 0u);  // exact, not a scaled sample
  }
}

TEST(TransposeTrace, DiagonalOrderHasPaddedRowsTotalsAtEveryShape) {
  // The same strips in another order: the same requests, sectors and wavefronts, ragged edges included.
  for (auto [r, c] : {std::pair{33, 65}, {1000, 1025}, {4097, 65}, {4097, 1025}, {65, 4097}}) {
    const auto p = with({{"rows", std::int64_t(r)}, {"cols", std::int64_t(c)}});
    SCOPED_TRACE(std::to_string(r) + "x" + std::to_string(c));
    const auto d = predict("diagonal", p), pr = predict("padded_rows", p);
    EXPECT_EQ(d.global_load.sectors, pr.global_load.sectors);
    EXPECT_EQ(d.global_store.requests, pr.global_store.requests);
    EXPECT_EQ(d.global_store.sectors, pr.global_store.sectors);
    EXPECT_EQ(d.shared_load.requests, pr.shared_load.requests);
    EXPECT_EQ(d.shared_load.wavefronts, pr.shared_load.wavefronts);
  }
}

TEST(TransposeTrace, EveryElementIsMovedOnceAtOddShapes) {
  // Whatever the shape and thread rows, the lanes ask for each input and output byte exactly once.
  for (auto [r, c] : {std::pair{1, 1025}, {33, 3}, {1000, 65}, {4097, 1025}, {31, 1}}) {
    for (std::int64_t br : {1, 8, 32}) {
      const auto p = with({{"rows", std::int64_t(r)}, {"cols", std::int64_t(c)}, {"block_rows", br}});
      for (const auto& v : lab().spec().variants) {
        if (v.name == "memcpy") continue;
        SCOPED_TRACE(v.name + " at " + std::to_string(r) + "x" + std::to_string(c) + " block_rows " +
                     std::to_string(br));
        const auto s = predict(v.name, p);
        EXPECT_EQ(s.global_load.requested_bytes, std::uint64_t(r) * c * 4);
        EXPECT_EQ(s.global_store.requested_bytes, std::uint64_t(r) * c * 4);
      }
    }
  }
}

/// Every launch shape the variants use: each kernel at its strips, at every thread-row count it takes.
std::vector<transpose::launch_shape> launch_shapes(unsigned rows, unsigned cols) {
  using namespace transpose;
  std::vector<launch_shape> out;
  for (kernel k : {kernel::copy_tile, kernel::copy_shared, kernel::naive_row, kernel::naive_col, kernel::tile,
                   kernel::padded, kernel::swizzled, kernel::diagonal, kernel::hinted})
    for (unsigned strip : {1u, tuned_strip})
      for (std::int64_t block_rows : block_rows_choices::values())
        out.push_back({k, rows, cols, static_cast<unsigned>(block_rows), strip});
  return out;
}

TEST(TransposeTrace, TracingOneBlockPerClassEqualsTracingEveryBlockAtOddShapes) {
  // The brute-force check of trace_tiles: partial tiles at the right and bottom edges, rows that start
  // anywhere in a line (odd widths), single rows and columns, a strip taller than the matrix.
  for (auto [r, c] : {std::pair{1u, 1u}, {33u, 65u}, {65u, 33u}, {1000u, 3u}, {3u, 1000u}, {97u, 130u}, {257u, 511u}})
    for (const transpose::launch_shape& launch : launch_shapes(r, c)) {
      SCOPED_TRACE("kernel " + std::to_string(int(launch.k)) + " at " + std::to_string(r) + "x" + std::to_string(c) +
                   ", strip " + std::to_string(launch.strip) + ", block_rows " + std::to_string(launch.block_rows));
      const auto every = cudalab::testing::predict_every_block(
          transpose::tiles_of(launch),
          [&](cudalab::trace_sink& sink, const cudalab::tile_block& b) { transpose::trace_block(launch, b, sink); });
      const auto by_class =
          cudalab::testing::predict_trace([&](cudalab::trace_sink& sink) { transpose::trace_launch(launch, sink); });
      EXPECT_EQ(cudalab::testing::difference(every, by_class), "");
    }
}

TEST(TransposeTrace, ThePluginTracesTheLaunchOfItsVariant) {
  // padded_rows: the padded kernel on strips of two tiles at the block_rows parameter; tile: 32 thread rows.
  const cudalab::params p =
      with({{"rows", std::int64_t(97)}, {"cols", std::int64_t(130)}, {"block_rows", std::int64_t(4)}});
  const auto launched = [](transpose::launch_shape launch) {
    return cudalab::testing::predict_trace([&](cudalab::trace_sink& sink) { transpose::trace_launch(launch, sink); });
  };
  EXPECT_EQ(cudalab::testing::difference(launched({transpose::kernel::padded, 97, 130, 4, transpose::tuned_strip}),
                                         predict("padded_rows", p)),
            "");
  EXPECT_EQ(cudalab::testing::difference(launched({transpose::kernel::tile, 97, 130, transpose::tile_dim, 1}),
                                         predict("tile", p)),
            "");
}

}  // namespace
