// The bank-conflict micro-lab on the GPU: every width verifies at every kind of stride and odd grids.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "cudalab/testing.hpp"

namespace {

const cudalab::testing::lab_under_test& lab() {
  static const cudalab::testing::lab_under_test l("bank_conflicts");
  return l;
}

TEST(BankConflictsGpu, EveryWidthVerifiesAcrossStrides) {
  for (std::int64_t stride : {1, 2, 3, 7, 8, 16, 31, 32, 33, 64})
    EXPECT_EQ(lab().failures_at({{"stride", stride}, {"iterations", std::int64_t(257)}, {"blocks", std::int64_t(37)}}),
              "");
}

TEST(BankConflictsGpu, TinyAndOddGrids) {
  EXPECT_EQ(
      lab().failures_at({{"iterations", std::int64_t(1)}, {"blocks", std::int64_t(1)}, {"threads", std::int64_t(32)}}),
      "");
  EXPECT_EQ(
      lab().failures_at({{"stride", std::int64_t(5)}, {"threads", std::int64_t(96)}, {"blocks", std::int64_t(1000)}}),
      "");
  EXPECT_EQ(lab().failures_at({{"stride", std::int64_t(64)}, {"threads", std::int64_t(1024)}}), "");
}

}  // namespace
