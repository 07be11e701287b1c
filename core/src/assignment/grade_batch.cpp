// A class in one batch (grade_batch.hpp).
#include "assignment/grade_batch.hpp"

#include <fmt/format.h>

#include "assignment/grade_jobs.hpp"
#include "assignment/grade_pool.hpp"
#include "assignment/slurm_batch.hpp"
#include "exit_codes.hpp"
#include "results/safe_file.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

void remove_graded_folder(const fs::path& folder) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    const std::string name = entry.path().filename().string();
    const bool ours = name == "grade.json" || name == "build" || name == "tests" || name == "run" ||
                      name.rfind("perf-", 0) == 0 || name.rfind("sanitizer-", 0) == 0 || name == "results.json" ||
                      name == "junit.xml" || name == "feedback.md" || name == "feedback.html" ||
                      name == "prairielearn.json" || name.rfind(".grade.json", 0) == 0;
    if (!ours) return;
  }
  fs::remove_all(folder, ec);
}

int grade_class(const loaded_assignment& a, const session_settings& settings, const grade_request& req) {
  if (req.out_dir.empty()) {
    fmt::print(stderr, "cudalab: grade: --submissions needs --out GRADES: one folder per student goes there\n");
    return exit_usage;
  }
  std::error_code ec;
  if (!fs::is_directory(req.submissions, ec)) {
    fmt::print(stderr, "cudalab: grade: --submissions {} is not a folder\n", req.submissions);
    return exit_usage;
  }
  const fs::path out(req.out_dir);
  fs::create_directories(out, ec);
  if (ec) {
    fmt::print(stderr, "cudalab: grade: cannot make {}: {}\n", out.string(), ec.message());
    return exit_write_error;
  }
  int left_out = 0, kept = 0;
  const std::vector<grade_job> jobs = class_jobs(a, req, left_out);
  if (req.merge_only) return merge_class(a, settings, req, jobs, kept, left_out, slurm_task_notes(out));
  std::vector<grade_job> pending;
  try {
    pending = pending_jobs(a, jobs, kept);
  } catch (const write_error& e) {
    fmt::print(stderr, "cudalab: grade: {}\n", e.what());
    return exit_write_error;
  }
  if (req.slurm) return submit_to_slurm(a, settings, req, jobs, pending);
  if (!req.devices.empty()) {
    if (const int code = grade_on_devices(req, pending); code != exit_ok) return code;
    return merge_class(a, settings, req, jobs, kept, left_out);
  }
  for (const grade_job& job : pending) {
    fmt::print("\n== {} ({}) ==\n", job.student, job.submission.string());
    try {
      remove_graded_folder(job.folder);
      graded_submission g = grade_submission(a, settings, job.submission.string(), job.student, job.folder);
      if (g.exit_code != exit_ok) return g.exit_code;  // no GPU: no later student can be graded either
      std::vector<emit_target> emit = req.emit;
      for (emit_target& t : emit) t.path = job.folder / t.path.filename();
      emit_renders(g.report, emit);
    } catch (const std::exception& e) {
      fmt::print(stderr, "cudalab: grade: {}: {}\n", job.student, e.what());
      return exit_write_error;
    }
  }
  return merge_class(a, settings, req, jobs, kept, left_out);
}

}  // namespace cudalab::host
