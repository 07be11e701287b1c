// Tests of the @LAB@ lab. `model` (no GPU): the plugin loads with every check cudalab makes, and the
// access model sees what the kernels do. `gpu`: every variant verifies at sizes that find bugs.
#include <cstdio>

#include "cudalab/testing.hpp"

namespace {

using cudalab::testing::checks;
using cudalab::testing::lab_under_test;

const lab_under_test& lab() {
  static const lab_under_test loaded("@LAB@");  // found on CUDALAB_PLUGIN_PATH, which CTest sets
  return loaded;
}

void model(checks& c) {
  const auto p = lab().with({{"n", std::int64_t(1) << 20}});
  // One float per lane: a warp's 128 bytes fill 4 sectors. 16-byte vectors: 512 bytes, 16 sectors.
  const auto scalar = lab().predict("scale", p);
  c.expect(scalar.global_load.sectors_per_request() == 4.0, "scale loads 4 sectors per request");
  c.expect(scalar.global_load.requests == (1u << 20) / 32, "scale issues one load per warp of 32 floats");
  const auto vec4 = lab().predict("scale_vec4", p);
  c.expect(vec4.global_load.sectors_per_request() == 16.0, "scale_vec4 loads 16 sectors per request");
  c.expect(vec4.global_store.requests == (1u << 20) / 128, "scale_vec4 stores one vector per lane");
}

void gpu(checks& c) {
  // Sizes around a warp, a vector and a block, and a prime over a million; every unroll.
  for (std::int64_t n : cudalab::testing::awkward_sizes(1, std::int64_t(1) << 24))
    for (std::int64_t unroll : {1, 2, 4}) c.expect_passed(lab().verify(lab().with({{"n", n}, {"unroll", unroll}})));
  // A sweep over the tuning parameters keeps the point: retuned, it must verify like a fresh one.
  const std::int64_t n = 1000003;
  c.expect_passed(lab().verify_retuned(
      lab().with({{"n", n}}),
      lab().with({{"n", n}, {"factor", -0.75}, {"block", std::int64_t(96)}, {"unroll", std::int64_t(4)}})));
}

}  // namespace

int main(int argc, char** argv) { return cudalab::testing::lab_test_main(argc, argv, model, gpu); }
