// The bank-conflict micro-lab on the GPU: every width verifies at every kind of stride and odd grids.
#include <gtest/gtest.h>

#include "lab_checks.hpp"

namespace cudalab::testing {
namespace {

TEST(BankConflictsGpu, EveryWidthVerifiesAcrossStrides) {
  for (std::int64_t stride : {1, 2, 3, 7, 8, 16, 31, 32, 33, 64})
    expect_all_passed(verify_variants("bank_conflicts", {{"stride", stride}, {"iterations", std::int64_t(257)},
                                                         {"blocks", std::int64_t(37)}}));
}

TEST(BankConflictsGpu, TinyAndOddGrids) {
  expect_all_passed(verify_variants("bank_conflicts", {{"iterations", std::int64_t(1)}, {"blocks", std::int64_t(1)},
                                                       {"threads", std::int64_t(32)}}));
  expect_all_passed(verify_variants("bank_conflicts", {{"stride", std::int64_t(5)}, {"threads", std::int64_t(96)},
                                                       {"blocks", std::int64_t(1000)}}));
  expect_all_passed(verify_variants("bank_conflicts", {{"stride", std::int64_t(64)}, {"threads", std::int64_t(1024)}}));
}

}  // namespace
}  // namespace cudalab::testing
