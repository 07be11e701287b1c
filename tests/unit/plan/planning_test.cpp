// Planning several lab files: every problem reported together, a missing plugin, an unknown variant filter,
// and sizes that do not fit refused before anything is allocated.
#include <gtest/gtest.h>

#include "device/memory_check.hpp"
#include "plan/planning.hpp"
#include "test_plugins.hpp"

namespace cudalab::host {
namespace {

const std::string cli_dir = std::string(CUDALAB_SOURCE_DIR) + "/tests/fixtures/cli/";

TEST(Planning, PlansEveryFileAndReportsAllProblemsTogether) {
  const auto path = cudalab::host::testing::test_plugin_path();
  const auto ok = plan_lab_files({{cli_dir + "testlab.toml"}, path, nullptr, {}, {}});
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0].plan.point_count(), 2u);
  try {
    plan_lab_files(
        {{cli_dir + "bad_key.toml", cli_dir + "testlab.toml", cli_dir + "bad_key.toml"}, path, nullptr, {}, {}});
    FAIL() << "expected lab_file_error";
  } catch (const lab_file_error& e) {
    EXPECT_EQ(e.problems().size(), 2u);
  }
}

TEST(Planning, MissingPluginIsAPluginError) {
  EXPECT_THROW(
      plan_lab_files({{cli_dir + "missing_plugin.toml"}, cudalab::host::testing::test_plugin_path(), nullptr, {}, {}}),
      plugin_error);
}

TEST(Planning, UnknownVariantFilterIsReported) {
  try {
    plan_lab_files({{cli_dir + "testlab.toml"}, cudalab::host::testing::test_plugin_path(), nullptr, {}, {"cpy"}});
    FAIL();
  } catch (const lab_file_error& e) {
    ASSERT_EQ(e.problems().size(), 1u);
    EXPECT_NE(e.problems()[0].message.find("did you mean 'copy'"), std::string::npos) << e.what();
  }
}

TEST(Planning, SizesThatDoNotFitAreRefusedWithTheNumbers) {
  const auto plans =
      plan_lab_files({{cli_dir + "testlab.toml"}, cudalab::host::testing::test_plugin_path(), nullptr, {"n=4Gi"}, {}});
  // 4Gi floats: 32 GiB on the device (two buffers), 48 GiB on the host.
  const auto problems = check_memory(plans, std::uint64_t(16) << 30, std::uint64_t(64) << 30);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].message.find("32.00"), std::string::npos) << problems[0].message;
  EXPECT_NE(problems[0].message.find("device memory"), std::string::npos) << problems[0].message;
  EXPECT_EQ(check_memory(plans, std::uint64_t(80) << 30, std::uint64_t(64) << 30).size(), 0u);
  EXPECT_EQ(check_memory(plans, std::uint64_t(80) << 30, std::uint64_t(40) << 30).size(), 1u);
}

TEST(Planning, HostMemoryIsKnownOnLinux) { EXPECT_GT(host_memory_available(), 0u); }

}  // namespace
}  // namespace cudalab::host
