// The alignment plugin on the CPU: its parameter checks, its index math, and the access model's predictions.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

#include "../alignment_kernels.cuh"
#include "cudalab/testing.hpp"

namespace {

const cudalab::testing::lab_under_test& lab() {
  static const cudalab::testing::lab_under_test l("alignment");
  return l;
}

cudalab::params with(const std::map<std::string, cudalab::param_value>& overrides) { return lab().with(overrides); }

cudalab::access_stats predict(const std::string& variant, const cudalab::params& p) {
  return lab().predict(variant, p);
}

TEST(AlignmentSpec, DefaultsFillAnH100) {
  const cudalab::params p = with({});
  EXPECT_GE(p.integer("n") * 4, std::int64_t(256) << 20);  // at least 256 MiB per buffer
}

TEST(AlignmentSpec, RejectsBadCombinations) {
  for (std::int64_t b : {33, 100, 1000}) EXPECT_THROW(with({{"block", b}}), std::invalid_argument) << b;
  for (std::int64_t b : {32, 96, 256, 1024}) EXPECT_NO_THROW(with({{"block", b}})) << b;
  EXPECT_THROW(with({{"unroll", std::int64_t(3)}}), std::invalid_argument);
  for (std::int64_t u : {1, 2, 4}) EXPECT_NO_THROW(with({{"unroll", u}})) << u;
  // An empty array has no traffic to time.
  EXPECT_THROW(with({{"n", std::int64_t(0)}}), std::invalid_argument);
  // Offsets running past the end are legal: nothing is moved.
  EXPECT_NO_THROW(with({{"n", std::int64_t(5)}, {"offset", std::int64_t(32)}}));
}

TEST(AlignmentIndexMath, CountsAndTails) {
  using namespace alignment;
  EXPECT_EQ(offset_count(100, 0), 100u);
  EXPECT_EQ(offset_count(100, 99), 1u);
  EXPECT_EQ(offset_count(100, 100), 0u);
  EXPECT_EQ(offset_count(1, 32), 0u);
  EXPECT_EQ(strided_count(1, 8), 1u);
  EXPECT_EQ(strided_count(16, 8), 2u);
  EXPECT_EQ(strided_count(17, 8), 3u);
  EXPECT_EQ(blocks_for(0, 256, 4), 0u);
  EXPECT_EQ(blocks_for(1025, 256, 4), 2u);
  // Every item in [0, blocks * block * unroll) is handled by exactly one (block, thread, step).
  std::set<std::uint64_t> seen;
  for (std::uint64_t b = 0; b < 3; ++b)
    for (std::uint64_t t = 0; t < 64; ++t)
      for (std::uint64_t k = 0; k < 4; ++k) EXPECT_TRUE(seen.insert(unrolled_index(b, 64, t, k, 4)).second);
  EXPECT_EQ(seen.size(), 3u * 64u * 4u);
  EXPECT_EQ(*seen.rbegin(), 3u * 64u * 4u - 1);
}

// Offsets 0..32 with n = 2^20 + offset, so every warp is full and the ratios are exact.
// A warp of 4-byte elements covers 128 bytes: aligned it is 4 sectors; shifted by a multiple of
// 8 elements (32 bytes) it is still 4 sectors (2 lines); any other shift straddles 5 sectors.
unsigned expected_sectors_at(std::int64_t offset) { return offset % 8 == 0 ? 4u : 5u; }

TEST(AlignmentModel, OffsetReadLoadsFourSectorsAlignedFiveMisaligned) {
  for (std::int64_t offset = 0; offset <= 32; ++offset) {
    const auto st = predict("offset_read", with({{"n", (std::int64_t(1) << 20) + offset}, {"offset", offset}}));
    EXPECT_DOUBLE_EQ(st.global_load.sectors_per_request(), expected_sectors_at(offset)) << "offset " << offset;
    EXPECT_DOUBLE_EQ(st.global_load.efficiency(), 4.0 / expected_sectors_at(offset)) << "offset " << offset;
    EXPECT_DOUBLE_EQ(st.global_store.sectors_per_request(), 4.0) << "offset " << offset;
    EXPECT_EQ(st.global_load.requests, std::uint64_t(1) << 15) << "offset " << offset;
  }
  // The brief's figures, named: 4 at 0, 5 at 1 and 31 (and every offset not a multiple of 8), 4 at 32.
  auto load_spr = [](std::int64_t off) {
    return predict("offset_read", with({{"n", (std::int64_t(1) << 20) + off}, {"offset", off}}))
        .global_load.sectors_per_request();
  };
  EXPECT_DOUBLE_EQ(load_spr(0), 4.0);
  EXPECT_DOUBLE_EQ(load_spr(1), 5.0);
  EXPECT_DOUBLE_EQ(load_spr(31), 5.0);
  EXPECT_DOUBLE_EQ(load_spr(32), 4.0);
}

TEST(AlignmentModel, CacheOperatorsShareTheMisalignedReadPattern) {
  for (const char* v : {"offset_read_ldg", "offset_read_ldca", "offset_read_ldcg", "offset_read_ldcs"}) {
    for (std::int64_t offset : {0, 1, 11, 32}) {
      const auto st = predict(v, with({{"n", (std::int64_t(1) << 20) + offset}, {"offset", offset}}));
      EXPECT_DOUBLE_EQ(st.global_load.sectors_per_request(), expected_sectors_at(offset)) << v << " offset " << offset;
      EXPECT_DOUBLE_EQ(st.global_store.sectors_per_request(), 4.0) << v;
    }
  }
}

TEST(AlignmentModel, OffsetWriteStoresFourSectorsAlignedFiveMisaligned) {
  for (std::int64_t offset = 0; offset <= 32; ++offset) {
    const auto st = predict("offset_write", with({{"n", (std::int64_t(1) << 20) + offset}, {"offset", offset}}));
    EXPECT_DOUBLE_EQ(st.global_store.sectors_per_request(), expected_sectors_at(offset)) << "offset " << offset;
    EXPECT_DOUBLE_EQ(st.global_store.efficiency(), 4.0 / expected_sectors_at(offset)) << "offset " << offset;
    EXPECT_DOUBLE_EQ(st.global_load.sectors_per_request(), 4.0) << "offset " << offset;
  }
}

TEST(AlignmentModel, OffsetCopyMisalignsBothSides) {
  for (std::int64_t offset : {0, 1, 7, 8, 31, 32}) {
    const auto st = predict("offset_copy", with({{"n", (std::int64_t(1) << 20) + offset}, {"offset", offset}}));
    EXPECT_DOUBLE_EQ(st.global_load.sectors_per_request(), expected_sectors_at(offset)) << offset;
    EXPECT_DOUBLE_EQ(st.global_store.sectors_per_request(), expected_sectors_at(offset)) << offset;
  }
}

TEST(AlignmentModel, UnrollKeepsThePatternAndTheRequestCount) {
  for (std::int64_t unroll : {1, 2, 4}) {
    const auto st = predict(
        "offset_read", with({{"n", (std::int64_t(1) << 20) + 3}, {"offset", std::int64_t(3)}, {"unroll", unroll}}));
    EXPECT_DOUBLE_EQ(st.global_load.sectors_per_request(), 5.0) << unroll;
    EXPECT_EQ(st.global_load.requests, std::uint64_t(1) << 15) << unroll;
    EXPECT_EQ(st.global_store.requests, std::uint64_t(1) << 15) << unroll;
  }
}

TEST(AlignmentModel, StridedLoadsSpreadOverStrideSectors) {
  struct row {
    std::int64_t stride;
    double sectors;
    double efficiency;
  };
  for (const row r :
       {row{1, 4, 1.0}, row{2, 8, 0.5}, row{4, 16, 0.25}, row{8, 32, 0.125}, row{16, 32, 0.125}, row{32, 32, 0.125}}) {
    const auto st = predict("strided", with({{"n", (std::int64_t(1) << 20) * r.stride}, {"stride", r.stride}}));
    EXPECT_DOUBLE_EQ(st.global_load.sectors_per_request(), r.sectors) << "stride " << r.stride;
    EXPECT_DOUBLE_EQ(st.global_load.efficiency(), r.efficiency) << "stride " << r.stride;
    EXPECT_DOUBLE_EQ(st.global_store.sectors_per_request(), 4.0) << "stride " << r.stride;
    EXPECT_EQ(st.global_load.requests, std::uint64_t(1) << 15) << "stride " << r.stride;
  }
}

TEST(AlignmentModel, VectorWidthsMoveWholeAlignedSectors) {
  struct row {
    const char* variant;
    double sectors;
  };
  for (const row r : {row{"copy_float", 4}, row{"copy_float2", 8}, row{"copy_float4", 16}, row{"grid_stride", 16},
                      row{"grid_stride_cs", 16}}) {
    const auto st = predict(r.variant, with({{"n", std::int64_t(1) << 28}}));
    EXPECT_DOUBLE_EQ(st.global_load.sectors_per_request(), r.sectors) << r.variant;
    EXPECT_DOUBLE_EQ(st.global_store.sectors_per_request(), r.sectors) << r.variant;
    EXPECT_DOUBLE_EQ(st.global_load.efficiency(), 1.0) << r.variant;
    EXPECT_DOUBLE_EQ(st.global_store.efficiency(), 1.0) << r.variant;
  }
  // A float4 copy of 2^28 floats is 2^26 vectors: 2^21 warp requests each way.
  const auto f4 = predict("copy_float4", with({{"n", std::int64_t(1) << 28}}));
  EXPECT_EQ(f4.global_load.requests, std::uint64_t(1) << 21);
  for (std::int64_t unroll : {1, 2, 4}) {
    const auto gs = predict("grid_stride", with({{"n", std::int64_t(1) << 28}, {"unroll", unroll}}));
    EXPECT_EQ(gs.global_load.requests, std::uint64_t(1) << 21) << unroll;
    EXPECT_DOUBLE_EQ(gs.global_load.sectors_per_request(), 16.0) << unroll;
  }
}

TEST(AlignmentModel, SmallAndOddSizesTraceWithoutSampling) {
  // n = 7: one float4 and three tail floats.
  const auto st = predict("copy_float4", with({{"n", std::int64_t(7)}}));
  EXPECT_EQ(st.global_load.requests, 2u);
  EXPECT_EQ(st.global_load.requested_bytes, 28u);
  EXPECT_EQ(st.global_store.requested_bytes, 28u);
  // n = 1 with offset 32: nothing to move, nothing traced.
  const auto none = predict("offset_read", with({{"n", std::int64_t(1)}, {"offset", std::int64_t(32)}}));
  EXPECT_EQ(none.global_load.requests, 0u);
  // One block of the grid-stride copy covers 250 float4 and the one-float tail: traced in full.
  const auto gs = predict("grid_stride", with({{"n", std::int64_t(1001)}, {"block", std::int64_t(256)}}));
  EXPECT_EQ(gs.global_load.requested_bytes, 1001u * 4u);
  EXPECT_EQ(gs.global_store.requested_bytes, 1001u * 4u);
  // The library copy is not modelled.
  EXPECT_EQ(predict("memcpy", with({})).global_load.requests, 0u);
}

}  // namespace
