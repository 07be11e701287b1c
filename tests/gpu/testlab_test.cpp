// The test lab on the GPU: every variant verifies at awkward sizes, and verify catches a wrong kernel.
#include <gtest/gtest.h>

#include "lab_checks.hpp"

namespace cudalab::testing {
namespace {

TEST(TestLabGpu, EveryVariantVerifiesAtAwkwardSizes) {
  for (std::int64_t n : {1, 31, 257, 1000, (1 << 20) + 7}) expect_all_passed(verify_variants("testlab", {{"n", n}}));
}

TEST(TestLabGpu, EmptyInputIsFine) { expect_all_passed(verify_variants("testlab", {{"n", std::int64_t(0)}})); }

TEST(TestLabGpu, MissingLastElementIsCaughtByPoison) {
  for (const auto& o : verify_variants("testlab", {{"n", std::int64_t(1000)}, {"skip_tail", true}})) {
    EXPECT_FALSE(o.result.passed) << o.variant;
    EXPECT_EQ(o.result.mismatches, 1u) << o.variant;
  }
}

}  // namespace
}  // namespace cudalab::testing
