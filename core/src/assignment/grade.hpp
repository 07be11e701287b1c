// `cudalab grade ASSIGNMENT --submission FILE|DIR [--student ID] --out DIR`: the course's grading of
// one submission, on the grader's GPU. Like `check` it builds the submission with the assignment's
// policy and runs each test's lab file in an isolated child under the unit timeout; unlike `check` it
// runs every test, the hidden ones drawn for this student from the staff secret (HMAC seeds), gates
// performance on correctness, times each performance test in rounds (the baseline beside the student
// in every round) until the rounds' confidence interval settles its points, and runs the integrity
// checks as named tests. grade.json and the student's feedback.html (rewritten after every stage, so a
// grader killed midway leaves what it scored) and every render asked for with --emit go into the
// output folder.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "assignment/assignment.hpp"
#include "assignment/grade_report.hpp"
#include "assignment/test_session.hpp"

namespace cudalab::host {

/// Where a render of the grade report goes: gradescope, prairielearn, junit or md, and a path.
struct emit_target {
  std::string kind;
  std::filesystem::path path;
};

/// One submission's grading: its report, and an exit code (exit_ok when graded, whatever the score;
/// exit_no_gpu, exit_usage, exit_write_error when it could not be).
struct graded_submission {
  grade_report report;
  int exit_code = 0;
};

/// Grades `submission` (a file, or a folder holding the assignment's submission file) of `student`
/// into the folder `out` (made new): build, tests, integrity checks, grade.json. Prints its progress.
graded_submission grade_submission(const loaded_assignment& a, const session_settings& s, const std::string& submission,
                                   const std::string& student, const std::filesystem::path& out);

/// Writes the renders `targets` asks for from `report` (always through student_copy). Throws write_error.
void emit_renders(const grade_report& report, const std::vector<emit_target>& targets);

/// `cudalab grade` as the command line asks for it.
struct grade_request {
  std::filesystem::path assignment;
  std::string submission;   ///< one submission (a file or a folder)
  std::string submissions;  ///< a class: a folder of submissions, one per student (files or folders)
  std::string student;      ///< --student; "": the submission's name
  std::string secret_file;  ///< --secret; "": secret.key beside the assignment
  std::string out_dir;      ///< --out; "": grade-results/<id>-<date-time> (one) or required (a class)
  std::vector<emit_target> emit;
  bool force = false;  ///< replace an earlier grading's folder (one submission)
  session_settings settings;
};

/// Runs the request: one submission, or a class (grade_batch.hpp). Returns the exit code: 0 when
/// graded (whatever the scores), 3 or 4 for a bad assignment or plugin, 5 without a GPU, 2 for bad
/// usage (no secret, no submission), 9 when results cannot be written.
int grade_command(const grade_request& request);

}  // namespace cudalab::host
