// The reduction lab on the GPU: every variant and type sums exactly (int) or within its stated bound (float) at awkward sizes.
#include <gtest/gtest.h>

#include <string>

#include "device/gpu_probe.hpp"
#include "runner/host_session.hpp"
#include "lab_checks.hpp"
#include "plugin/spec_lookup.hpp"
#include "runner/verified_run.hpp"

namespace cudalab::testing {
namespace {

std::map<std::string, param_value> point(std::int64_t n, const char* type, std::int64_t block = 256) {
  return {{"n", n}, {"type", std::string(type)}, {"block", block}};
}

TEST(ReductionGpu, EveryVariantAndTypeAtTheIssueSizes) {
  for (const char* type : {"float", "int"})
    for (std::int64_t n : {std::int64_t(1), std::int64_t(31), std::int64_t(1000), std::int64_t((1 << 20) + 7),
                           std::int64_t(1) << 24})
      expect_all_passed(verify_variants("reduction", point(n, type)));
}

TEST(ReductionGpu, AwkwardSizesAroundBlocksVectorsAndWaves) {
  // Around one block, one float4, the single-block limit of the grid-stride kernels (32 * block),
  // a multi-pass tree of three launches, and sizes that are no multiple of anything.
  for (std::int64_t n : {2, 3, 4, 5, 63, 64, 65, 255, 256, 257, 511, 513, 8191, 8192, 8193, 65537, 1000003})
    for (const char* type : {"int", "float"}) expect_all_passed(verify_variants("reduction", point(n, type)));
}

TEST(ReductionGpu, EveryBlockSize) {
  for (std::int64_t block : {64, 128, 512, 1024})
    for (std::int64_t n : {1, 33, 4099, 300007}) {
      expect_all_passed(verify_variants("reduction", point(n, "int", block)));
      expect_all_passed(verify_variants("reduction", point(n, "float", block)));
    }
}

TEST(ReductionGpu, ManyBlocksAndManyPasses) {
  // 2^26 + 5 ints at block 64: the tree kernels need four launches.
  expect_all_passed(verify_variants("reduction", point((std::int64_t(1) << 26) + 5, "int", 64)));
}

TEST(ReductionGpu, SinglePassKernelCanBeRunAgain) {
  // The last block resets the arrival counter, so back-to-back launches stay correct.
  const auto& plugin = load_test_plugin("reduction");
  params p = host::default_params(plugin.spec);
  for (const auto& [k, v] : point((1 << 22) + 3, "int")) p.set(k, v);
  const device_info device = host::read_device_info(0);
  host::host_session session(device, 777);
  plugin.instance->setup(p, session);
  const variant_spec& v = host::find_variant(plugin.spec, "vector_single_pass");
  for (int i = 0; i < 5; ++i) plugin.instance->run(v, session.stream());
  for (int i = 0; i < 3; ++i) {
    const check c = host::run_and_verify(*plugin.instance, v, session);
    EXPECT_TRUE(c.passed) << c.tolerance << (c.first_mismatches.empty() ? "" : " " + c.first_mismatches[0]);
  }
  plugin.instance->teardown();
}

}  // namespace
}  // namespace cudalab::testing
