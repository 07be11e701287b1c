// Isolated runs without a GPU: /bin/sh children stand in for cudalab's, sending result lines on fd 3
// and then crashing, hanging or exiting after a sticky CUDA error; every expected result must be
// accounted for - as received, as the fault, or as skipped - and the baseline handed on.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <string>
#include <vector>

#include "isolation/isolated_run.hpp"
#include "planning.hpp"
#include "results/json.hpp"
#include "test_plugins.hpp"

namespace cudalab::host {
namespace {

class collecting_reporter final : public reporter {
 public:
  void begin(const run_context&) override {}
  void add(const variant_result& r) override { results.push_back(r); }
  void end() override {}
  std::vector<variant_result> results;
};

// tests/fixtures/cli/testlab.toml: 2 points (n = 1000, 1Mi) x 3 variants (memcpy first: the baseline).
std::vector<planned_lab> testlab_plans() {
  plan_request req;
  req.files = {std::string(CUDALAB_SOURCE_DIR) + "/tests/fixtures/cli/testlab.toml"};
  req.search_path = cudalab::host::testing::test_plugin_path();
  return plan_lab_files(req);
}

// A shell command printing the result of `variant` at `point` as the child would.
std::string send(const planned_lab& pl, std::uint64_t point, const std::string& variant, result_status status,
                 double gbps = 0, const std::string& error = "") {
  variant_result r;
  r.lab_file = pl.file_arg;
  r.plugin = "testlab";
  r.point_index = point;
  r.point = pl.plan.point_labels(point);
  r.variant = variant;
  r.is_baseline = variant == "memcpy";
  r.status = status;
  r.error = error;
  r.gbps = gbps;
  return "echo '" + result_json(r) + "' >&3; ";
}

TEST(IsolatedRun, UnitsOfAFileAndOfVariants) {
  const auto plans = testlab_plans();
  const auto files = isolation_units(plans, isolation_mode::file, {});
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].expected.size(), 6u);
  EXPECT_EQ(files[0].expected[0], (std::pair<std::uint64_t, std::string>{0, "memcpy"}));
  const auto variants = isolation_units(plans, isolation_mode::variant, {"copy"});
  ASSERT_EQ(variants.size(), 4u);  // the baseline is kept
  EXPECT_TRUE(variants[1].one_variant);
  EXPECT_EQ(variants[1].point, 0u);
  EXPECT_EQ(variants[1].variant, "copy");
  EXPECT_EQ(parse_isolation_mode("variant"), isolation_mode::variant);
  EXPECT_FALSE(parse_isolation_mode("process"));
}

TEST(IsolatedRun, ACrashIsTheRunningVariantsErrorAndTheRestIsSkipped) {
  const auto plans = testlab_plans();
  const planned_lab& pl = plans[0];
  collecting_reporter out;
  isolated_run_options io;
  io.command = [&](const isolation_unit&, double) {
    return std::vector<std::string>{"/bin/sh", "-c",
                                    send(pl, 0, "memcpy", result_status::ok, 100) +
                                        send(pl, 0, "copy", result_status::ok, 90) +
                                        "echo 'last words' >&2; kill -SEGV $$"};
  };
  const run_summary s = run_isolated(isolation_units(plans, isolation_mode::file, {}), out, io);
  ASSERT_EQ(out.results.size(), 6u);
  EXPECT_EQ(s.results, 6u);
  EXPECT_EQ(out.results[0].status, result_status::ok);
  EXPECT_EQ(out.results[1].status, result_status::ok);
  const variant_result& fault = out.results[2];
  EXPECT_EQ(fault.variant, "scale");
  EXPECT_EQ(fault.point_index, 0u);
  EXPECT_EQ(fault.status, result_status::error);
  EXPECT_NE(fault.error.find("was killed by signal SIGSEGV (Segmentation fault)"), std::string::npos) << fault.error;
  EXPECT_NE(fault.error.find("last words"), std::string::npos) << fault.error;
  EXPECT_EQ(fault.variant_summary, "copy with a long dependent chain of multiplies per element");
  for (int i = 3; i < 6; ++i) {
    EXPECT_EQ(out.results[i].status, result_status::skipped);
    EXPECT_NE(out.results[i].error.find("not run"), std::string::npos);
  }
  EXPECT_EQ(out.results[5].point, (std::vector<std::pair<std::string, std::string>>{{"n", "1048576"}}));
  EXPECT_EQ(s.errors, 1u);
  EXPECT_EQ(s.cuda_errors, 0u);
  EXPECT_FALSE(s.interrupted);
}

