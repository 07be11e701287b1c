// The mapped_pinned plugin on the CPU: a sane spec, refused parameters, and the access model's predictions.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

#include "model/access_model.hpp"
#include "lab_checks.hpp"
#include "plugin/spec_lookup.hpp"

namespace cudalab::testing {
namespace {

const host::loaded_plugin& plugin() { return load_test_plugin("mapped_pinned"); }

params with(const std::map<std::string, param_value>& overrides) { return params_with("mapped_pinned", overrides); }

host::access_stats predict(const std::string& variant, const params& p) {
  return predict_access("mapped_pinned", variant, p);
}

const char* const kernel_variants[] = {"pageable", "pinned",     "streams",       "mapped_u1",
                                       "mapped_u2", "mapped_u4", "registered", "mapped_strided"};

TEST(MappedPinnedSpec, VariantsAreUniqueAndBaselineExists) {
  const lab_spec& s = plugin().spec;
  EXPECT_EQ(s.name, "mapped_pinned");
  std::set<std::string> names;
  for (const auto& v : s.variants) {
    EXPECT_TRUE(names.insert(v.name).second) << "duplicate variant " << v.name;
    EXPECT_FALSE(v.summary.empty()) << v.name;
  }
  EXPECT_EQ(names.size(), 8u);
  for (const char* v : kernel_variants) EXPECT_EQ(names.count(v), 1u) << v;
  EXPECT_EQ(names.count(s.baseline), 1u) << s.baseline;
}

TEST(MappedPinnedSpec, DefaultsAreWithinRangesAndAccepted) {
  for (const param_spec& ps : plugin().spec.params) {
    ASSERT_EQ(ps.type, param_type::integer) << ps.name;
    const auto v = double(std::get<std::int64_t>(ps.default_value));
    EXPECT_GE(v, *ps.min) << ps.name;
    EXPECT_LE(v, *ps.max) << ps.name;
    EXPECT_FALSE(ps.doc.empty()) << ps.name;
  }
  const params p = with({});
  EXPECT_EQ(p.integer("n"), std::int64_t(32) << 20);  // the seed's 32M ints
  EXPECT_NO_THROW(plugin().instance->check_params(p));
}

TEST(MappedPinnedSpec, CheckParamsRejectsBadCombinations) {
  const lab& l = *plugin().instance;
  EXPECT_THROW(l.check_params(with({{"unroll", std::int64_t(3)}})), std::invalid_argument);
  EXPECT_THROW(l.check_params(with({{"block", std::int64_t(100)}})), std::invalid_argument);
  EXPECT_THROW(l.check_params(with({{"streams", std::int64_t(8)}, {"chunks", std::int64_t(4)}})),
               std::invalid_argument);
  EXPECT_NO_THROW(l.check_params(with({{"unroll", std::int64_t(2)}, {"block", std::int64_t(128)}})));
}

TEST(MappedPinnedSpec, TooMuchHostMemoryIsRefusedWithTheNumbers) {
  // 2^33 ints need 9 x 32 GiB of host memory: more than half of any machine this runs on.
  try {
    plugin().instance->check_params(with({{"n", std::int64_t(1) << 33}}));
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("GiB"), std::string::npos) << msg;
    EXPECT_NE(msg.find("available"), std::string::npos) << msg;
    EXPECT_NE(msg.find("n <= "), std::string::npos) << msg;
  }
}

TEST(MappedPinnedSpec, RequireCountsPinnedAndPageableHostBytes) {
  const auto r = plugin().instance->require(with({{"n", std::int64_t(1000)}}));
  EXPECT_EQ(r.device_bytes, 2u * 4000u);
  EXPECT_EQ(r.host_pinned_bytes, 6u * 4000u);
  EXPECT_EQ(r.host_bytes, 3u * 4000u);
}

TEST(MappedPinnedTrace, MappedVariantsAreCoalescedFourSectorsPerRequest) {
  const params p = with({});
  for (const char* v : {"mapped_u1", "mapped_u2", "mapped_u4", "registered", "pinned", "streams"}) {
    const auto s = predict(v, p);
    EXPECT_DOUBLE_EQ(s.global_load.sectors_per_request(), 4.0) << v;
    EXPECT_DOUBLE_EQ(s.global_store.sectors_per_request(), 4.0) << v;
    EXPECT_DOUBLE_EQ(s.global_load.efficiency(), 1.0) << v;
    EXPECT_DOUBLE_EQ(s.global_store.efficiency(), 1.0) << v;
    EXPECT_EQ(s.shared_load.requests + s.shared_store.requests, 0u) << v;
  }
}

TEST(MappedPinnedTrace, StridedMappedTouchesThirtyTwoSectorsPerRequest) {
  const auto s = predict("mapped_strided", with({}));
  EXPECT_DOUBLE_EQ(s.global_load.sectors_per_request(), 32.0);
  EXPECT_DOUBLE_EQ(s.global_store.sectors_per_request(), 32.0);
  EXPECT_DOUBLE_EQ(s.global_load.efficiency(), 0.125);
  EXPECT_DOUBLE_EQ(s.global_store.efficiency(), 0.125);
}

TEST(MappedPinnedTrace, UnrollingKeepsRequestsPerElement) {
  // Unrolling issues the same warp-wide requests, only more of them per thread before the adds.
  const params p = with({});
  const std::uint64_t n = std::uint64_t(p.integer("n"));
  for (const char* v : {"mapped_u1", "mapped_u2", "mapped_u4"}) {
    const auto s = predict(v, p);
    EXPECT_EQ(s.global_load.requests, n / 32) << v;
    EXPECT_EQ(s.global_store.requests, n / 32) << v;
  }
}

TEST(MappedPinnedTrace, EveryElementIsReadAndWrittenOnceAtAwkwardSizes) {
  // Small sizes are traced completely: the requested bytes are exactly 4 per element, so the tails
  // (n not a multiple of the unroll factor, the block, the chunk or the stride) are covered.
  for (std::int64_t n : {1, 31, 33, 1001, 4099, 10007}) {
    const params p = with({{"n", n}, {"chunks", std::int64_t(7)}, {"streams", std::int64_t(3)},
                           {"stride", std::int64_t(5)}, {"block", std::int64_t(64)}});
    for (const char* v : kernel_variants) {
      const auto s = predict(v, p);
      EXPECT_EQ(s.traced_warps, 0u) << v << " n=" << n << ": expected a complete trace";
      EXPECT_EQ(s.global_load.requested_bytes, std::uint64_t(n) * 4) << v << " n=" << n;
      EXPECT_EQ(s.global_store.requested_bytes, std::uint64_t(n) * 4) << v << " n=" << n;
    }
  }
}

TEST(MappedPinnedTrace, LargeSizesAreSampledAndScaled) {
  const auto s = predict("mapped_u4", with({}));
  EXPECT_GT(s.traced_warps, 0u);
  EXPECT_GT(s.total_warps, s.traced_warps);
  EXPECT_EQ(s.global_load.requested_bytes, (std::uint64_t(32) << 20) * 4);
}

}  // namespace
}  // namespace cudalab::testing
