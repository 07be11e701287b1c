// A class as a Slurm job array and a merge job (slurm_batch.hpp).
#include "assignment/slurm_batch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "assignment/starter_kit.hpp"
#include "exit_codes.hpp"
#include "process/child_process.hpp"
#include "process/toolkit_programs.hpp"
#include "results/safe_file.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

namespace {

// The merge only reads grade.json files and writes the class's: minutes are plenty.
constexpr int merge_minutes = 30;

std::string command_text(const std::vector<std::string>& argv) {
  std::string text;
  for (const std::string& word : argv) text += (text.empty() ? "" : " ") + shell_word(word);
  return text;
}

// The #SBATCH lines both jobs share: the request's partition and its own sbatch options.
std::string shared_directives(const grade_request& req) {
  std::string lines;
  if (!req.partition.empty()) lines += "#SBATCH --partition=" + req.partition + "\n";
  for (const std::string& o : req.sbatch_options) lines += "#SBATCH " + o + "\n";
  return lines;
}

// OUT/.slurm/batch-N for the next N: one per submission, so that a resubmission keeps the scripts and
// logs of the earlier ones.
fs::path next_batch_folder(const fs::path& out) {
  int n = 1;
  std::error_code ec;
  while (fs::exists(out / ".slurm" / ("batch-" + std::to_string(n)), ec)) ++n;
  return out / ".slurm" / ("batch-" + std::to_string(n));
}

// Runs sbatch with `args`; its first line of output (the job id, with --parsable) in `id`, or its words
// printed and false.
bool sbatch(const fs::path& program, const std::vector<std::string>& args, std::string& id, int& exit_code) {
  child_request q;
  q.program = program.string();
  q.argv = {program.string(), "--parsable"};
  q.argv.insert(q.argv.end(), args.begin(), args.end());
  std::vector<std::string> lines;
  q.on_output_line = [&](const std::string& line) {
    lines.push_back(line);
    if (lines.size() > 1) fmt::print("  sbatch: {}\n", line);  // --wait's words, as they come
  };
  const child_outcome o = run_child(q);
  exit_code = o.ended_normally() ? o.exit_code : exit_internal;
  id = lines.empty() ? "" : lines.front().substr(0, lines.front().find(';'));
  const bool is_id = !id.empty() && std::all_of(id.begin(), id.end(), [](char c) { return std::isdigit(c); });
  if (is_id) return true;
  fmt::print(stderr, "cudalab: grade: sbatch {}:\n", o.describe());
  for (const std::string& line : lines) fmt::print(stderr, "  {}\n", line);
  return false;
}

}  // namespace

std::string shell_word(const std::string& word) {
  const bool safe = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("/._-=:,@+%").find(c) != std::string_view::npos;
  });
  if (safe) return word;
  std::string quoted = "'";
  for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

int task_minutes(const assignment_file& f) {
  return std::max(5, int(std::ceil((f.compile_timeout_s + f.total_timeout_s) * 1.5 / 60)));
}

std::string array_script(const loaded_assignment& a, const grade_request& req, const std::vector<grade_job>& jobs,
                         const fs::path& batch) {
  std::string s = fmt::format(
      "#!/bin/bash\n"
      "# cudalab grade, {} (assignment {}): one Slurm array task per student not graded yet, {} in all.\n"
      "# Task I grades the student of case I below on the one GPU Slurm gives it, into the student's folder;\n"
      "# --secret names the staff secret's file (mode 0600): each task reads it, its bytes are never here.\n"
      "#SBATCH --job-name=cudalab-grade-{}\n"
      "#SBATCH --array=0-{}\n"
      "#SBATCH --gres=gpu:1\n"
      "#SBATCH --ntasks=1\n"
      "#SBATCH --time={}\n"
      "{}"
      "#SBATCH --output={}/task-%a.log\n"
      "set -u\n"
      "case \"${{SLURM_ARRAY_TASK_ID:?run this script with sbatch: it is a job array}}\" in\n",
      a.file.title, a.file.id, jobs.size(), a.file.id, jobs.size() - 1,
      req.time_limit.empty() ? std::to_string(task_minutes(a.file)) : req.time_limit, shared_directives(req),
      batch.string());
  for (std::size_t i = 0; i < jobs.size(); ++i)
    s += fmt::format("  {}) # {}\n    exec {} ;;\n", i, jobs[i].student,
                     command_text(job_argv(req.settings.program, req, jobs[i], -1)));
  s += "  *) echo \"no student for task $SLURM_ARRAY_TASK_ID\" >&2; exit 2 ;;\nesac\n";
  return s;
}

