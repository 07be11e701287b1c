// Isolated runs without a GPU: /bin/sh children stand in for cudalab's, sending result lines on fd 3
// and then crashing, hanging or exiting after a sticky CUDA error; every expected result must be
// accounted for - as received, as the fault, or as skipped - and the baseline handed on.
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "isolation/child_protocol.hpp"
#include "isolation/gpu_workers.hpp"
#include "isolation/isolated_run.hpp"
#include "isolation/job_scheduler.hpp"
#include "plan/planning.hpp"
#include "results/json.hpp"
#include "test_plugins.hpp"

namespace cudalab::host {
namespace {

class collecting_reporter final : public reporter {
 public:
  void begin(const run_context&) override {}
  void add(const variant_result& r) override { results.push_back(r); }
  void end(const run_context&) override {}
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
  io.command = [&](const isolation_unit&, double, std::size_t) {
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
  io.command = [&](const isolation_unit& u, double baseline_gbps, std::size_t) {
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
  EXPECT_EQ(hung.failure, result_failure::timed_out);  // as data: grading reads this, not the words
  EXPECT_EQ(s.errors, 1u);
}

TEST(IsolatedRun, AStickyCudaErrorSkipsWhatTheChildCouldNotRun) {
  const auto plans = testlab_plans();
  const planned_lab& pl = plans[0];
  collecting_reporter out;
  isolated_run_options io;
  io.command = [&](const isolation_unit&, double, std::size_t) {
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
    EXPECT_EQ(out.results[i].failure, result_failure::not_run);
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
  io.command = [](const isolation_unit&, double, std::size_t) { return std::vector<std::string>{"/bin/sleep", "30"}; };
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
  io.command = [&](const isolation_unit& u, double, std::size_t) {
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
  EXPECT_EQ(out.results[1].failure, result_failure::crashed);
  EXPECT_EQ(s.errors, 1u);
}

// Plans of lab files, by paths under the source tree.
std::vector<planned_lab> plans_of(const std::vector<std::string>& files) {
  plan_request req;
  for (const std::string& f : files) req.files.push_back(std::string(CUDALAB_SOURCE_DIR) + "/" + f);
  req.search_path = cudalab::host::testing::test_plugin_path();
  return plan_lab_files(req);
}

// --devices: a job is a lab file, or in variant mode one point's variants (its baseline among them, so
// that every variant is compared with a baseline timed on its own GPU); a lab file moving bytes over
// the host bus is marked, so that it runs alone.
TEST(IsolatedRun, JobsAreLabFilesOrPointsAndHostBusLabsAreMarked) {
  const auto plans = plans_of({"tests/fixtures/cli/testlab.toml", "labs/mapped_pinned.toml"});
  const auto files = isolation_units(plans, isolation_mode::file, {});
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].job, 0u);
  EXPECT_EQ(files[1].job, 1u);
  EXPECT_FALSE(files[0].host_bus);
  EXPECT_TRUE(files[1].host_bus);
  const auto variants = isolation_units({plans[0]}, isolation_mode::variant, {});
  ASSERT_EQ(variants.size(), 6u);  // 2 points x 3 variants
  for (std::size_t u = 0; u < 6; ++u) EXPECT_EQ(variants[u].job, u / 3) << u;
  EXPECT_EQ(variants[3].variant, "memcpy");  // each point's job starts with its baseline
}

// A child that sends one result per expected (point, variant) of its unit, with `extra` shell run first.
std::vector<std::string> child_sending_all(const isolation_unit& u, const std::string& extra) {
  std::string script = extra;
  for (const auto& [point, variant] : u.expected) script += send(*u.lab, point, variant, result_status::ok, 100);
  return {"/bin/sh", "-c", script};
}

// Two workers run two jobs at the same time: each child waits for the other's mark, which only works
// when both run at once (a lone worker would time out); the results still reach the reporters in the
// order of the lab files, each marked with its worker's GPU, and every child sees its worker's
// environment.
TEST(IsolatedRun, TwoWorkersRunTwoJobsAtOnceAndReportInPlanOrder) {
  const auto plans = plans_of({"tests/fixtures/cli/testlab.toml", "tests/fixtures/cli/verify_fails.toml"});
  const std::string dir = ::testing::TempDir() + "/cudalab_workers_" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  collecting_reporter out;
  std::vector<std::string> arrived;
  isolated_run_options io;
  io.timeout_s = 20;
  io.workers = {isolation_worker{4, {{"CUDALAB_TEST_WORKER", "four"}}},
                isolation_worker{6, {{"CUDALAB_TEST_WORKER", "six"}}}};
  io.command = [&](const isolation_unit& u, double, std::size_t worker) {
    const std::string me = dir + "/" + std::to_string(u.job), other = dir + "/" + std::to_string(1 - u.job);
    const std::string expected_env = worker == 0 ? "four" : "six";
    auto wait_for = [](const std::string& file) {
      return "i=0; while [ ! -e " + file + " ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; [ -e " + file +
             " ] || exit 3; ";
    };
    const std::string start =
        "touch " + me + "; " + wait_for(other) + "[ \"$CUDALAB_TEST_WORKER\" = " + expected_env + " ] || exit 4; ";
    // The first lab file's child sends its results after the second's (which marks that it sent them).
    if (u.job == 1) {
      auto argv = child_sending_all(u, start);
      argv.back() += "touch " + dir + "/sent";
      return argv;
    }
    return child_sending_all(u, start + wait_for(dir + "/sent") + "sleep 0.2; ");
  };
  const run_summary s = run_isolated(isolation_units(plans, isolation_mode::file, {}), out, io,
                                     [&](const variant_result& r) { arrived.push_back(r.lab_file); });
  std::filesystem::remove_all(dir);
  ASSERT_EQ(out.results.size(), 9u);  // 6 of testlab.toml, then 3 of verify_fails.toml
  for (std::size_t i = 0; i < 9; ++i) {
    EXPECT_EQ(out.results[i].status, result_status::ok) << i << ": " << out.results[i].error;
    EXPECT_EQ(out.results[i].lab_file, plans[i < 6 ? 0 : 1].file_arg) << i;
  }
  std::set<int> devices;
  for (const auto& r : out.results) devices.insert(r.device);
  EXPECT_EQ(devices, (std::set<int>{4, 6}));  // each lab file on a worker of its own
  EXPECT_EQ(out.results[0].device == 4, out.results[8].device == 6);
  ASSERT_EQ(arrived.size(), 9u);
  EXPECT_EQ(arrived.front(), plans[1].file_arg);  // the second lab file's results arrived first
  EXPECT_EQ(s.errors, 0u);
}

// A job marked host_bus never runs beside another; the others run side by side around it.
TEST(JobScheduler, AnExclusiveJobRunsAlone) {
  const std::vector<bool> exclusive{false, false, true, false, false, true, false};
  std::atomic<int> running{0}, most{0};
  std::atomic<bool> overlap{false};
  std::vector<int> worker_of(exclusive.size(), -1);
  run_jobs(
      exclusive, {}, 3,
      [&](std::size_t job, std::size_t worker, const std::atomic<bool>&) {
        const int now = ++running;
        most = std::max(most.load(), now);
        worker_of[job] = int(worker);
        for (int i = 0; i < 20; ++i) {
          if (exclusive[job] && running.load() != 1) overlap = true;
          std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        --running;
      },
      nullptr);
  EXPECT_FALSE(overlap);
  for (std::size_t j = 0; j < exclusive.size(); ++j) EXPECT_GE(worker_of[j], 0) << "job " << j << " never ran";
}

// Jobs are handed out in the order given: one worker starts them exactly in that order.
TEST(JobScheduler, JobsStartInTheOrderGiven) {
  std::vector<std::size_t> started;
  run_jobs(
      std::vector<bool>(4, false), {2, 0, 3, 1}, 1,
      [&](std::size_t job, std::size_t, const std::atomic<bool>&) { started.push_back(job); }, nullptr);
  EXPECT_EQ(started, (std::vector<std::size_t>{2, 0, 3, 1}));
}

// Over several workers the host-bus lab file starts first and then the longest planned; results
// still reach the reporters in the order of the command line. Each child notes when it started.
TEST(IsolatedRun, SeveralWorkersStartAloneJobsThenTheLongestFirst) {
  const auto plans =
      plans_of({"tests/fixtures/cli/testlab.toml", "tests/fixtures/cli/verify_fails.toml", "labs/mapped_pinned.toml"});
  const auto units = isolation_units(plans, isolation_mode::file, {});
  ASSERT_EQ(units.size(), 3u);
  EXPECT_GT(units[0].planned_s, units[1].planned_s);  // 6 timed results against 3 untimed
  collecting_reporter out;
  std::vector<std::string> started;
  std::mutex started_lock;
  isolated_run_options io;
  io.workers = {isolation_worker{0, {}}, isolation_worker{1, {}}};
  io.command = [&](const isolation_unit& u, double, std::size_t) {
    {
      std::lock_guard guard(started_lock);
      started.push_back(u.lab->file_arg);
    }
    return child_sending_all(u, "sleep 0.2; ");
  };
  run_isolated(units, out, io);
  ASSERT_EQ(started.size(), 3u);
  EXPECT_EQ(started[0], plans[2].file_arg);  // the host-bus lab file, alone
  EXPECT_EQ(started[1], plans[0].file_arg);  // then the longest
  ASSERT_EQ(out.results.size(), 6u + 3u + 8u);
  EXPECT_EQ(out.results.front().lab_file, plans[0].file_arg);
  EXPECT_EQ(out.results.back().lab_file, plans[2].file_arg);
}

// A job that throws halts the job running beside it and stops the rest from starting; the exception
// reaches the caller.
TEST(JobScheduler, AFailureHaltsTheRestAndIsRethrown) {
  std::atomic<int> ran{0};
  std::atomic<bool> saw_halt{false};
  EXPECT_THROW(run_jobs(
                   std::vector<bool>(50, false), {}, 2,
                   [&](std::size_t job, std::size_t, const std::atomic<bool>& halt) {
                     ran++;
                     if (job == 1) throw std::runtime_error("job 1 failed");
                     for (int i = 0; i < 5000 && !halt.load(); ++i)
                       std::this_thread::sleep_for(std::chrono::milliseconds(1));
                     saw_halt = saw_halt || halt.load();
                   },
                   nullptr),
               std::runtime_error);
  EXPECT_TRUE(saw_halt);
  EXPECT_EQ(ran.load(), 2);
}

// Two lab files planned from texts: a.toml sweeps n (data) over 5 values x block (tuning) over 2, 10
// points of 3 variants at 20 ms each (0.6 s); b.toml is one point of 3 variants at 0.42 s each (1.26 s).
// Over two workers the limit is 1.86 s / 8 = 0.23 s, so a.toml is cut into 3 parts, where n changes.
std::vector<planned_lab> sweep_plans() {
  plan_request req;
  req.files = {"a.toml", "b.toml"};
  req.texts = {
      "[lab]\nplugin = \"testlab\"\n[sweep]\nn = [1000, 2000, 3000, 4000, 5000]\nblock = [128, 256]\n"
      "[measure]\nrepetitions = 3\nmin_time_ms = 5\nwarmup_ms = 5\n",
      "[lab]\nplugin = \"testlab\"\n[params]\nn = 1000\n"
      "[measure]\nrepetitions = 10\nmin_time_ms = 40\nwarmup_ms = 20\n"};
  req.search_path = cudalab::host::testing::test_plugin_path();
  return plan_lab_files(req);
}

// Over several workers a long lab file becomes several jobs of contiguous points, each point with all
// its variants (the baseline among them), cut where the data changes; with one worker, or in variant
// mode, nothing changes.
TEST(IsolatedRun, OverSeveralWorkersALongLabFileIsCutIntoParts) {
  const auto plans = sweep_plans();
  const auto one = isolation_units(plans, isolation_mode::file, {}, 1);
  ASSERT_EQ(one.size(), 2u);
  EXPECT_EQ(one[0].expected.size(), 30u);
  EXPECT_FALSE(is_part_of_file(one[0]));
  EXPECT_EQ(one[0].last_point, 9u);

  const auto two = isolation_units(plans, isolation_mode::file, {}, 2);
  ASSERT_EQ(two.size(), 4u);  // a.toml in 3 parts, b.toml whole
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> points{{0, 3}, {4, 5}, {6, 9}, {0, 0}};
  for (std::size_t u = 0; u < two.size(); ++u) {
    EXPECT_EQ(two[u].job, u);
    EXPECT_EQ(std::make_pair(two[u].point, two[u].last_point), points[u]) << u;
    EXPECT_EQ(two[u].lab, &plans[u < 3 ? 0 : 1]);
    EXPECT_EQ(two[u].expected.size(), 3 * (points[u].second - points[u].first + 1)) << u;
    EXPECT_EQ(two[u].expected.front(), (std::pair<std::uint64_t, std::string>{points[u].first, "memcpy"})) << u;
    EXPECT_EQ(two[u].expected.back().first, points[u].second) << u;
  }
  EXPECT_TRUE(is_part_of_file(two[1]));
  EXPECT_FALSE(is_part_of_file(two[3]));
  EXPECT_NEAR(two[0].planned_s, 12 * 0.02, 1e-9);
  // The parts together expect what the whole file did, in the same order.
  std::vector<std::pair<std::uint64_t, std::string>> joined;
  for (std::size_t u = 0; u < 3; ++u) joined.insert(joined.end(), two[u].expected.begin(), two[u].expected.end());
  EXPECT_EQ(joined, one[0].expected);

  const auto variants = isolation_units(plans, isolation_mode::variant, {}, 2);
  const auto variants_one = isolation_units(plans, isolation_mode::variant, {}, 1);
  ASSERT_EQ(variants.size(), 33u);
  for (std::size_t u = 0; u < variants.size(); ++u) {
    EXPECT_EQ(variants[u].job, variants_one[u].job);
    EXPECT_EQ(variants[u].point, variants_one[u].point);
    EXPECT_EQ(variants[u].last_point, variants[u].point);
    EXPECT_EQ(variants[u].variant, variants_one[u].variant);
  }
}

// A lab file whose traffic crosses the host bus: its parts are marked, each runs alone.
TEST(IsolatedRun, HostBusPartsAreMarked) {
  const auto plans = plans_of({"labs/mapped_pinned_cycles.toml"});
  const auto units = isolation_units(plans, isolation_mode::file, {}, 2);
  ASSERT_GT(units.size(), 1u);
  for (const isolation_unit& u : units) EXPECT_TRUE(u.host_bus);
}

// The parts of a lab file on two workers: every result once, in plan order, each from the child of its
// own part; a part's child that crashes costs only that part's points; the schedule has each job.
TEST(IsolatedRun, PartsRunOnTwoWorkersAndACrashCostsOnlyItsPart) {
  const auto plans = sweep_plans();
  const auto units = isolation_units(plans, isolation_mode::file, {}, 2);
  ASSERT_EQ(units.size(), 4u);
  collecting_reporter out;
  run_schedule schedule;
  schedule.probe_s = 1.5;
  isolated_run_options io;
  io.workers = {isolation_worker{3, {}}, isolation_worker{5, {}}};
  io.schedule = &schedule;
  io.command = [&](const isolation_unit& u, double, std::size_t) {
    if (u.point == 4)  // the second part: its first result, then a crash
      return std::vector<std::string>{"/bin/sh", "-c",
                                      send(*u.lab, 4, "memcpy", result_status::ok, 100) + "kill -SEGV $$"};
    return child_sending_all(u, "");
  };
  const run_summary s = run_isolated(units, out, io);
  ASSERT_EQ(out.results.size(), 33u);
  const auto whole = isolation_units(plans, isolation_mode::file, {}, 1);
  std::size_t i = 0;
  for (const isolation_unit& u : whole)
    for (const auto& [point, variant] : u.expected) {
      EXPECT_EQ(out.results[i].lab_file, u.lab->file_arg) << i;
      EXPECT_EQ(out.results[i].point_index, point) << i;
      EXPECT_EQ(out.results[i].variant, variant) << i;
      const bool lost = out.results[i].lab_file == "a.toml" && (point == 4 || point == 5) && i != 12;
      EXPECT_EQ(out.results[i].status, !lost     ? result_status::ok
                                       : i == 13 ? result_status::error
                                                 : result_status::skipped)
          << i;
      i++;
    }
  EXPECT_NE(out.results[13].error.find("running this part of the lab file (points 4 to 5) was killed by signal"),
            std::string::npos)
      << out.results[13].error;
  EXPECT_EQ(s.errors, 1u);

  EXPECT_EQ(schedule.probe_s, 1.5);  // left as it was
  ASSERT_EQ(schedule.jobs.size(), 4u);
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> points{{0, 3}, {4, 5}, {6, 9}, {0, 0}};
  for (std::size_t j = 0; j < 4; ++j) {
    const scheduled_job& job = schedule.jobs[j];
    EXPECT_EQ(job.lab_file, j < 3 ? "a.toml" : "b.toml");
    EXPECT_EQ(std::make_pair(job.first_point, job.last_point), points[j]) << j;
    EXPECT_TRUE(job.device == 3 || job.device == 5) << job.device;
    EXPECT_FALSE(job.alone);
    EXPECT_GE(job.start_s, 0);
    EXPECT_GE(job.duration_s, 0);
    EXPECT_LE(job.start_s + job.duration_s, schedule.end_s);
  }
}

// --devices values: CUDA_VISIBLE_DEVICES of this process maps each ordinal; one it does not list is refused.
TEST(GpuWorkers, EachChildSeesOnlyItsGpu) {
  EXPECT_EQ(only_device(1, nullptr), "1");
  EXPECT_EQ(only_device(1, "3,2"), "2");
  EXPECT_EQ(only_device(0, "GPU-5d8e,MIG-1"), "GPU-5d8e");
  EXPECT_EQ(only_device(2, "3,2"), std::nullopt);
  EXPECT_EQ(only_device(1, "3,,2"), std::nullopt);
  const auto workers = gpu_workers({1, 0, 1}, "7,5");
  ASSERT_EQ(workers.size(), 3u);
  EXPECT_EQ(workers[0].device, 1);
  EXPECT_EQ(workers[0].environment, (std::vector<std::pair<std::string, std::string>>{{"CUDA_VISIBLE_DEVICES", "5"}}));
  EXPECT_EQ(workers[1].environment.at(0).second, "7");
  EXPECT_THROW(gpu_workers({0, 2}, "7,5"), std::invalid_argument);
  EXPECT_EQ(distinct_devices({1, 0, 1}), (std::vector<int>{1, 0}));
}

}  // namespace
}  // namespace cudalab::host
