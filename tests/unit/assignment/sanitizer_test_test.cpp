// An assignment's sanitizer test (sanitizer_test.hpp): compute-sanitizer's command line for each tool (memcheck
// pads every allocation, so a read one element past an input's end is caught even where the next allocation
// starts right behind it: issue 31); without compute-sanitizer an error that says what is missing and where it
// was looked for, never a silent 0; its child under the test's limits, and killed when grade is.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "assignment/sanitizer_test.hpp"
#include "exit_codes.hpp"

namespace cudalab::host {
namespace {

// The value after `option` in `argv`, or "" when it is not there.
std::string value_of(const std::vector<std::string>& argv, const std::string& option) {
  const auto it = std::find(argv.begin(), argv.end(), option);
  return it == argv.end() || it + 1 == argv.end() ? "" : *(it + 1);
}

TEST(SanitizerOptions, MemcheckPadsEveryAllocation) {
  const std::vector<std::string> argv = sanitizer_options("memcheck");
  EXPECT_EQ(value_of(argv, "--tool"), "memcheck");
  EXPECT_EQ(value_of(argv, "--padding"), std::to_string(sanitizer_padding_bytes));
  EXPECT_GE(sanitizer_padding_bytes, 16u) << "a float4 read one vector past the end must land in the padding";
  EXPECT_EQ(value_of(argv, "--error-exitcode"), std::to_string(exit_cuda_error));
}

TEST(SanitizerOptions, OtherToolsAsBefore) {
  const std::vector<std::string> race = sanitizer_options("racecheck");
  EXPECT_EQ(value_of(race, "--tool"), "racecheck");
  EXPECT_EQ(value_of(race, "--racecheck-report"), "hazard");
  EXPECT_EQ(value_of(race, "--padding"), "");
  EXPECT_EQ(value_of(sanitizer_options("initcheck"), "--padding"), "");
}

namespace fs = std::filesystem;

// An environment variable set (or unset) while it lives, as it was after.
class environment_as {
 public:
  environment_as(const char* name, const std::optional<std::string>& value) : name_(name) {
    if (const char* was = std::getenv(name)) was_ = was;
    if (value)
      ::setenv(name, value->c_str(), 1);
    else
      ::unsetenv(name);
  }
  ~environment_as() {
    if (was_)
      ::setenv(name_, was_->c_str(), 1);
    else
      ::unsetenv(name_);
  }
  environment_as(const environment_as&) = delete;
  environment_as& operator=(const environment_as&) = delete;

 private:
  const char* name_;
  std::optional<std::string> was_;
};

// A new, empty folder of this test's own.
fs::path new_folder(const std::string& name) {
  fs::path folder = fs::temp_directory_path() / ("cudalab_sanitizer_test_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

std::string text_of(const fs::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

assignment_test memcheck_test() {
  assignment_test t;
  t.name = "memcheck";
  t.kind = test_kind::sanitizer;
  t.tool = "memcheck";
  t.points = 5;
  return t;
}

// Without compute-sanitizer on the grader every student silently lost the sanitizer points: "skipped", no
// word (review 2026-11-26-redteam F20). Now the test is an error whose message names what is missing and
// every folder it was looked for in.
TEST(SanitizerTest, redteam26_f20_without_compute_sanitizer_the_test_is_an_error_saying_where_it_looked) {
  if (fs::exists("/usr/local/cuda/bin/compute-sanitizer"))
    GTEST_SKIP() << "this machine's toolkit has compute-sanitizer in /usr/local/cuda/bin, which is always looked in";
  const fs::path empty = new_folder("empty");
  const environment_as path("PATH", empty.string());
  const environment_as home("CUDA_HOME", std::nullopt);
  const assignment_test t = memcheck_test();
  test_outcome o;
  o.test = &t;
  run_sanitizer_test(o, sanitizer_run{});
  EXPECT_EQ(o.status, grade_status::error);
  EXPECT_EQ(o.score, 0);
  EXPECT_NE(o.message.find("compute-sanitizer (CUDA toolkit) was not found"), std::string::npos) << o.message;
  EXPECT_NE(o.message.find(empty.string()), std::string::npos) << o.message;
  EXPECT_NE(o.message.find("/usr/local/cuda/bin"), std::string::npos) << o.message;
  ASSERT_TRUE(sanitizer_missing());
  EXPECT_EQ(*sanitizer_missing(), o.message.substr(std::string("not run: ").size()));
  fs::remove_all(empty);
}

// The sanitizer's child ran with none of the assignment's [limits] and outlived a killed grade, its
// student's code running on unwatched (F25). A compute-sanitizer that records its limits and then waits:
// they are the test's, and it dies with the process that runs the test, even by SIGKILL.
TEST(SanitizerTest, redteam26_f25_its_child_has_the_tests_limits_and_dies_with_grade) {
  const fs::path tools = new_folder("tools");
  {
    std::ofstream script(tools / "compute-sanitizer");
    script << "#!/bin/sh\ndir=$(dirname \"$0\")\n"
              "cat /proc/self/limits > \"$dir/limits.tmp\" && mv \"$dir/limits.tmp\" \"$dir/limits\"\n"
              "echo $$ > \"$dir/pid.tmp\" && mv \"$dir/pid.tmp\" \"$dir/pid\"\nexec sleep 60\n";
  }
  fs::permissions(tools / "compute-sanitizer", fs::perms::owner_all);
  const char* was = std::getenv("PATH");
  const environment_as path("PATH", tools.string() + ":" + (was ? was : "/usr/bin:/bin"));
  const pid_t grader = ::fork();
  ASSERT_GE(grader, 0);
  if (grader == 0) {  // the grade that runs the test
    const assignment_test t = memcheck_test();
    test_outcome o;
    o.test = &t;
    sanitizer_run s;
    s.program = "/bin/true";
    s.lab_file = tools / "test.toml";
    s.slot = "slot";
    s.built = (tools / "built.so").string();
    s.out = tools / "out";
    s.timeout_s = 120;
    child_limits limits;
    limits.max_processes = 4321;
    limits.max_file_bytes = std::uint64_t(1) << 30;
    limits.cpu_seconds = 321;
    s.limits = limits;
    run_sanitizer_test(o, s);
    ::_exit(0);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!fs::exists(tools / "pid") && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_TRUE(fs::exists(tools / "pid")) << "the sanitizer never started";
  const std::string limits = text_of(tools / "limits");
  EXPECT_NE(limits.find("Max processes             4321                 4321"), std::string::npos) << limits;
  EXPECT_NE(limits.find("Max file size             1073741824           1073741824"), std::string::npos) << limits;
  EXPECT_NE(limits.find("Max cpu time              321 "), std::string::npos) << limits;  // SIGKILL a second on
  EXPECT_NE(limits.find("Max core file size        0                    0"), std::string::npos) << limits;
  const pid_t sanitizer = std::stoi(text_of(tools / "pid"));
  ::kill(grader, SIGKILL);
  ::waitpid(grader, nullptr, 0);
  // Gone, or a zombie waiting for whoever adopted it.
  const auto running = [&] {
    const std::string stat = text_of("/proc/" + std::to_string(sanitizer) + "/stat");
    return !stat.empty() && stat.find(") Z ") == std::string::npos;
  };
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (running() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(running()) << "the sanitizer outlived the grade that ran it";
  if (running()) ::kill(sanitizer, SIGKILL);
  fs::remove_all(tools);
}

}  // namespace
}  // namespace cudalab::host