std::string merge_script(const loaded_assignment& a, const grade_request& req, const std::string& array_id,
                         const fs::path& batch) {
  const std::vector<std::string> argv =
      grade_argv(req.settings.program, req,
                 {"--submissions", absolute_text(req.submissions), "--out", absolute_text(req.out_dir), "--merge"});
  return fmt::format(
      "#!/bin/bash\n"
      "# cudalab grade, {}: the class's gradebook.csv, leaderboard and class pages from every student's\n"
      "# folder, once array job {} has ended however it ended (afterany). A student whose task left no\n"
      "# finished grade.json gets a row that says so, and this job exits 12.\n"
      "#SBATCH --job-name=cudalab-merge-{}\n"
      "#SBATCH --dependency=afterany:{}\n"
      "#SBATCH --ntasks=1\n"
      "#SBATCH --time={}\n"
      "{}"
      "#SBATCH --output={}/merge.log\n"
      "exec {}\n",
      a.file.title, array_id, a.file.id, array_id, merge_minutes, shared_directives(req), batch.string(),
      command_text(argv));
}

job_note_fn slurm_task_notes(const fs::path& out) {
  return [out](const grade_job& job) -> std::string {
    std::error_code ec;
    fs::path log;  // the latest batch's task of this student
    for (int n = 1; fs::exists(out / ".slurm" / ("batch-" + std::to_string(n)), ec); ++n) {
      const fs::path batch = out / ".slurm" / ("batch-" + std::to_string(n));
      std::ifstream tasks(batch / "tasks.tsv");
      std::string index, student;
      while (std::getline(tasks, index, '\t') && std::getline(tasks, student))
        if (student == job.student) log = batch / ("task-" + index + ".log");
    }
    if (log.empty()) return "";
    if (!fs::exists(log, ec)) return "its Slurm task never started (no " + log.string() + ")";
    std::ifstream in(log);
    std::string line, killed;
    while (std::getline(in, line))
      if (line.rfind("slurmstepd: error: ***", 0) == 0) killed = line;  // Slurm's own words on a kill
    return killed.empty() ? "its Slurm task's log: " + log.string() : "Slurm: " + killed;
  };
}

int submit_to_slurm(const loaded_assignment& a, const session_settings& settings, const grade_request& req,
                    const std::vector<grade_job>& jobs, const std::vector<grade_job>& pending) {
  const fs::path out = fs::absolute(req.out_dir).lexically_normal();
  if (pending.empty()) {
    fmt::print("every student has a finished grade.json: nothing to submit; merging here\n");
    return merge_class(a, settings, req, jobs, int(jobs.size()), {}, slurm_task_notes(out));
  }
  const auto program = find_on_path("sbatch");
  if (!program) {
    fmt::print(stderr, "cudalab: grade: --slurm needs Slurm's sbatch on PATH, and there is none\n");
    return exit_usage;
  }
  const fs::path batch = next_batch_folder(out);
  std::string tasks;
  for (std::size_t i = 0; i < pending.size(); ++i) tasks += std::to_string(i) + "\t" + pending[i].student + "\n";
  try {
    make_empty_folder(batch);
    write_file_atomically(batch / "tasks.tsv", tasks);
    write_file_atomically(batch / "grade.sbatch", array_script(a, req, pending, batch));
  } catch (const std::exception& e) {
    fmt::print(stderr, "cudalab: grade: {}\n", e.what());
    return exit_write_error;
  }
  std::string array_id, merge_id;
  int code = exit_ok;
  if (!sbatch(*program, {(batch / "grade.sbatch").string()}, array_id, code)) return exit_usage;
  fmt::print("submitted array job {}: {} student(s), one task each ({})\n", array_id, pending.size(),
             (batch / "grade.sbatch").string());
  try {
    write_file_atomically(batch / "merge.sbatch", merge_script(a, req, array_id, batch));
  } catch (const std::exception& e) {
    fmt::print(stderr,
               "cudalab: grade: {} (array job {} runs without its merge: scancel it, or merge later with "
               "--merge)\n",
               e.what(), array_id);
    return exit_write_error;
  }
  std::vector<std::string> args;
  if (req.wait) args.push_back("--wait");
  args.push_back((batch / "merge.sbatch").string());
  if (req.wait) fmt::print("waiting for the merge (after array job {})...\n", array_id);
  if (!sbatch(*program, args, merge_id, code)) return exit_usage;
  if (!req.wait) {
    fmt::print("submitted merge job {} (after array job {}): gradebook.csv in {} once it ends; logs in {}\n", merge_id,
               array_id, out.string(), batch.string());
    return exit_ok;
  }
  fmt::print("merge job {} ended with exit code {}; its log: {}\n", merge_id, code, (batch / "merge.log").string());
  return code;
}

}  // namespace cudalab::host
