// The transpose lab on the GPU: every variant verifies on square, non-square, odd and tiny shapes.
#include <gtest/gtest.h>

#include <utility>

#include "lab_checks.hpp"

namespace cudalab::testing {
namespace {

std::map<std::string, param_value> shape(std::int64_t rows, std::int64_t cols, std::int64_t block_rows = 8) {
  return {{"rows", rows}, {"cols", cols}, {"block_rows", block_rows}};
}

TEST(TransposeGpu, EveryVariantVerifiesAtAwkwardShapes) {
  for (auto [r, c] : {std::pair{1, 1}, {1, 31}, {31, 1}, {33, 65}, {65, 33}, {1000, 3}, {3, 1000}, {32, 32},
                      {257, 511}})
    expect_all_passed(verify_variants("transpose", shape(r, c)));
}

TEST(TransposeGpu, EveryRowsPerThreadVerifies) {
  for (std::int64_t br : {1, 2, 4, 8, 16, 32}) expect_all_passed(verify_variants("transpose", shape(97, 130, br)));
}

TEST(TransposeGpu, ManyBlocksNonSquare) {
  expect_all_passed(verify_variants("transpose", shape(2049, 4103)));
  expect_all_passed(verify_variants("transpose", shape(4096, 4096)));
}

}  // namespace
}  // namespace cudalab::testing
