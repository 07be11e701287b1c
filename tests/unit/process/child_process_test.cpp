// The watchdog's child processes, with /bin/sh standing in for cudalab: result lines on fd 3, output
// lines kept, exit codes, deaths by signal, timeouts that kill the whole process group, stop, the
// resource limits a child and everything it starts run under, and the bubblewrap sandbox (where bwrap
// can make one: those tests skip elsewhere).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "process/child_process.hpp"

namespace cudalab::host {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

child_request shell(const std::string& script, std::vector<std::string>* results = nullptr,
                    std::vector<std::string>* output = nullptr) {
  child_request r;
  r.argv = {"/bin/sh", "-c", script};
  if (results)
    r.on_result_line = [results](const std::string& l) {
      results->push_back(l);
      return true;
    };
  if (output) r.on_output_line = [output](const std::string& l) { output->push_back(l); };
  return r;
}

// A descriptor handed over whose number is also the result descriptor's reaches the child as itself: the
// descriptors are moved into place so that none is overwritten before it is read (the sandbox's folder,
// opened as 3 in a process with nothing else open, once became the result pipe at 4).
TEST(ChildProcess, APassedDescriptorNumberedLikeATargetArrivesWhole) {
  const std::string path = std::string(CUDALAB_BINARY_DIR) + "/tests/passed_descriptor.txt";
  std::ofstream(path) << "passed\n";
  const int saved = ::fcntl(3, F_DUPFD_CLOEXEC, 20);  // whatever this process has as 3, if anything
  const int file = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(file, 0);
  if (file != 3) {
    ASSERT_EQ(::dup3(file, 3, O_CLOEXEC), 3);
    ::close(file);
  }
  std::vector<std::string> results;
  child_request r = shell("cat <&4 >&3", &results);
  r.pass_fds = {3};
  const child_outcome how = run_child(r);
  if (saved >= 0) {
    ::dup3(saved, 3, O_CLOEXEC);
    ::close(saved);
  } else {
    ::close(3);
  }
  ASSERT_TRUE(how.ended_normally()) << how.describe();
  EXPECT_EQ(results, (std::vector<std::string>{"passed"}));
}

TEST(ChildProcess, ResultLinesOutputAndExitCode) {
  std::vector<std::string> results, output;
  const child_outcome how = run_child(
      shell("echo '{\"a\":1}' >&3; echo first; echo second >&2; printf 'no newline' >&3; exit 6", &results, &output));
  ASSERT_TRUE(how.ended_normally());
  EXPECT_EQ(how.exit_code, 6);
  EXPECT_EQ(how.signal, 0);
  EXPECT_EQ(results, (std::vector<std::string>{"{\"a\":1}", "no newline"}));
  EXPECT_EQ(output, (std::vector<std::string>{"first", "second"}));
  EXPECT_EQ(how.last_output, output);
  EXPECT_EQ(how.describe(), "exited with code 6");
}

TEST(ChildProcess, KeepsOnlyTheLastLines) {
  child_request r = shell("for i in 1 2 3 4 5 6 7; do echo line $i >&2; done");
  r.keep_lines = 2;
  const child_outcome how = run_child(r);
  EXPECT_EQ(how.last_output, (std::vector<std::string>{"line 6", "line 7"}));
}

TEST(ChildProcess, DeathBySignalIsNamed) {
  const child_outcome how = run_child(shell("echo about to crash >&2; kill -SEGV $$"));
  EXPECT_FALSE(how.ended_normally());
  EXPECT_EQ(how.describe(), "was killed by signal SIGSEGV (Segmentation fault)");
  EXPECT_EQ(how.last_output, std::vector<std::string>{"about to crash"});
}

TEST(ChildProcess, WatchdogKillsTheWholeGroup) {
  // The grandchild sleep holds the pipes open: only killing the group ends this quickly.
  child_request r = shell("echo started >&2; /bin/sleep 30 & /bin/sleep 30");
  r.timeout_s = 0.5;
  const auto t0 = std::chrono::steady_clock::now();
  const child_outcome how = run_child(r);
  EXPECT_LT(seconds_since(t0), 10.0);
  EXPECT_TRUE(how.timed_out);
  EXPECT_FALSE(how.ended_normally());
  EXPECT_EQ(how.describe(), "timed out after 0.5 s without a result (killed by the watchdog)");
  EXPECT_EQ(how.last_output, std::vector<std::string>{"started"});
}

TEST(ChildProcess, EachResultRestartsTheWatchdog) {
  // 1.5 s in all, but never 0.6 s without a result: not a hang.
  std::vector<std::string> results;
  child_request r = shell("for i in 1 2 3 4 5; do /bin/sleep 0.3; echo $i >&3; done", &results);
  r.timeout_s = 0.6;
  const child_outcome how = run_child(r);
  EXPECT_FALSE(how.timed_out);
  EXPECT_TRUE(how.ended_normally());
  EXPECT_EQ(results.size(), 5u);
}

TEST(ChildProcess, NoWatchdogForAQuickChild) {
  child_request r;
  r.argv = {"/bin/sleep", "0.1"};
  r.timeout_s = 20;
  const child_outcome how = run_child(r);
  EXPECT_TRUE(how.ended_normally());
  EXPECT_EQ(how.exit_code, 0);
}

TEST(ChildProcess, StopKillsIt) {
  std::atomic<bool> stop{false};
  child_request r;
  r.argv = {"/bin/sleep", "30"};
  r.stop = &stop;
  std::thread ctrl_c([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    stop.store(true);
  });
  const auto t0 = std::chrono::steady_clock::now();
  const child_outcome how = run_child(r);
  ctrl_c.join();
  EXPECT_LT(seconds_since(t0), 10.0);
  EXPECT_TRUE(how.stopped);
  EXPECT_EQ(how.describe(), "was interrupted");
}

TEST(ChildProcess, MissingProgram) {
  child_request r;
  r.argv = {"/no/such/program"};
  const child_outcome how = run_child(r);
  // posix_spawn reports a failed exec either at once or as exit code 127, depending on the C library.
  EXPECT_TRUE(!how.started || (how.exited && how.exit_code == 127)) << how.describe();
}

TEST(ChildProcess, ProgramIsNotArgv0) {
  std::vector<std::string> output;
  child_request r;
  r.program = "/bin/sh";
  r.argv = {"a name for messages", "-c", "echo \"$0\""};
  r.on_output_line = [&](const std::string& l) { output.push_back(l); };
  const child_outcome how = run_child(r);
  ASSERT_TRUE(how.ended_normally());
  EXPECT_EQ(output, std::vector<std::string>{"a name for messages"});
}

// Red-team review F11: the GPU probe sends an empty result line after each step, so that --timeout
// bounds each step of it; for a child that asks so (empty_lines_are_progress: the probe, which loads no
// submission), such a line restarts the watchdog and is no result.
TEST(ChildProcess, RedteamF11EmptyResultLinesAreSignsOfLife) {
  std::vector<std::string> results;
  child_request r = shell("for i in 1 2 3 4 5; do /bin/sleep 0.3; echo >&3; done; echo done >&3", &results);
  r.timeout_s = 0.6;
  r.empty_lines_are_progress = true;
  const child_outcome how = run_child(r);
  EXPECT_FALSE(how.timed_out);
  EXPECT_TRUE(how.ended_normally());
  EXPECT_EQ(results, std::vector<std::string>{"done"});
}

// Issue 31, the kept-alive watchdog: a submission wrote empty lines to the results descriptor to run far
// past its unit's limit. For a child that may run a submission, empty lines are no progress: the limit
// holds from the last result, whatever else the child writes.
TEST(ChildProcess, EmptyResultLinesDoNotKeepTheWatchdogAway) {
  std::vector<std::string> results;
  child_request r = shell("echo first >&3; while :; do /bin/sleep 0.1; echo >&3; done", &results);
  r.timeout_s = 0.6;
  const auto t0 = std::chrono::steady_clock::now();
  const child_outcome how = run_child(r);
  EXPECT_LT(seconds_since(t0), 5.0);
  EXPECT_TRUE(how.timed_out);
  EXPECT_EQ(results, std::vector<std::string>{"first"});
}

// ... nor are result lines the caller refuses (a result it was not owed, one it had already, a line
// that is no result): only what on_result_line calls progress restarts the clock.
TEST(ChildProcess, RefusedResultLinesAreNoProgress) {
  int refused = 0;
  child_request r = shell("while :; do /bin/sleep 0.1; echo forged >&3; done");
  r.on_result_line = [&](const std::string& line) {
    if (line == "forged") ++refused;
    return false;
  };
  r.timeout_s = 0.6;
  const auto t0 = std::chrono::steady_clock::now();
  const child_outcome how = run_child(r);
  EXPECT_LT(seconds_since(t0), 5.0);
  EXPECT_TRUE(how.timed_out);
  EXPECT_GT(refused, 2);
}

// Red-team review F14: a child that writes megabytes without a newline must not make the parent keep
// (or pass on) a line of that size; each line is cut, and the cut says so.
TEST(ChildProcess, RedteamF14ALineWithoutEndIsCut) {
  std::vector<std::string> output;
  child_request r = shell("head -c 3000000 /dev/zero | tr '\\0' x; echo; echo after", nullptr, &output);
  const child_outcome how = run_child(r);
  ASSERT_TRUE(how.ended_normally());
  ASSERT_EQ(output.size(), 2u);
  EXPECT_LT(output[0].size(), 5000u);
  EXPECT_EQ(output[0].substr(0, 10), "xxxxxxxxxx");
  EXPECT_NE(output[0].find("cut"), std::string::npos) << output[0].substr(4090, 100);
  EXPECT_EQ(output[1], "after");
  std::size_t kept = 0;
  for (const std::string& line : how.last_output) kept += line.size();
  EXPECT_LT(kept, 10000u);
}

// Red-team review F24: a descriptor the parent opened without close-on-exec is not the child's.
TEST(ChildProcess, RedteamF24ParentDescriptorsStayInTheParent) {
  // Deliberately without O_CLOEXEC, and above the numbers the child's own descriptors take (3 is the
  // result descriptor there, whatever it was here).
  const int opened = ::open("/dev/null", O_RDONLY);
  ASSERT_GE(opened, 0);
  const int fd = ::fcntl(opened, F_DUPFD, 20);
  ::close(opened);
  ASSERT_GE(fd, 20);
  std::vector<std::string> output;
  const child_outcome how = run_child(shell(
      "if [ -e /proc/$$/fd/" + std::to_string(fd) + " ]; then echo leaked; else echo closed; fi", nullptr, &output));
  ::close(fd);
  ASSERT_TRUE(how.ended_normally());
  EXPECT_EQ(output, std::vector<std::string>{"closed"});
}

// Red-team review F07: when the parent's side throws (a callback), the child must not outlive it.
TEST(ChildProcess, RedteamF07AChildDoesNotOutliveAnException) {
  const std::string pid_file = ::testing::TempDir() + "child_process_pid";
  child_request r = shell("echo $$ > " + pid_file + "; echo ready; exec /bin/sleep 30");
  r.on_output_line = [](const std::string&) { throw std::runtime_error("the parent gives up"); };
  EXPECT_THROW(run_child(r), std::runtime_error);
  std::ifstream in(pid_file);
  pid_t pid = 0;
  ASSERT_TRUE(in >> pid);
  // The child is gone (reaped: no such process), not left running or a zombie.
  EXPECT_EQ(::kill(pid, 0), -1);
}

// The line of /proc/<pid>/limits the child printed for `name` ("Max processes"), its columns squeezed.
std::string limit_line(const std::vector<std::string>& output, const std::string& name) {
  for (const std::string& line : output)
    if (line.rfind(name, 0) == 0) {
      std::string squeezed;
      for (const char c : line.substr(name.size()))
        if (c != ' ' || (!squeezed.empty() && squeezed.back() != ' ')) squeezed += c;
      while (!squeezed.empty() && squeezed.back() == ' ') squeezed.pop_back();
      return squeezed.substr(squeezed.find_first_not_of(' '));
    }
  return "(no line " + name + ")";
}

rlim_t hard_limit(__rlimit_resource resource) {
  rlimit l{};
  getrlimit(resource, &l);
  return l.rlim_max;
}

std::string bound(rlim_t wanted, __rlimit_resource resource) {
  const rlim_t hard = hard_limit(resource);
  return std::to_string(hard == RLIM_INFINITY ? wanted : std::min(wanted, hard));
}

TEST(ChildLimits, TheChildAndWhatItStartsRunUnderThem) {
  std::vector<std::string> output;
  // cat is the shell's child: the limits reach what the child starts, not only the child.
  child_request r = shell("cat /proc/self/limits", nullptr, &output);
  r.keep_lines = 100;
  child_limits limits;
  limits.max_processes = 4096;
  limits.max_file_bytes = 1 << 20;
  limits.cpu_seconds = 30;
  r.limits = limits;
  const child_outcome how = run_child(r);
  ASSERT_TRUE(how.ended_normally()) << how.describe();
  const std::string nproc = bound(4096, RLIMIT_NPROC);
  EXPECT_EQ(limit_line(output, "Max processes"), nproc + " " + nproc + " processes");
  const std::string fsize = bound(1 << 20, RLIMIT_FSIZE);
  EXPECT_EQ(limit_line(output, "Max file size"), fsize + " " + fsize + " bytes");
  EXPECT_EQ(limit_line(output, "Max cpu time"), bound(30, RLIMIT_CPU) + " " + bound(31, RLIMIT_CPU) + " seconds");
  EXPECT_EQ(limit_line(output, "Max core file size"), "0 0 bytes");
  // The address space is never limited: the CUDA driver reserves far more than any memory.
  rlimit as{};
  getrlimit(RLIMIT_AS, &as);
  if (as.rlim_cur == RLIM_INFINITY) {
    EXPECT_EQ(limit_line(output, "Max address space"), "unlimited unlimited bytes");
  }
}

// cudalab starts itself again as /proc/self/exe; under the limits' wrapper that name would be the
// wrapper's own, so the program it links to must run (here: this test binary, listing its tests).
TEST(ChildLimits, ProcSelfExeIsThisProgramNotTheWrapper) {
  std::vector<std::string> output;
  child_request r;
  r.program = "/proc/self/exe";
  r.argv = {"self", "--gtest_list_tests", "--gtest_filter=ChildLimits.*"};
  r.on_output_line = [&](const std::string& l) { output.push_back(l); };
  r.keep_lines = 100;
  child_limits limits;
  limits.max_file_bytes = 1 << 20;
  r.limits = limits;
  const child_outcome how = run_child(r);
  ASSERT_TRUE(how.ended_normally()) << how.describe();
  EXPECT_EQ(how.exit_code, 0);
  EXPECT_NE(std::find(output.begin(), output.end(), "ChildLimits."), output.end()) << output.size() << " lines";
}

TEST(ChildLimits, NoneAsked) {
  std::vector<std::string> output;
  child_request r = shell("cat /proc/self/limits", nullptr, &output);
  r.keep_lines = 100;
  rlimit core{};
  getrlimit(RLIMIT_CORE, &core);
  ASSERT_TRUE(run_child(r).ended_normally());
  const auto text = [](rlim_t v) { return v == RLIM_INFINITY ? std::string("unlimited") : std::to_string(v); };
  EXPECT_EQ(limit_line(output, "Max core file size"), text(core.rlim_cur) + " " + text(core.rlim_max) + " bytes");
}

TEST(ChildLimits, AFileLargerThanAllowedEndsTheChild) {
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "cudalab_child_limits_big";
  std::filesystem::remove(file);
  child_request r = shell("exec head -c 100000 /dev/zero > '" + file.string() + "'");
  child_limits limits;
  limits.max_file_bytes = 4096;
  r.limits = limits;
  const child_outcome how = run_child(r);
  EXPECT_EQ(how.describe(), "was killed by signal SIGXFSZ (File size limit exceeded)");
  EXPECT_LE(std::filesystem::file_size(file), 4096u);
  std::filesystem::remove(file);
}

TEST(ChildLimits, CpuTimeEndsAChildThatSpins) {
  child_request r = shell("while :; do :; done");
  r.timeout_s = 60;  // only if the limit failed: the watchdog ends it
  child_limits limits;
  limits.cpu_seconds = 1;
  r.limits = limits;
  const child_outcome how = run_child(r);
  EXPECT_EQ(how.describe(), "was killed by signal SIGXCPU (CPU time limit exceeded)");
}

// A sandboxed shell: skipped where bwrap cannot make one (not installed, namespaces refused).
#define CUDALAB_NEEDS_SANDBOX()                                               \
  if (!sandbox_support_of().usable) GTEST_SKIP() << sandbox_support_of().why; \
  static_assert(true)

// A folder for a sandbox test, not under /tmp (which the sandbox replaces with an empty one).
std::filesystem::path sandbox_test_folder(const std::string& name) {
  namespace fs = std::filesystem;
  fs::path root = fs::path(CUDALAB_BINARY_DIR) / "tests" / name;
  fs::remove_all(root);
  fs::create_directories(root);
  return root;
}

// Red-team review 2026-11-26 F1: the sandbox holds only what is asked for. A folder beside the readable
// one (the staff secret's, other students') is not there at all, the readable one is read-only, the
// private folder writable, loopback the only network, and the user is nobody.
TEST(ChildSandbox, redteam26_f01_only_what_is_asked_for_is_there) {
  CUDALAB_NEEDS_SANDBOX();
  namespace fs = std::filesystem;
  const fs::path root = sandbox_test_folder("child_sandbox");
  if (root.string().rfind("/tmp/", 0) == 0) GTEST_SKIP() << "the build folder is under /tmp";
  fs::create_directories(root / "secret");
  fs::create_directories(root / "given");
  std::ofstream(root / "secret" / "secret.key") << "0123";
  std::ofstream(root / "given" / "visible.txt") << "seen\n";
  make_sandbox_folder((root / "own").string());
  std::vector<std::string> results, output;
  child_request r =
      shell("cat '" + (root / "secret" / "secret.key").string() + "' >&3 2>/dev/null || echo no-secret >&3; " + "ls '" +
                root.string() + "' | tr '\\n' ' ' >&3; echo >&3; cat '" + (root / "given" / "visible.txt").string() +
                "' >&3; touch '" + (root / "given" / "new.txt").string() + "' 2>/dev/null && echo wrote >&3 || echo " +
                "read-only >&3; echo made > '" + (root / "own" / "made.txt").string() +
                "' && echo own-ok >&3; grep -c : /proc/net/dev >&3; id -u >&3; ls /home /root 2>/dev/null | wc -l >&3",
            &results, &output);
  child_sandbox sandbox;
  sandbox.readable = {(root / "given").string()};
  sandbox.private_folder = (root / "own").string();
  r.sandbox = sandbox;
  const child_outcome how = run_child(r);
  ASSERT_TRUE(how.ended_normally()) << how.describe() << ::testing::PrintToString(output);
  EXPECT_TRUE(how.sandboxed);
  EXPECT_EQ(results,
            (std::vector<std::string>{"no-secret", "given own ", "seen", "read-only", "own-ok", "1", "65534", "0"}))
      << ::testing::PrintToString(output);
  EXPECT_TRUE(fs::exists(root / "own" / "made.txt"));
  EXPECT_FALSE(fs::exists(root / "given" / "new.txt"));
  fs::remove_all(root);
}

// Red-team review 2026-11-26 F1: where the grader is root, what the sandbox sees it reads as nobody: a
// file only root may read, in a folder it is given, stays closed.
TEST(ChildSandbox, redteam26_f01_a_root_grader_sandbox_reads_as_nobody) {
  CUDALAB_NEEDS_SANDBOX();
  if (::geteuid() != 0) GTEST_SKIP() << "only a grader running as root enters the sandbox as nobody";
  namespace fs = std::filesystem;
  const fs::path root = sandbox_test_folder("child_sandbox_root");
  fs::create_directories(root / "given");
  std::ofstream(root / "given" / "root-only.txt") << "staff\n";
  fs::permissions(root / "given" / "root-only.txt", fs::perms::owner_read | fs::perms::owner_write);
  make_sandbox_folder((root / "own").string());
  std::vector<std::string> results;
  child_request r =
      shell("cat '" + (root / "given" / "root-only.txt").string() + "' >&3 2>/dev/null || echo denied >&3; echo x > '" +
                (root / "own" / "made").string() + "'",
            &results);
  child_sandbox sandbox;
  sandbox.readable = {(root / "given").string()};
  sandbox.private_folder = (root / "own").string();
  r.sandbox = sandbox;
  const child_outcome how = run_child(r);
  ASSERT_TRUE(how.ended_normally()) << how.describe();
  EXPECT_EQ(results, (std::vector<std::string>{"denied"}));
  // What it wrote belongs to nobody outside, not to root.
  struct stat made {};
  ASSERT_EQ(::stat((root / "own" / "made").c_str(), &made), 0);
  EXPECT_NE(made.st_uid, 0u);
  fs::remove_all(root);
}

// Red-team review 2026-11-26 F1: the grader's environment does not follow a child into the sandbox - a
// token or a password in the grader's shell stays outside; what CUDA and cudalab read goes in, with
// what the request adds.
TEST(ChildSandbox, redteam26_f01_the_graders_environment_stays_outside) {
  CUDALAB_NEEDS_SANDBOX();
  ::setenv("GITHUB_TOKEN", "ghp_staff", 1);
  ::setenv("CUDA_VISIBLE_DEVICES", "0", 1);
  std::vector<std::string> results;
  child_request r =
      shell("echo \"${GITHUB_TOKEN:-none} ${CUDA_VISIBLE_DEVICES:-unset} ${GIVEN:-unset} $HOME\" >&3", &results);
  r.environment = {{"GIVEN", "yes"}};
  r.sandbox = child_sandbox{};
  const child_outcome how = run_child(r);
  ::unsetenv("GITHUB_TOKEN");
  ::unsetenv("CUDA_VISIBLE_DEVICES");
  ASSERT_TRUE(how.ended_normally()) << how.describe();
  EXPECT_EQ(results, (std::vector<std::string>{"none 0 yes /tmp"}));
}

TEST(ChildSandbox, TheWatchdogStillKillsEverythingInside) {
  CUDALAB_NEEDS_SANDBOX();
  const auto start = std::chrono::steady_clock::now();
  child_request r = shell("sleep 100 & sleep 100; wait");
  r.timeout_s = 0.5;
  r.sandbox = child_sandbox{};
  const child_outcome how = run_child(r);
  EXPECT_TRUE(how.timed_out);
  EXPECT_LT(seconds_since(start), 60.0);
}

TEST(ChildSandbox, LimitsAndSandboxTogether) {
  CUDALAB_NEEDS_SANDBOX();
  std::vector<std::string> output;
  child_request r = shell("cat /proc/self/limits", nullptr, &output);
  r.keep_lines = 100;
  child_limits limits;
  limits.max_file_bytes = 1 << 20;
  r.limits = limits;
  r.sandbox = child_sandbox{};
  const child_outcome how = run_child(r);
  ASSERT_TRUE(how.ended_normally()) << how.describe();
  EXPECT_TRUE(how.sandboxed);
  const std::string fsize = bound(1 << 20, RLIMIT_FSIZE);
  EXPECT_EQ(limit_line(output, "Max file size"), fsize + " " + fsize + " bytes");
}

// Red-team review 2026-11-26 F5: a process that leaves the child's process group (setsid) dies with it all
// the same: in the sandbox with its process-id namespace, and without one because this process adopts it.
TEST(ChildProcess, redteam26_f05_setsid_does_not_escape) {
  for (const bool sandboxed : {false, true}) {
    if (sandboxed && !sandbox_support_of().usable) continue;
    std::vector<std::string> results;
    child_request r = shell("setsid sh -c 'echo $$ >&3; exec sleep 100' & sleep 0.5; echo parent-done >&3", &results);
    if (sandboxed) r.sandbox = child_sandbox{};
    const auto start = std::chrono::steady_clock::now();
    const child_outcome how = run_child(r);
    ASSERT_TRUE(how.ended_normally()) << how.describe();
    EXPECT_LT(seconds_since(start), 30.0);
    ASSERT_EQ(results.size(), 2u) << sandboxed;
    if (!sandboxed) {
      const pid_t escaped = std::stoi(results[0]);
      EXPECT_EQ(::kill(escaped, 0), -1) << "the escaped process " << escaped << " is still there";
      EXPECT_EQ(how.left_behind, 1);
    }
  }
}

// Red-team review 2026-11-26 F2: a child has no controlling terminal, even when the grader has one: it
// cannot open /dev/tty (to type into the grader's shell with TIOCSTI, or read from it). The grader here is
// a process of the test's own, given a terminal (a pseudo-terminal) as its controlling one.
TEST(ChildProcess, redteam26_f02_a_child_has_no_terminal) {
  const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  ASSERT_GE(master, 0);
  ASSERT_EQ(::grantpt(master), 0);
  ASSERT_EQ(::unlockpt(master), 0);
  const std::string slave = ::ptsname(master);
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  const pid_t grader = ::fork();
  if (grader == 0) {
    ::close(pipe_fds[0]);
    ::setsid();
    const int tty = ::open(slave.c_str(), O_RDWR);  // a session leader's first terminal becomes its own
    if (tty < 0) ::_exit(2);
    std::vector<std::string> results;
    const child_outcome how = run_child(
        shell("if (exec 9</dev/tty) 2>/dev/null; then echo has-terminal >&3; else echo no-terminal >&3; fi", &results));
    const std::string said = results.empty() ? "nothing" : results.front();
    (void)!::write(pipe_fds[1], said.data(), said.size());
    ::_exit(how.ended_normally() ? 0 : 3);
  }
  ::close(pipe_fds[1]);
  char buf[64] = {};
  const ssize_t n = ::read(pipe_fds[0], buf, sizeof buf - 1);
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(grader, &status, 0);
  ::close(master);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_EQ(std::string(buf, n > 0 ? std::size_t(n) : 0), "no-terminal");
}

TEST(ChildSandbox, WithoutBwrapTheChildRunsAsItIsAndSaysWhy) {
  std::vector<std::string> results;
  child_request r = shell("echo ran >&3", &results);
  child_sandbox sandbox;
  sandbox.bwrap = "/nonexistent/bwrap";
  r.sandbox = sandbox;
  const child_outcome how = run_child(r);
  ASSERT_TRUE(how.ended_normally()) << how.describe();
  EXPECT_FALSE(how.sandboxed);
  EXPECT_EQ(how.sandbox_note, "/nonexistent/bwrap is not an executable");
  EXPECT_EQ(results, std::vector<std::string>{"ran"});
}

}  // namespace
}  // namespace cudalab::host
