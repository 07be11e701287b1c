// The test lab on the GPU: every variant verifies at awkward sizes, and verify catches a wrong kernel.
#include <gtest/gtest.h>

#include "cudalab/testing.hpp"

namespace {

using cudalab::testing::failures;
using cudalab::testing::lab_under_test;

const lab_under_test& lab() {
  static const lab_under_test loaded("testlab");
  return loaded;
}

TEST(TestLabGpu, EveryVariantVerifiesAtAwkwardSizes) {
  for (std::int64_t n : {1, 31, 257, 1000, (1 << 20) + 7})
    EXPECT_EQ(failures(lab().verify(lab().with({{"n", n}}))), "");
}

TEST(TestLabGpu, MissingLastElementIsCaughtByPoison) {
  for (const auto& o : lab().verify(lab().with({{"n", std::int64_t(1000)}, {"skip_tail", true}}))) {
    EXPECT_FALSE(o.passed) << o.variant;
    EXPECT_EQ(o.result.mismatches, 1u) << o.variant;
  }
}

}  // namespace
