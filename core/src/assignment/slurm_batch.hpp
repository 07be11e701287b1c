// `grade --submissions DIR --out OUT --slurm`: a class on a Slurm cluster. The students still to grade
// become one job array (a task per student, `--gres=gpu:1`, each the same one-student `cudalab grade` a
// --devices worker runs: grade_jobs.hpp) and a merge job that waits for it (`--dependency=afterany`) and
// runs `cudalab grade --submissions DIR --out OUT --merge`. Both job scripts are written, readable, to
// OUT/.slurm/batch-N/ (a folder no student's name can be) with the tasks' logs; they name the staff
// secret's file, never its bytes: each task reads the file itself. A task that Slurm kills leaves no
// finished grade.json, so the merge writes that student's row as not graded - quoting the kill line of
// the task's log - and exits 12; the same command again submits only the students still missing.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "assignment/grade_jobs.hpp"

namespace cudalab::host {

/// A word as bash reads it back unchanged: itself when it is made of safe characters only, else in
/// single quotes (a quote inside as '\'').
std::string shell_word(const std::string& word);

/// The Slurm time limit of a task grading one student of `f`, in minutes: its build and its tests'
/// total time (compile_timeout_s + total_timeout_s) with half again for the probe, the toolkit's start
/// and a busy node, at least 5.
int task_minutes(const assignment_file& f);

/// The array job's script: #SBATCH lines (name, --array=0-(n-1), --gres=gpu:1, --time, --partition
/// when given, --output into `batch`), then one case per task running its student's job_argv.
std::string array_script(const loaded_assignment& a, const grade_request& request, const std::vector<grade_job>& jobs,
                         const std::filesystem::path& batch);

/// The merge job's script: waits for array job `array_id` (afterany), writes its log into `batch`,
/// and runs `program grade ASSIGNMENT --submissions DIR --out OUT --merge` with the request's secret file
/// and plugin folders.
std::string merge_script(const loaded_assignment& a, const grade_request& request, const std::string& array_id,
                         const std::filesystem::path& batch);

/// What a merge adds to a not-graded student's row when OUT/.slurm has batches: the last task that
/// graded the student and its log, with Slurm's own line of why it was killed when the log has one.
job_note_fn slurm_task_notes(const std::filesystem::path& out);

/// Submits `pending` (the jobs of `jobs` still to grade) as above; with request.wait, blocks until the
/// merge ends and returns its exit code (0, or 12 when a task left its student not graded). When
/// nothing is pending, merges here. Returns exit_usage without sbatch on PATH, exit_internal when
/// sbatch refuses (its words printed), exit_write_error when the scripts cannot be written.
int submit_to_slurm(const loaded_assignment& a, const session_settings& settings, const grade_request& request,
                    const std::vector<grade_job>& jobs, const std::vector<grade_job>& pending);

}  // namespace cudalab::host
