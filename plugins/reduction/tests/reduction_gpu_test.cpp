// The reduction lab on the GPU: every variant and type sums exactly (int) or within its stated bound (float) at awkward
// sizes.
#include <gtest/gtest.h>

#include <string>

#include "cudalab/testing.hpp"

namespace {

using cudalab::testing::failures;

const cudalab::testing::lab_under_test& lab() {
  static const cudalab::testing::lab_under_test l("reduction");
  return l;
}

cudalab::params point(std::int64_t n, const char* type, std::int64_t block = 256) {
  return lab().with({{"n", n}, {"type", std::string(type)}, {"block", block}});
}

TEST(ReductionGpu, EveryVariantAndTypeAtTheIssueSizes) {
  for (const char* type : {"float", "int"})
    for (std::int64_t n :
         {std::int64_t(1), std::int64_t(31), std::int64_t(1000), std::int64_t((1 << 20) + 7), std::int64_t(1) << 24})
      EXPECT_EQ(failures(lab().verify(point(n, type))), "");
}

TEST(ReductionGpu, AwkwardSizesAroundBlocksVectorsAndWaves) {
  // Around one block, one float4, the single-block limit of the grid-stride kernels (32 * block),
  // a multi-pass tree of three launches, and sizes that are no multiple of anything.
  for (std::int64_t n : {2, 3, 4, 5, 63, 64, 65, 255, 256, 257, 511, 513, 8191, 8192, 8193, 65537, 1000003})
    for (const char* type : {"int", "float"}) EXPECT_EQ(failures(lab().verify(point(n, type))), "");
}

TEST(ReductionGpu, EveryBlockSize) {
  for (std::int64_t block : {64, 128, 512, 1024})
    for (std::int64_t n : {1, 33, 4099, 300007}) {
      EXPECT_EQ(failures(lab().verify(point(n, "int", block))), "");
      EXPECT_EQ(failures(lab().verify(point(n, "float", block))), "");
    }
}

TEST(ReductionGpu, ManyBlocksAndManyPasses) {
  // 2^26 + 5 ints at block 64: the tree kernels need four launches.
  EXPECT_EQ(failures(lab().verify(point((std::int64_t(1) << 26) + 5, "int", 64))), "");
}

TEST(ReductionGpu, SinglePassKernelCanBeRunAgain) {
  // The last block resets the arrival counter, so back-to-back launches stay correct: verify fails a
  // run that leaves the counter anywhere but 0. Several seeds, each a fresh point.
  for (std::uint64_t seed : {777u, 778u, 779u})
    EXPECT_EQ(failures(lab().verify(point((1 << 22) + 3, "int"), {"vector_single_pass"}, seed)), "");
}

TEST(ReductionGpu, RetunedPointsVerifyLikeFreshOnes) {
  // A sweep over block keeps the point: retune() plans every variant's passes and grids again and
  // grows the scratch when the new block needs more (1024 -> 64), keeps it when it needs less
  // (64 -> 1024); the input and the reference stay. A point that kept its old block, passes or
  // wave would sum the wrong elements, or write partials past its scratch (memcheck).
  for (const char* type : {"float", "int"})
    for (std::int64_t n : {std::int64_t(1000003), std::int64_t(1 << 22) + 3}) {
      const std::string t(type);
      EXPECT_EQ(lab().failures_retuned({{"n", n}, {"type", t}, {"block", std::int64_t(1024)}},
                                       {{"n", n}, {"type", t}, {"block", std::int64_t(64)}}),
                "");
      EXPECT_EQ(lab().failures_retuned({{"n", n}, {"type", t}, {"block", std::int64_t(64)}},
                                       {{"n", n}, {"type", t}, {"block", std::int64_t(1024)}}),
                "");
    }
}

}  // namespace