TEST(IsolatedRun, VariantChildrenTimeOutAndGetTheBaseline) {
  const auto plans = testlab_plans();
  const planned_lab& pl = plans[0];
  collecting_reporter out;
  std::map<std::string, double> handed;  // "point/variant" -> baseline GB/s given to the child
  isolated_run_options io;
  io.timeout_s = 0.5;
  io.command = [&](const isolation_unit& u, double baseline_gbps) {
    handed[std::to_string(u.point) + "/" + u.variant] = baseline_gbps;
    if (u.point == 1 && u.variant == "scale")
      return std::vector<std::string>{"/bin/sh", "-c", "echo spinning >&2; exec /bin/sleep 30"};
    return std::vector<std::string>{"/bin/sh", "-c",
                                    send(pl, u.point, u.variant, result_status::ok, u.point == 0 ? 100 : 200)};
  };
  const run_summary s = run_isolated(isolation_units(plans, isolation_mode::variant, {}), out, io);
  ASSERT_EQ(out.results.size(), 6u);
  EXPECT_EQ(handed["0/memcpy"], 0.0);
  EXPECT_EQ(handed["0/copy"], 100.0);
  EXPECT_EQ(handed["1/scale"], 200.0);
  const variant_result& hung = out.results[5];
  EXPECT_EQ(hung.variant, "scale");
  EXPECT_EQ(hung.status, result_status::error);
  EXPECT_NE(hung.error.find("running this variant timed out after 0.5 s"), std::string::npos) << hung.error;
  EXPECT_NE(hung.error.find("spinning"), std::string::npos) << hung.error;
  EXPECT_EQ(s.errors, 1u);
}

TEST(IsolatedRun, AStickyCudaErrorSkipsWhatTheChildCouldNotRun) {
  const auto plans = testlab_plans();
  const planned_lab& pl = plans[0];
  collecting_reporter out;
  isolated_run_options io;
  io.command = [&](const isolation_unit&, double) {
    return std::vector<std::string>{
        "/bin/sh", "-c",
        send(pl, 0, "memcpy", result_status::ok, 100) +
            send(pl, 0, "copy", result_status::error, 0, "kernel failed: cudaErrorIllegalAddress") + "exit 7"};
  };
  const run_summary s = run_isolated(isolation_units(plans, isolation_mode::file, {}), out, io);
  ASSERT_EQ(out.results.size(), 6u);
  EXPECT_EQ(out.results[1].error, "kernel failed: cudaErrorIllegalAddress");
  for (int i = 2; i < 6; ++i) {
    EXPECT_EQ(out.results[i].status, result_status::skipped);
    EXPECT_NE(out.results[i].error.find("CUDA error that leaves the GPU unusable"), std::string::npos);
  }
  EXPECT_EQ(s.cuda_errors, 1u);
  EXPECT_EQ(s.errors, 1u);
}

TEST(IsolatedRun, StopRunsNothingMore) {
  const auto plans = testlab_plans();
  collecting_reporter out;
  std::atomic<bool> stop{true};
  isolated_run_options io;
  io.stop = &stop;
  io.command = [](const isolation_unit&, double) { return std::vector<std::string>{"/bin/sleep", "30"}; };
  const run_summary s = run_isolated(isolation_units(plans, isolation_mode::variant, {}), out, io);
  EXPECT_TRUE(s.interrupted);
  EXPECT_TRUE(out.results.empty());
}

// Red-team review F21: a child that sends results of another unit (a lab file changed under it) or
// the same result twice: only what its unit expects, once each, is taken; the rest is the fault.
TEST(IsolatedRun, RedteamF21OnlyTheUnitsOwnResultsAreTaken) {
  const auto plans = testlab_plans();
  const planned_lab& pl = plans[0];
  collecting_reporter out;
  isolated_run_options io;
  io.command = [&](const isolation_unit& u, double) {
    // point 0/memcpy twice, and point 7 (no such point) instead of its own variant
    if (u.point == 0 && u.variant == "memcpy")
      return std::vector<std::string>{
          "/bin/sh", "-c",
          send(pl, 0, "memcpy", result_status::ok, 100) + send(pl, 0, "memcpy", result_status::ok, 100)};
    if (u.point == 0 && u.variant == "copy")
      return std::vector<std::string>{"/bin/sh", "-c", send(pl, 7, "copy", result_status::ok, 90)};
    return std::vector<std::string>{"/bin/sh", "-c", send(pl, u.point, u.variant, result_status::ok, 80)};
  };
  const run_summary s = run_isolated(isolation_units(plans, isolation_mode::variant, {}), out, io);
  ASSERT_EQ(out.results.size(), 6u);
  EXPECT_EQ(out.results[0].variant, "memcpy");
  EXPECT_EQ(out.results[1].variant, "copy");
  EXPECT_EQ(out.results[1].point_index, 0u);
  EXPECT_EQ(out.results[1].status, result_status::error);
  EXPECT_NE(out.results[1].error.find("exited with code 0 before reporting it"), std::string::npos)
      << out.results[1].error;
  EXPECT_EQ(s.errors, 1u);
}

}  // namespace
}  // namespace cudalab::host
