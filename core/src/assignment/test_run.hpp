// Running an assignment's tests against a submission, as `check` and `grade` both do: the build with
// the assignment's policy, the tests' lab files in one isolated run (each in a child under the unit
// timeout, the whole under a time limit), and the student's results read back by test lab file.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "assignment/assignment.hpp"
#include "assignment/grade_report.hpp"
#include "labfile/run_profile.hpp"
#include "process/sandbox.hpp"
#include "results/result.hpp"
#include "results/run_context.hpp"
#include "slots/submission.hpp"

namespace cudalab::host {

/// A submission built as the grader builds it, and its build as a grade report records it.
struct graded_build {
  built_submission built;
  grade_build report;
};

/// The limits of the children that run a submission: the assignment's [limits], and never a core file.
child_limits children_limits_of(const assignment_file& a);

/// The assignment's build policy ([build] flags, deny_headers, allow_libraries, compile_timeout_s), each
/// compiler in `sandbox` when set, under the build's limits.
build_policy policy_of(const assignment_file& a, const std::optional<child_sandbox>& sandbox);

/// Builds `submission` for `arch` into `folder` with the assignment's policy, printing the compiler's
/// messages. Throws what build_submission throws (a toolkit that cannot be run, a folder not made).
graded_build build_graded(const loaded_assignment& a, const std::string& submission, const std::string& arch,
                          const std::filesystem::path& folder, const std::optional<child_sandbox>& sandbox);

/// One isolated run of test lab files against a submission.
struct test_run_request {
  const loaded_assignment* assignment = nullptr;
  std::vector<std::string> files;  ///< the tests' lab files
  std::string submission;          ///< its source, or a build of it (a .so or .cubin: not built again)
  std::filesystem::path out;       ///< the run's results folder (made new)
  std::vector<std::filesystem::path> search_path;
  std::string program;       ///< this executable, for the children
  std::string command_line;  ///< for the results' context
  bool colour = true;
  double time_limit_s = 0;  ///< the run stops (as on Ctrl-C) after this long; 0: never
  /// A child per test lab file (correctness), or per variant at each point (performance: the baseline's
  /// child, which loads no submission, runs and ends before the student's starts).
  isolation_mode isolate = isolation_mode::file;
  std::optional<child_sandbox> sandbox;  ///< the builds and the children in this sandbox when set
  bool launchers_apart = false;          ///< run_policy::launchers_apart
};

/// Runs the request's files (run_labs, isolated as `isolate` says, the assignment's unit timeout for
/// each child); returns its exit code.
int run_tests(const test_run_request& request);

/// The student variant's results of the run in `folder` (results.json, or what a stopped run left in
/// results.jsonl), by lab file; `context` becomes the run's. None, after saying why on stderr (as
/// `command`), when the run wrote nothing readable.
std::map<std::string, std::vector<variant_result>> student_results(const std::filesystem::path& folder,
                                                                   const std::string& variant, run_context& context,
                                                                   const std::string& command);

}  // namespace cudalab::host
