// The transpose lab's access model against what Nsight Compute counted on an H100 at shapes that are
// not multiples of the 32x32 tile (tests/fixtures/profile/ncu_transpose_shapes.csv): every kernel's
// requests equal, and the verdict of `run --profile` on each is "matches".
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>

#include "cudalab/testing.hpp"
#include "labfile/text_file.hpp"
#include "ncu/ncu_counters.hpp"
#include "ncu/ncu_csv.hpp"
#include "results/counter_verdict.hpp"

namespace cudalab::host {
namespace {

namespace fs = std::filesystem;

TEST(TransposeCounters, EveryKernelOfTheH100SampleMatchesTheModel) {
  const auto kernels = parse_ncu_csv(read_text(
      fs::path(CUDALAB_SOURCE_DIR) / "tests" / "fixtures" / "profile" / "ncu_transpose_shapes.csv", "ncu raw page"));
  const counted_kernels counted = count_by_result(kernels);
  // The sample's points of `--set sweep.rows=[1,33,1000,4097] --set sweep.cols=[3,65,1025]`, by index.
  const std::map<std::uint64_t, std::pair<std::int64_t, std::int64_t>> points = {
      {2, {1, 1025}}, {3, {33, 3}}, {4, {33, 65}}, {6, {1000, 3}}, {10, {4097, 65}}};
  const cudalab::testing::lab_under_test lab("transpose");
  ASSERT_EQ(counted.by_result.size(), 45u);  // 9 variants at 5 points, one kernel each
  for (const auto& [key, measured] : counted.by_result) {
    const auto [rows, cols] = points.at(key.point);
    SCOPED_TRACE(key.variant + " at " + std::to_string(rows) + "x" + std::to_string(cols));
    variant_result r;
    r.has_model = true;
    r.model = lab.predict(key.variant, lab.with({{"rows", rows}, {"cols", cols}}));
    r.has_measured = true;
    r.measured = measured;
    EXPECT_EQ(judge_counters(r).text(), "matches");
    EXPECT_EQ(r.model.global_load.requests, measured.global_load.requests);
    EXPECT_EQ(r.model.global_store.requests, measured.global_store.requests);
    EXPECT_EQ(r.model.global_load.sectors, measured.global_load.sectors);
    EXPECT_EQ(r.model.global_store.sectors, measured.global_store.sectors);
    EXPECT_EQ(r.model.shared_load.requests, measured.shared_load.requests);
    EXPECT_EQ(r.model.shared_store.requests, measured.shared_store.requests);
    EXPECT_EQ(r.model.shared_load.wavefronts, measured.shared_load.address_wavefronts);
    EXPECT_EQ(r.model.shared_load.conflicts(), measured.shared_load.address_conflicts());
  }
}

}  // namespace
}  // namespace cudalab::host
