// The mapped_pinned plugin on the GPU: every variant verifies at awkward sizes, chunkings and strides.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cudalab/testing.hpp"

namespace {

const cudalab::testing::lab_under_test& lab() {
  static const cudalab::testing::lab_under_test l("mapped_pinned");
  return l;
}

TEST(MappedPinnedGpu, EveryVariantVerifiesAtAwkwardSizes) {
  // 1, below a warp, odd, not a multiple of the unroll factor (2, 4), the block or the chunk count.
  for (std::int64_t n : {1, 2, 3, 31, 33, 1001, 4099, 65537})
    EXPECT_EQ(lab().failures_at({{"n", n}, {"cycles", std::int64_t(3)}}), "");
}

TEST(MappedPinnedGpu, EveryUnrollFactorOfTheCopyVariants) {
  for (std::int64_t unroll : {1, 2, 4})
    EXPECT_EQ(lab().failures_at({{"n", std::int64_t(10007)}, {"unroll", unroll}},
                                {"pageable", "pinned", "streams", "registered"}),
              "");
}

TEST(MappedPinnedGpu, StreamsWithChunkCountsThatDoNotDivideN) {
  for (std::int64_t chunks : {1, 3, 7, 64})
    EXPECT_EQ(
        lab().failures_at({{"n", std::int64_t(100003)}, {"chunks", chunks}, {"streams", std::int64_t(1)}}, {"streams"}),
        "");
  EXPECT_EQ(lab().failures_at({{"n", std::int64_t(100003)}, {"chunks", std::int64_t(13)}, {"streams", std::int64_t(5)}},
                              {"streams"}),
            "");
}

TEST(MappedPinnedGpu, StridedWalkAtStridesThatDoNotDivideN) {
  for (std::int64_t stride : {1, 7, 32, 1000})
    EXPECT_EQ(lab().failures_at({{"n", std::int64_t(50001)}, {"stride", stride}}, {"mapped_strided"}), "");
}

TEST(MappedPinnedGpu, ZeroCyclesAndNegativeIncrement) {
  EXPECT_EQ(lab().failures_at({{"n", std::int64_t(777)}, {"cycles", std::int64_t(0)}}), "");
  EXPECT_EQ(
      lab().failures_at({{"n", std::int64_t(777)}, {"cycles", std::int64_t(100)}, {"increment", std::int64_t(-7)}}),
      "");
}

TEST(MappedPinnedGpu, ManyBlocksAtAMillionAndAHalf) {
  // Thousands of blocks, with a small block size so even the unrolled grid is large.
  EXPECT_EQ(lab().failures_at({{"n", std::int64_t(1500007)}, {"block", std::int64_t(128)}}), "");
}

TEST(MappedPinnedGpu, DefaultSizeThirtyTwoMillionInts) { EXPECT_EQ(lab().failures_at({}), ""); }

// A sweep over anything but n keeps the point: retuned, every variant still verifies (a point that
// kept its old cycles, increment, unroll, stride, block or streams would compute or cover the wrong
// thing; one that kept its stream count would index its streams past the end).
TEST(MappedPinnedGpu, RetunedPointsVerifyLikeFreshOnes) {
  const std::int64_t n = 100003;
  EXPECT_EQ(lab().failures_retuned({{"n", n}, {"cycles", std::int64_t(0)}},
                                   {{"n", n}, {"cycles", std::int64_t(300)}, {"increment", std::int64_t(-3)}}),
            "");
  EXPECT_EQ(lab().failures_retuned({{"n", n}}, {{"n", n},
                                                {"unroll", std::int64_t(1)},
                                                {"block", std::int64_t(96)},
                                                {"stride", std::int64_t(7)},
                                                {"streams", std::int64_t(7)},
                                                {"chunks", std::int64_t(13)}}),
            "");
  EXPECT_EQ(lab().failures_retuned({{"n", n}, {"streams", std::int64_t(8)}, {"chunks", std::int64_t(64)}},
                                   {{"n", n}, {"streams", std::int64_t(2)}, {"chunks", std::int64_t(3)}}),
            "");
}

}  // namespace
