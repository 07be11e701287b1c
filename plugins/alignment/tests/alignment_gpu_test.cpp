// The alignment lab on the GPU: every variant verifies at awkward sizes, offsets, strides and unrolls.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cudalab/testing.hpp"

namespace {

using i64 = std::int64_t;

const cudalab::testing::lab_under_test& lab() {
  static const cudalab::testing::lab_under_test l("alignment");
  return l;
}

TEST(AlignmentGpu, EveryVariantAtAwkwardSizesAndOffsets) {
  for (i64 n : {1, 2, 3, 31, 33, 257, 1000, 4099})
    for (i64 offset : {0, 1, 5, 8, 31, 32, 33})
      EXPECT_EQ(lab().failures_at({{"n", n}, {"offset", offset}, {"stride", i64(3)}}), "");
}

TEST(AlignmentGpu, OffsetsRunningPastTheEndMoveNothingThere) {
  for (auto [n, offset] : {std::pair<i64, i64>{1, 32}, {5, 32}, {31, 31}, {31, 30}, {32, 32}, {100, 1 << 20}})
    EXPECT_EQ(lab().failures_at({{"n", n}, {"offset", offset}},
                                {"offset_read", "offset_read_ldcs", "offset_write", "offset_copy"}),
              "");
}

TEST(AlignmentGpu, StridedAtEveryKindOfStride) {
  for (i64 n : {1, 31, 1000, 4099, 100003})
    for (i64 stride : {1, 2, 3, 8, 16, 33, 1024})
      EXPECT_EQ(lab().failures_at({{"n", n}, {"stride", stride}}, {"strided"}), "");
}

TEST(AlignmentGpu, UnrollAndBlockSizesWithTails) {
  for (i64 n : {1, 31, 1025, 100003})
    for (i64 unroll : {1, 2, 4})
      for (i64 block : {32, 96, 256, 1024})
        EXPECT_EQ(
            lab().failures_at({{"n", n}, {"unroll", unroll}, {"block", block}, {"offset", i64(3)}, {"stride", i64(5)}}),
            "");
}

TEST(AlignmentGpu, GridStrideWithSmallGrids) {
  for (i64 per_sm : {1, 2, 0})
    for (i64 unroll : {1, 2, 4})
      for (i64 n : {7, 4096 + 3, (1 << 22) + 1})
        EXPECT_EQ(lab().failures_at({{"n", n}, {"blocks_per_sm", per_sm}, {"block", i64(128)}, {"unroll", unroll}},
                                    {"grid_stride", "grid_stride_cs"}),
                  "");
}

TEST(AlignmentGpu, LargeEnoughForManyBlocks) {
  EXPECT_EQ(lab().failures_at({{"n", (i64(1) << 24) + 7}, {"offset", i64(11)}, {"stride", i64(7)}, {"unroll", i64(4)}}),
            "");
  EXPECT_EQ(lab().failures_at({{"n", (i64(1) << 24) + 2}, {"offset", i64(32)}, {"block", i64(1024)}}), "");
}

}  // namespace

// A sweep over tuning parameters keeps the point: retuned, every variant still verifies (a point that
// kept its old offset, block or grid would write the wrong elements or miss the tail).
TEST(AlignmentGpu, RetunedPointsVerifyLikeFreshOnes) {
  const i64 n = 1000003;
  EXPECT_EQ(lab().failures_retuned({{"n", n}, {"offset", i64(0)}}, {{"n", n}, {"offset", i64(5)}, {"stride", i64(7)}}),
            "");
  EXPECT_EQ(lab().failures_retuned({{"n", n}, {"block", i64(1024)}, {"unroll", i64(1)}},
                                   {{"n", n}, {"block", i64(96)}, {"unroll", i64(4)}, {"blocks_per_sm", i64(1)}}),
            "");
}
