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

/// The list, in a grading's folder, of the renders --emit wrote there ("results.json\n..."): a later
/// grading of the folder with other --emit options (or none) knows them as its own (remove_graded_folder).
inline constexpr const char* emitted_list_name = ".emitted";

/// The file names `folder`'s emitted_list_name lists; none when it has none or it cannot be read.
std::vector<std::string> emitted_in(const std::filesystem::path& folder);

/// Writes the renders `targets` asks for from `report` (always through student_copy). Those that go into
/// `folder` are added to its emitted_list_name first, so that a grading killed in between leaves a name
/// listed without its file, never a render no list names. Throws write_error.
void emit_renders(const grade_report& report, const std::vector<emit_target>& targets,
                  const std::filesystem::path& folder);

/// `cudalab grade` as the command line asks for it.
struct grade_request {
  std::filesystem::path assignment;
  std::string submission;   ///< one submission (a file or a folder)
  std::string submissions;  ///< a class: a folder of submissions, one per student (files or folders)
  std::string student;      ///< --student; "": the submission's name
  std::string secret_file;  ///< --secret; "": secret.key beside the assignment
  std::string out_dir;      ///< --out; "": grade-results/<id>-<date-time> (one) or required (a class)
  std::vector<emit_target> emit;
  bool force = false;                       ///< replace an earlier grading's folder (one submission)
  bool no_sandbox = false;                  ///< --no-sandbox: the students' code unsandboxed (a machine of its own)
  session_settings settings;                ///< settings.device: --device N (one submission, on GPU N alone)
  std::vector<int> devices;                 ///< --devices: a class graded by one worker per GPU listed (grade_pool.hpp)
  bool merge_only = false;                  ///< --merge: a class's files from its folders as they are; nothing graded
  bool slurm = false;                       ///< --slurm: a class as a Slurm job array and a merge job (slurm_batch.hpp)
  std::vector<std::string> sbatch_options;  ///< --sbatch OPTION (repeatable): passed to every sbatch
  std::string partition;                    ///< --partition; "": the cluster's default
  std::string time_limit;                   ///< --time (sbatch's form); "": from the assignment's limits
  bool wait = false;                        ///< --wait: block until the merge ends, exit with its code
};

/// Runs the request: one submission, or a class (grade_batch.hpp). Returns the exit code: 0 when
/// graded (whatever the scores), 3 or 4 for a bad assignment or plugin, 5 without a GPU, 2 for bad
/// usage (no secret, no submission), 9 when results cannot be written, 12 when a class's batch left
/// students not graded.
int grade_command(const grade_request& request);

}  // namespace cudalab::host
