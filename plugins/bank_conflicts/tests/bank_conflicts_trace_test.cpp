// The bank-conflict micro-lab on the CPU: its variants, and the predicted conflict degree for every stride.
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "cudalab/testing.hpp"

namespace {

const cudalab::testing::lab_under_test& lab() {
  static const cudalab::testing::lab_under_test l("bank_conflicts");
  return l;
}

TEST(BankConflictsSpec, OneVariantPerWidthAndWholeWarps) {
  std::vector<std::string> names;
  for (const cudalab::variant_spec& v : lab().spec().variants) names.push_back(v.name);
  EXPECT_EQ(names, (std::vector<std::string>{"read_4b", "read_8b", "read_16b"}));
  EXPECT_EQ(lab().spec().baseline, "read_4b");
  EXPECT_NO_THROW(lab().with());
  EXPECT_THROW(lab().with({{"threads", std::int64_t(100)}}), std::invalid_argument);
}

// Wavefronts per warp-wide read: 4-byte words, one phase of 32 lanes, gcd(stride, 32) words per bank;
// 8-byte reads, 2 phases of 16 lanes each taking 2 banks, gcd(stride, 16) per phase; 16-byte reads,
// 4 phases of 8 lanes each taking 4 banks, gcd(stride, 8) per phase.
unsigned expected_wavefronts(unsigned width, unsigned stride) {
  const unsigned phases = width / 4;
  return phases * std::gcd(stride, 32u / phases);
}

TEST(BankConflictsTrace, StrideSweepFollowsGcd) {
  for (const auto& [variant, width] : {std::pair{"read_4b", 4u}, {"read_8b", 8u}, {"read_16b", 16u}}) {
    for (unsigned stride = 1; stride <= 64; ++stride) {
      SCOPED_TRACE(std::string(variant) + " stride " + std::to_string(stride));
      const auto p = lab().with({{"stride", std::int64_t(stride)}, {"iterations", std::int64_t(64)}});
      const auto s = lab().predict(variant, p);
      const unsigned phases = width / 4;
      EXPECT_DOUBLE_EQ(s.shared_load.wavefronts_per_request(), expected_wavefronts(width, stride));
      EXPECT_DOUBLE_EQ(s.shared_load.conflicts_per_request(), expected_wavefronts(width, stride) - phases);
      EXPECT_EQ(s.shared_store.conflicts(), 0u);  // the fill writes consecutive words
    }
  }
}

TEST(BankConflictsTrace, TextbookPoints) {
  auto conflicts = [](const char* v, std::int64_t stride) {
    const auto p = lab().with({{"stride", stride}, {"iterations", std::int64_t(8)}});
    return lab().predict(v, p).shared_load.conflicts_per_request();
  };
  EXPECT_DOUBLE_EQ(conflicts("read_4b", 1), 0.0);
  EXPECT_DOUBLE_EQ(conflicts("read_4b", 2), 1.0);
  EXPECT_DOUBLE_EQ(conflicts("read_4b", 31), 0.0);
  EXPECT_DOUBLE_EQ(conflicts("read_4b", 32), 31.0);  // a column of a float tile[32][32]
  EXPECT_DOUBLE_EQ(conflicts("read_4b", 33), 0.0);   // a column of a padded tile[32][33]
  EXPECT_DOUBLE_EQ(conflicts("read_8b", 1), 0.0);
  EXPECT_DOUBLE_EQ(conflicts("read_16b", 1), 0.0);
  EXPECT_DOUBLE_EQ(conflicts("read_16b", 8), 28.0);  // 4 phases, each 8-way
}

TEST(BankConflictsTrace, RequestsScaleToTheGrid) {
  const auto s = lab().predict(
      "read_4b",
      lab().with({{"iterations", std::int64_t(100)}, {"blocks", std::int64_t(10)}, {"threads", std::int64_t(64)}}));
  EXPECT_EQ(s.shared_load.requests, 10u * 2u * 100u);
  EXPECT_EQ(s.global_store.requests, 10u * 2u);
  EXPECT_DOUBLE_EQ(s.global_store.sectors_per_request(), 4.0);
}

}  // namespace
