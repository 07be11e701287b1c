// The aos_soa plugin on the GPU: every variant verifies for every record shape at awkward sizes, on
// fresh points and on retuned ones.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cudalab/testing.hpp"

namespace {

const cudalab::testing::lab_under_test& lab() {
  static const cudalab::testing::lab_under_test l("aos_soa");
  return l;
}

/// Verifies the variants (all, or those in `only`) at the defaults with `overrides`.
std::vector<cudalab::testing::outcome> verify_variants(const std::map<std::string, cudalab::param_value>& overrides,
                                                       const std::vector<std::string>& only = {}) {
  return lab().verify(lab().with(overrides), only);
}

void expect_all_passed(const std::vector<cudalab::testing::outcome>& out) {
  EXPECT_EQ(cudalab::testing::failures(out), "");
}

TEST(AosSoaGpu, EveryVariantVerifiesAtAwkwardSizesForTwoFloats) {
  // 1, below a warp, odd, not a multiple of the SoA group (4), of a warp's vectors (128) or of the block.
  for (std::int64_t n : {1, 2, 3, 5, 31, 33, 127, 129, 255, 257, 1001, 4099})
    expect_all_passed(verify_variants({{"n", n}}));
}

TEST(AosSoaGpu, EveryFloatRecordWidthAndEveryField) {
  for (std::int64_t fields = 1; fields <= 8; ++fields)
    for (std::int64_t n : {1, 37, 3001}) {
      expect_all_passed(verify_variants({{"n", n}, {"fields", fields}, {"field", fields - 1}}));
      if (fields > 2)
        expect_all_passed(
            verify_variants({{"n", n}, {"fields", fields}, {"field", std::int64_t(1)}}, {"aos_one", "soa_one"}));
    }
}

TEST(AosSoaGpu, MixedRecordEveryField) {
  for (std::int64_t field : {0, 1, 2})
    for (std::int64_t n : {1, 3, 129, 5003})
      expect_all_passed(
          verify_variants({{"n", n}, {"record", std::string("mixed")}, {"fields", std::int64_t(3)}, {"field", field}}));
}

TEST(AosSoaGpu, BlockSizesThatAreNotPowersOfTwo) {
  for (std::int64_t block : {32, 96, 480, 1024})
    for (std::int64_t fields : {2, 3, 8})
      expect_all_passed(verify_variants({{"n", std::int64_t(10007)}, {"fields", fields}, {"block", block}}));
  expect_all_passed(verify_variants({{"n", std::int64_t(10007)},
                                     {"record", std::string("mixed")},
                                     {"fields", std::int64_t(3)},
                                     {"block", std::int64_t(1024)}}));
}

TEST(AosSoaGpu, ManyBlocksAtAFewMillion) {
  expect_all_passed(verify_variants({{"n", std::int64_t(3000017)}, {"fields", std::int64_t(3)}}));
  expect_all_passed(
      verify_variants({{"n", std::int64_t(2000003)}, {"record", std::string("mixed")}, {"fields", std::int64_t(3)}}));
}

TEST(AosSoaGpu, DefaultSize) { expect_all_passed(verify_variants({})); }

// A sweep over field and block keeps the point: retuned, every variant still verifies (a point that
// kept its old field would update, and expect, the wrong one; one that kept its block, a wrong grid).
TEST(AosSoaGpu, RetunedPointsVerifyLikeFreshOnes) {
  const std::int64_t n = 10007;
  EXPECT_EQ(lab().failures_retuned(
                {{"n", n}, {"fields", std::int64_t(3)}, {"field", std::int64_t(0)}},
                {{"n", n}, {"fields", std::int64_t(3)}, {"field", std::int64_t(2)}, {"block", std::int64_t(96)}}),
            "");
  const std::map<std::string, cudalab::param_value> mixed = {
      {"n", n}, {"record", std::string("mixed")}, {"fields", std::int64_t(3)}};
  auto with = [&](std::int64_t field, std::int64_t block) {
    auto p = mixed;
    p["field"] = field;
    p["block"] = block;
    return p;
  };
  EXPECT_EQ(lab().failures_retuned(with(2, 1024), with(1, 32)), "");
  EXPECT_EQ(lab().failures_retuned(with(1, 32), with(0, 512)), "");
}

}  // namespace
