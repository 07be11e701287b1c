// The mapped_pinned plugin on the CPU: refused parameters, host memory, and the access model's predictions.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "cudalab/testing.hpp"

namespace {

using cudalab::params;

const cudalab::testing::lab_under_test& lab() {
  static const cudalab::testing::lab_under_test l("mapped_pinned");
  return l;
}

const char* const kernel_variants[] = {"pageable",  "pinned",    "streams",    "mapped_u1",
                                       "mapped_u2", "mapped_u4", "registered", "mapped_strided"};

/// The message with which lab().with() refuses n = 2^33 ints (8 x 32 GiB of host memory, more than
/// half of any machine this runs on); "" when it does not.
std::string refusal_of_eight_giga_ints() {
  try {
    lab().with({{"n", std::int64_t(1) << 33}});
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(MappedPinnedSpec, DefaultIsThirtyTwoMillionInts) {
  const params p = lab().with({});
  EXPECT_EQ(p.integer("n"), std::int64_t(32) << 20);  // the course chapter's 32M ints
}

TEST(MappedPinnedSpec, BadCombinationsAreRefused) {
  EXPECT_THROW(lab().with({{"unroll", std::int64_t(3)}}), std::invalid_argument);
  EXPECT_THROW(lab().with({{"block", std::int64_t(100)}}), std::invalid_argument);
  EXPECT_THROW(lab().with({{"streams", std::int64_t(8)}, {"chunks", std::int64_t(4)}}), std::invalid_argument);
  EXPECT_NO_THROW(lab().with({{"unroll", std::int64_t(2)}, {"block", std::int64_t(128)}}));
}

TEST(MappedPinnedSpec, TooMuchHostMemoryIsRefusedWithTheNumbers) {
  const std::string msg = refusal_of_eight_giga_ints();
  ASSERT_NE(msg, "") << "expected std::invalid_argument";
  EXPECT_NE(msg.find("GiB"), std::string::npos) << msg;
  EXPECT_NE(msg.find("available"), std::string::npos) << msg;
  EXPECT_NE(msg.find("n <= "), std::string::npos) << msg;
}

TEST(MappedPinnedSpec, RequirementsCountPinnedAndPageableHostBytes) {
  // The refusal gives requirements_of's host figures: 6 x 4n page-locked and 2 x 4n pageable bytes
  // (no CPU reference: inputs are made and outputs checked on the GPU).
  const std::string msg = refusal_of_eight_giga_ints();
  EXPECT_NE(msg.find("needs 256 GiB of host memory (192 GiB page-locked + 64 GiB pageable)"), std::string::npos) << msg;
}

TEST(MappedPinnedSpec, OnlyNShapesThePoint) {
  // Every other parameter changes how the variants run or what they add, not the inputs or the
  // buffers: a sweep over them (the cycles sweep) keeps the point and retunes it.
  for (const cudalab::param_spec& p : lab().spec().params) EXPECT_EQ(p.tuning, p.name != "n") << p.name;
}

TEST(MappedPinnedTrace, MappedVariantsAreCoalescedFourSectorsPerRequest) {
  const params p = lab().with({});
  for (const char* v : {"mapped_u1", "mapped_u2", "mapped_u4", "registered", "pinned", "streams"}) {
    const auto s = lab().predict(v, p);
    EXPECT_DOUBLE_EQ(s.global_load.sectors_per_request(), 4.0) << v;
    EXPECT_DOUBLE_EQ(s.global_store.sectors_per_request(), 4.0) << v;
    EXPECT_DOUBLE_EQ(s.global_load.efficiency(), 1.0) << v;
    EXPECT_DOUBLE_EQ(s.global_store.efficiency(), 1.0) << v;
    EXPECT_EQ(s.shared_load.requests + s.shared_store.requests, 0u) << v;
  }
}

TEST(MappedPinnedTrace, StridedMappedTouchesThirtyTwoSectorsPerRequest) {
  const auto s = lab().predict("mapped_strided", lab().with({}));
  EXPECT_DOUBLE_EQ(s.global_load.sectors_per_request(), 32.0);
  EXPECT_DOUBLE_EQ(s.global_store.sectors_per_request(), 32.0);
  EXPECT_DOUBLE_EQ(s.global_load.efficiency(), 0.125);
  EXPECT_DOUBLE_EQ(s.global_store.efficiency(), 0.125);
}

TEST(MappedPinnedTrace, UnrollingKeepsRequestsPerElement) {
  // Unrolling issues the same warp-wide requests, only more of them per thread before the adds.
  const params p = lab().with({});
  const std::uint64_t n = std::uint64_t(p.integer("n"));
  for (const char* v : {"mapped_u1", "mapped_u2", "mapped_u4"}) {
    const auto s = lab().predict(v, p);
    EXPECT_EQ(s.global_load.requests, n / 32) << v;
    EXPECT_EQ(s.global_store.requests, n / 32) << v;
  }
}

TEST(MappedPinnedTrace, EveryElementIsReadAndWrittenOnceAtAwkwardSizes) {
  // Small sizes are traced completely: the requested bytes are exactly 4 per element, so the tails
  // (n not a multiple of the unroll factor, the block, the chunk or the stride) are covered.
  for (std::int64_t n : {1, 31, 33, 1001, 4099, 10007}) {
    const params p = lab().with({{"n", n},
                                 {"chunks", std::int64_t(7)},
                                 {"streams", std::int64_t(3)},
                                 {"stride", std::int64_t(5)},
                                 {"block", std::int64_t(64)}});
    for (const char* v : kernel_variants) {
      const auto s = lab().predict(v, p);
      EXPECT_EQ(s.traced_warps, 0u) << v << " n=" << n << ": expected a complete trace";
      EXPECT_EQ(s.global_load.requested_bytes, std::uint64_t(n) * 4) << v << " n=" << n;
      EXPECT_EQ(s.global_store.requested_bytes, std::uint64_t(n) * 4) << v << " n=" << n;
    }
  }
}

TEST(MappedPinnedTrace, LargeSizesAreSampledWithExactTotals) {
  // Large launches are traced as a weighted sample of their warp steps (trace_warp_steps), so the
  // totals stay exact: no scaling by traced / total warps is needed.
  const auto s = lab().predict("mapped_u4", lab().with({}));
  EXPECT_EQ(s.traced_warps, 0u);
  EXPECT_EQ(s.global_load.requested_bytes, (std::uint64_t(32) << 20) * 4);
}

TEST(MappedPinnedTrace, LargeAwkwardSizesAreCountedExactly) {
  // n a prime, so the last block and the last chunk are partial: still one request per 32 elements
  // (rounded up) and 4 bytes per element, in every coalesced variant.
  const std::uint64_t n = 1500007;
  const params p = lab().with({{"n", std::int64_t(n)}, {"block", std::int64_t(128)}});
  for (const char* v : {"pageable", "pinned", "streams", "mapped_u1", "mapped_u2", "mapped_u4", "registered"}) {
    const auto s = lab().predict(v, p);
    EXPECT_EQ(s.global_load.requests, (n + 31) / 32) << v;
    EXPECT_EQ(s.global_store.requests, (n + 31) / 32) << v;
    EXPECT_EQ(s.global_load.requested_bytes, n * 4) << v;
    EXPECT_EQ(s.global_store.requested_bytes, n * 4) << v;
  }
}

}  // namespace
