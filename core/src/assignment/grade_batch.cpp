// A class in one batch (grade_batch.hpp).
#include "assignment/grade_batch.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>

#include "assignment/grade_jobs.hpp"
#include "assignment/grade_pool.hpp"
#include "assignment/slurm_batch.hpp"
#include "exit_codes.hpp"
#include "results/safe_file.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

namespace {

// An exclusive lock on FOLDER/.lock (flock), held while it lives.
class batch_lock {
 public:
  explicit batch_lock(const fs::path& folder)
      : fd_(::open((folder / ".lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0600)) {
    held_ = fd_ >= 0 && ::flock(fd_, LOCK_EX | LOCK_NB) == 0;
  }
  ~batch_lock() {
    if (fd_ >= 0) ::close(fd_);
  }
  batch_lock(const batch_lock&) = delete;
  batch_lock& operator=(const batch_lock&) = delete;
  bool held() const { return held_; }

 private:
  int fd_ = -1;
  bool held_ = false;
};

}  // namespace

void remove_graded_folder(const fs::path& folder, const std::vector<std::string>& emitted) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return;
  // What an earlier grading emitted there, with --emit options of its own, is ours too.
  std::vector<std::string> renders = emitted;
  for (const std::string& name : emitted_in(folder)) renders.push_back(name);
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    const std::string name = entry.path().filename().string();
    const bool ours = name == "grade.json" || name == "build" || name == "tests" || name == "run" ||
                      name.rfind("perf-", 0) == 0 || name.rfind("sanitizer-", 0) == 0 || name == "results.json" ||
                      name == "junit.xml" || name == "feedback.md" || name == "feedback.html" ||
                      name == "prairielearn.json" || name == emitted_list_name || is_temporary_file_name(name) ||
                      std::find(renders.begin(), renders.end(), name) != renders.end();
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
  // A folder made before (or by another program) is closed to other users too.
  fs::permissions(out, fs::perms::owner_all, fs::perm_options::replace, ec);
  if (ec)
    fmt::print(stderr, "cudalab: grade: warning: cannot make {} private (mode 0700): {}\n", out.string(), ec.message());
  // One batch writes into a folder at a time: a second one would remove the first's students as it grades
  // them. A merge (--merge, a Slurm batch's merge job while its submitter waits) grades nothing and writes
  // each class file whole: it takes no lock.
  const batch_lock lock(out);
  if (!req.merge_only && !lock.held()) {
    fmt::print(stderr,
               "cudalab: grade: another grade is writing into {} (it holds {}); wait for it, or give --out "
               "another folder\n",
               out.string(), (out / ".lock").string());
    return exit_usage;
  }
  std::vector<std::string> left_out;
  int kept = 0;
  const std::vector<grade_job> jobs = class_jobs(a, req, left_out);
  if (req.merge_only) return merge_class(a, settings, req, jobs, kept, left_out, slurm_task_notes(out));
  std::vector<grade_job> pending;
  try {
    pending = pending_jobs(a, jobs, settings.secret, kept, req.emit);
  } catch (const write_error& e) {
    fmt::print(stderr, "cudalab: grade: {}\n", e.what());
    return exit_write_error;
  }
  if (req.slurm) return submit_to_slurm(a, settings, req, jobs, pending);
  if (!req.devices.empty()) {
    if (const int code = grade_on_devices(req, pending); code != exit_ok) return code;
    return merge_class(a, settings, req, jobs, kept, left_out);
  }
  std::vector<std::string> emitted;
  for (const emit_target& t : req.emit) emitted.push_back(t.path.filename().string());
  for (const grade_job& job : pending) {
    fmt::print("\n== {} ({}) ==\n", job.student, job.submission.string());
    try {
      remove_graded_folder(job.folder, emitted);
      graded_submission g = grade_submission(a, settings, job.submission.string(), job.student, job.folder);
      if (g.exit_code != exit_ok) return g.exit_code;  // no GPU: no later student can be graded either
      emit_renders(g.report, emit_into(req.emit, job.folder), job.folder);
    } catch (const std::exception& e) {  // this student's folder: the merge says so, the others are graded
      fmt::print(stderr, "cudalab: grade: {}: {}\n", job.student, e.what());
    }
  }
  return merge_class(a, settings, req, jobs, kept, left_out);
}

}  // namespace cudalab::host
