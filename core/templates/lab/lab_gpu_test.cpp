// The @LAB@ lab on the GPU: every variant verifies at sizes that find bugs, fresh and retuned.
#include <gtest/gtest.h>

#include <cstdint>

#include "cudalab/testing.hpp"

namespace {

const cudalab::testing::lab_under_test& lab() {
  static const cudalab::testing::lab_under_test loaded("@LAB@");  // found on CUDALAB_PLUGIN_PATH, which CTest sets
  return loaded;
}

TEST(LabGpu, EveryVariantVerifiesAtAwkwardSizes) {
  // Sizes around a warp, a vector and a block, and a prime over a million; every unroll.
  for (std::int64_t n : cudalab::testing::awkward_sizes(1, std::int64_t(1) << 24))
    for (std::int64_t unroll : {1, 2, 4}) EXPECT_EQ(lab().failures_at({{"n", n}, {"unroll", unroll}}), "");
}

TEST(LabGpu, ARetunedPointVerifiesLikeAFreshOne) {
  // A sweep over the tuning parameters keeps the point: retuned, it must verify like a fresh one.
  const std::int64_t n = 1000003;
  EXPECT_EQ(lab().failures_retuned(
                {{"n", n}}, {{"n", n}, {"factor", -0.75}, {"block", std::int64_t(96)}, {"unroll", std::int64_t(4)}}),
            "");
}

}  // namespace
