// The transpose lab on the GPU: every variant verifies on square, non-square, odd and tiny shapes.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>

#include "cudalab/testing.hpp"

namespace {

const cudalab::testing::lab_under_test& lab() {
  static const cudalab::testing::lab_under_test l("transpose");
  return l;
}

/// Verifies every variant on a rows x cols input; "" when all passed.
std::string failures(std::int64_t rows, std::int64_t cols, std::int64_t block_rows = 8) {
  return cudalab::testing::failures(
      lab().verify(lab().with({{"rows", rows}, {"cols", cols}, {"block_rows", block_rows}})));
}

TEST(TransposeGpu, EveryVariantVerifiesAtAwkwardShapes) {
  for (auto [r, c] :
       {std::pair{1, 1}, {1, 31}, {31, 1}, {33, 65}, {65, 33}, {1000, 3}, {3, 1000}, {32, 32}, {257, 511}})
    EXPECT_EQ(failures(r, c), "");
}

TEST(TransposeGpu, EveryRowsPerThreadVerifies) {
  for (std::int64_t br : {1, 2, 4, 8, 16, 32}) EXPECT_EQ(failures(97, 130, br), "");
}

TEST(TransposeGpu, ManyBlocksNonSquare) {
  EXPECT_EQ(failures(2049, 4103), "");
  EXPECT_EQ(failures(4096, 4096), "");
}

TEST(TransposeGpu, RetunedPointsVerifyLikeFreshOnes) {
  // A sweep over block_rows keeps the point: retuned, every variant still verifies at the new thread
  // rows, with the input and output of the first setup. (Every block_rows transposes correctly, so
  // this cannot tell whether retune took the new value; it checks that a kept point stays right.)
  for (auto [r, c] : {std::pair{97, 130}, {2049, 4103}})
    for (auto [from, to] : {std::pair{8, 1}, {1, 32}, {32, 2}}) {
      const std::int64_t rows = r, cols = c;
      EXPECT_EQ(lab().failures_retuned({{"rows", rows}, {"cols", cols}, {"block_rows", std::int64_t(from)}},
                                       {{"rows", rows}, {"cols", cols}, {"block_rows", std::int64_t(to)}}),
                "");
    }
}

}  // namespace
