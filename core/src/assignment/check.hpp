// `cudalab check ASSIGNMENT --submission FILE`: a student's check of a submission against the visible
// part of an assignment, with the grader's build flags and header policy. It builds the submission
// (compile errors name the student's file and line), runs the visible correctness and performance
// tests as lab files of their own in isolated children (a crash, a fault or an endless kernel costs
// one test, under the assignment's unit timeout), each sanitizer test under compute-sanitizer, and
// scores them: a projected score for the visible part. With --no-gpu, the build and policy only.
// Everything it ran is kept in its output folder: the tests' lab files, the run's results, and the
// grade report the grader writes (grade.json) with the student's feedback.md and feedback.html
// rendered from it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace cudalab::host {

struct check_request {
  std::filesystem::path assignment;
  std::string submission;                          ///< "" : the kit's file beside the assignment
  std::vector<std::filesystem::path> search_path;  ///< plugins
  bool no_gpu = false;
  std::string arch = "sm_90";  ///< what --no-gpu builds for (--arch)
  std::string out_dir;         ///< "" : check-results/<assignment id>-<date-time>
  bool force = false;          ///< replace an earlier check's folder at out_dir
  bool colour = true;
  std::string program;  ///< this executable, for the sanitizer's children
};

/// Runs the check and prints its report; returns the exit code: 0 when every visible correctness and
/// sanitizer test passes, 6 when one fails, 10 when the submission does not build, 3/4 for a bad
/// assignment or plugin, 5 without a GPU (use --no-gpu).
int check_submission(const check_request& request);

}  // namespace cudalab::host
