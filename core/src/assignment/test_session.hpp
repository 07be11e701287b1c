// One submission through an assignment's tests: the stages `check` and `grade` share - the build, the
// correctness tests, the performance tests, the sanitizer tests, the integrity checks, the report -
// each written once, with what differs between a student's check and the course's grading as a policy.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "assignment/assignment.hpp"
#include "assignment/grade_report.hpp"
#include "process/sandbox.hpp"

namespace cudalab::host {

/// Rounds whose baselines ran further apart than this fraction were disturbed (another process on the
/// GPU, a clock change): a graded test takes another round rather than score the student against a
/// moving baseline. Cards of one batch whose ceilings differ by more are refused (grade_pool.hpp).
inline constexpr double max_baseline_drift = 0.05;

/// What differs between `check` (a student, on their own GPU, the visible tests) and `grade` (the course).
struct session_policy {
  std::string command = "grade";    ///< "check" or "grade": the report's word and the messages'
  bool hidden_tests = false;        ///< the hidden tests too, each drawn for the student from the staff secret
  bool rounds = false;              ///< performance tests in rounds until their interval settles (else one round)
  bool integrity_tests = false;     ///< the integrity checks as named tests, their flags in the report
  bool implicit_racecheck = false;  ///< racecheck on the first correctness test's points when no racecheck is run
  bool gpu = true;                  ///< false (check --no-gpu): the build and the policy only
  /// A launcher's host code in the submission's own process, never in the one that times and checks it
  /// (grade; isolation/submission_process.hpp). check runs it in its test's child: a student checking their own
  /// code on their own machine, which may have no CUDA IPC (WSL).
  bool launchers_apart = false;
};

/// check's policy: the visible tests, one round, racecheck always; `gpu` false for --no-gpu.
session_policy check_policy(bool gpu);
/// grade's policy: every test, hidden ones drawn per student, rounds, the integrity checks.
session_policy grade_policy();

/// What a session needs besides the assignment and the submission: where plugins are, the staff secret
/// (grade), this executable (for the children), the architecture of the first build.
struct session_settings {
  std::vector<std::filesystem::path> search_path;  ///< plugins
  std::string secret;                              ///< the staff secret's bytes (grade; "" for check)
  std::string program;                             ///< this executable, for the children
  std::string arch = "sm_90";                      ///< what the first build (the build report) is for
  bool colour = true;
  /// Where the submission's code runs - its builds, its tests, its sanitizer runs: in this sandbox
  /// (grade; process/sandbox.hpp), or as plain children of this process (nullopt: check, grade --no-sandbox).
  std::optional<child_sandbox> sandbox;
  int device = -1;  ///< the GPU of `grade --device N`, recorded in the report; -1: none named
};

/// Who and what a session grades, and with what.
struct session_inputs {
  std::string submission;     ///< the submission's file
  std::string student;        ///< the student's id ("" for check)
  std::filesystem::path out;  ///< the session's folder (made new): build/, tests/, run/, perf-*/, sanitizer-*/
  session_settings settings;
};

/// How a session ended: its report (complete when every test was scored), and an exit code that ends
/// the command before it is scored (exit_no_gpu, exit_usage, exit_write_error, exit_interrupted), else exit_ok.
struct session_result {
  grade_report report;
  int exit_code = 0;
};

/// Puts `in.submission` through the assignment's tests as `policy` says, into `in.out` (made new): the
/// build, the correctness tests, the performance tests gated on them, the sanitizer tests on a
/// submission whose output is right, the integrity checks, the score. grade.json is written after every
/// stage (a session killed midway leaves what it scored, complete: false) and the table printed at the
/// end. Throws write_error (or std::filesystem_error) when the folder cannot be made or written.
session_result run_test_session(const loaded_assignment& a, const session_policy& policy, const session_inputs& in);

}  // namespace cudalab::host
