// The @LAB@ lab on the CPU: the plugin loads with every check cudalab makes, and the access model sees
// what the kernels do.
#include <gtest/gtest.h>

#include <cstdint>

#include "cudalab/testing.hpp"

namespace {

const cudalab::testing::lab_under_test& lab() {
  static const cudalab::testing::lab_under_test loaded("@LAB@");  // found on CUDALAB_PLUGIN_PATH, which CTest sets
  return loaded;
}

/// A million floats: every count below is exact at it.
const std::uint64_t n = std::uint64_t(1) << 20;

cudalab::params point() { return lab().with({{"n", std::int64_t(n)}}); }

TEST(LabModel, EveryFloatIsReadAndWrittenOnce) {
  const cudalab::traffic t = lab().traffic_of("scale_vec4", point());
  EXPECT_EQ(t.bytes_read, n * sizeof(float));
  EXPECT_EQ(t.bytes_written, n * sizeof(float));
}

TEST(LabModel, OneFloatPerLaneFillsFourSectors) {
  // A warp's 32 floats are 128 bytes: 4 sectors per request, one load per warp of 32 floats.
  const cudalab::access_stats scalar = lab().predict("scale", point());
  EXPECT_EQ(scalar.global_load.sectors_per_request(), 4.0);
  EXPECT_EQ(scalar.global_load.requests, n / 32);
}

TEST(LabModel, VectorsFillSixteenSectors) {
  // A warp's 32 float4 are 512 bytes: 16 sectors per request, one store per lane's vector.
  const cudalab::access_stats vec4 = lab().predict("scale_vec4", point());
  EXPECT_EQ(vec4.global_load.sectors_per_request(), 16.0);
  EXPECT_EQ(vec4.global_store.requests, n / 128);
}

}  // namespace
