// A class's grading as a set of jobs, one per student, and one merge: what `grade --submissions` does
// whoever runs the jobs - this process one after another, a worker per GPU (--devices), or a Slurm job
// array (--slurm). A job is `cudalab grade ASSIGNMENT --submission FILE --student ID --out OUT/ID`; a
// job whose finished grade.json is there is done and never run again, one killed midway is run again;
// the merge reads every student's folder and writes the class's files, a row that says why for a
// student whose job left no finished grade.json.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "assignment/class_results.hpp"
#include "assignment/grade.hpp"

namespace cudalab::host {

/// One student of a class: who, the submission file, and the student's folder of the output.
struct grade_job {
  std::string student;
  std::filesystem::path submission;
  std::filesystem::path folder;
};

/// The class of `request`: one job per entry of request.submissions (sorted by name) that names a
/// student and holds the submission file, its folder in request.out_dir. What cannot be graded - a
/// name that is no student's, a name two hand-ins share, the name of a file the merge writes, a folder
/// without the submission file - is left out: said on stderr, and a line "ENTRY: why" in `left_out`.
/// Hidden entries (".git") are no hand-ins.
std::vector<grade_job> class_jobs(const loaded_assignment& a, const grade_request& request,
                                  std::vector<std::string>& left_out);

/// The complete grade report in `job.folder` of this assignment and of the submission's text as it is
/// now, signed for the job's student under `secret` (report_signature.hpp); nullopt when there is none
/// (no grade.json, half written, incomplete, of another submission, forged, of another secret, lab file
/// or cudalab).
std::optional<grade_report> finished_report(const loaded_assignment& a, const grade_job& job,
                                            const std::string& secret);

/// --emit's renders for one student of a class: `emit`'s, each into `folder` by its file name.
std::vector<emit_target> emit_into(const std::vector<emit_target>& emit, const std::filesystem::path& folder);

/// The jobs of `jobs` still to be run: those without a finished report. Each other one is said ("alice:
/// graded already (7 of 10 points), kept"), counted in `kept`, its feedback.html written again (a folder
/// graded before feedback.html existed has none) and the renders `emit` asks for written into its folder
/// from its report (emit_into: a batch run again with other --emit options than the one that graded it).
/// Throws write_error.
std::vector<grade_job> pending_jobs(const loaded_assignment& a, const std::vector<grade_job>& jobs,
                                    const std::string& secret, int& kept, const std::vector<emit_target>& emit = {});

/// The staff secret's file of `request`: --secret, else secret.key beside the assignment.
std::filesystem::path secret_file_of(const grade_request& request);

/// `path` absolute and normal: what a command line for another process (on another node) names.
std::string absolute_text(const std::filesystem::path& path);

/// `program grade ASSIGNMENT`, then `what`, then what every grade this request starts shares: --secret
/// FILE (never the secret's bytes: the process reads its file), the request's --plugin-path folders and
/// --no-color when asked. Every path absolute.
std::vector<std::string> grade_argv(const std::string& program, const grade_request& request,
                                    const std::vector<std::string>& what);

/// The command line of `job` as a process of its own (a --devices worker's child, a Slurm task):
/// grade_argv with `--submission FILE --student ID --out FOLDER --force`, --emit renders into the
/// student's folder, then --device `device` when it is 0 or more.
std::vector<std::string> job_argv(const std::string& program, const grade_request& request, const grade_job& job,
                                  int device);

/// What a merge adds to a not-graded row's reason about `job` (a Slurm task's log line); "" for nothing.
using job_note_fn = std::function<std::string(const grade_job& job)>;

/// The merge: every job's finished report into gradebook.csv (a "not graded" row, with why, for a job
/// without one), leaderboard.json, leaderboard.md, class.html and class-staff.html (the graded ones) in
/// request.out_dir, and left-out.txt with `left_out`'s lines when there are any; prints the class's line
/// ("N student(s) graded ..."), `kept` and `left_out` as counted before. Returns exit_ok,
/// exit_not_graded when a job has no finished report (the batch run again grades just those) or a hand-in
/// was left out, exit_write_error when a file cannot be written.
int merge_class(const loaded_assignment& a, const session_settings& settings, const grade_request& request,
                const std::vector<grade_job>& jobs, int kept, const std::vector<std::string>& left_out,
                const job_note_fn& note = {});

}  // namespace cudalab::host
