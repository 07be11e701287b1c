// A class in one batch (grade_batch.hpp).
#include "assignment/grade_batch.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <map>

#include "assignment/class_results.hpp"
#include "assignment/digests.hpp"
#include "assignment/lms_outputs.hpp"
#include "assignment/report_signature.hpp"
#include "assignment/test_scoring.hpp"
#include "exit_codes.hpp"
#include "labfile/text_file.hpp"
#include "results/safe_file.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

namespace {

// A student's name is a folder name of the output: letters, digits, '.', '-', '_', '@', not hidden.
bool usable_name(const std::string& s) {
  return !s.empty() && s[0] != '.' && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' || c == '@';
  });
}

// The files a batch writes beside the students' folders: no student may be called so.
const char* const class_files[] = {"gradebook.csv", "leaderboard.json", "leaderboard.md",
                                   "class.html",    "class-staff.html", "left-out.txt"};

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

// A student's hand-in in the class folder.
struct class_submission {
  std::string student;
  fs::path file;
};

// The hand-ins of the class folder `dir`, by student, in name order: a file (the student is its name
// without the extension) or a folder holding `name`. What cannot be graded - a name that is no student's,
// a name two hand-ins share, the name of a class file, a folder without the file - is left out, each with a
// line in `left_out` (and on stderr) that says why. Hidden entries (".git") are no hand-ins.
std::vector<class_submission> class_submissions(const std::string& dir, const std::string& name,
                                                std::vector<std::string>& left_out) {
  std::error_code ec;
  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(dir, ec)) entries.push_back(e.path());
  std::sort(entries.begin(), entries.end());
  std::map<std::string, std::vector<fs::path>> by_student;
  const auto leave_out = [&](const fs::path& entry, const std::string& why) {
    left_out.push_back(entry.filename().string() + ": " + why);
    fmt::print(stderr, "cudalab: grade: {}: {}; left out\n", entry.string(), why);
  };
  for (const fs::path& entry : entries) {
    const std::string base = entry.filename().string();
    if (base.empty() || base[0] == '.') continue;
    const std::string student = fs::is_directory(entry, ec) ? base : entry.stem().string();
    if (!usable_name(student))
      leave_out(entry, "not a student's name (letters, digits, . - _ @)");
    else if (std::find(std::begin(class_files), std::end(class_files), student) != std::end(class_files))
      leave_out(entry, "the name of a file the batch writes beside the students' folders");
    else
      by_student[student].push_back(entry);
  }
  std::vector<class_submission> out;
  for (const auto& [student, found] : by_student) {
    if (found.size() > 1) {
      for (const fs::path& entry : found)
        leave_out(entry, "student '" + student + "' has " + std::to_string(found.size()) +
                             " hand-ins here; keep one and grade again");
      continue;
    }
    const bool folder = fs::is_directory(found[0], ec);
    const fs::path file = folder ? found[0] / name : found[0];
    if (!fs::is_regular_file(file, ec)) {
      leave_out(found[0], folder ? "no " + name + " in it" : "not a regular file");
      continue;
    }
    out.push_back({student, file});
  }
  return out;
}

// The complete grade report in `folder` of this student's submission text, if there is one signed by this
// grader for them with this secret, assignment, lab file and cudalab (report_signature.hpp): anything else
// - a forgery, a report of a rotated secret or an older cudalab - is graded again.
std::optional<grade_report> finished_report(const fs::path& folder, const loaded_assignment& a,
                                            const std::string& student, const std::string& secret,
                                            const std::string& submission_sha256) {
  std::error_code ec;
  if (!fs::is_regular_file(folder / "grade.json", ec)) return std::nullopt;
  try {
    grade_report r = parse_grade_report(read_text(folder / "grade.json", "grade report"));
    if (r.command == "grade" && r.complete && r.assignment.digest == sha256_hex(a.file.text) &&
        r.submission.sha256 == submission_sha256 && signed_for(r, a, student, secret))
      return r;
  } catch (const std::exception&) {  // half written by a killed grader, or not ours: graded again
  }
  return std::nullopt;
}

}  // namespace

void remove_graded_folder(const fs::path& folder, const std::vector<std::string>& emitted) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    const std::string name = entry.path().filename().string();
    const bool ours = name == "grade.json" || name == "build" || name == "tests" || name == "run" ||
                      name.rfind("perf-", 0) == 0 || name.rfind("sanitizer-", 0) == 0 || name == "results.json" ||
                      name == "junit.xml" || name == "feedback.md" || name == "feedback.html" ||
                      name == "prairielearn.json" || is_temporary_file_name(name) ||
                      std::find(emitted.begin(), emitted.end(), name) != emitted.end();
    if (!ours) return;
  }
  fs::remove_all(folder, ec);
}

int grade_class(const loaded_assignment& a, const session_settings& settings, const grade_request& req) {
  if (req.out_dir.empty()) {
    fmt::print(stderr, "cudalab: grade --submissions needs --out GRADES: one folder per student goes there\n");
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
  // One batch writes into a folder at a time: a second one would remove the first's students as it grades them.
  const batch_lock lock(out);
  if (!lock.held()) {
    fmt::print(stderr,
               "cudalab: grade: another grade is writing into {} (it holds {}); wait for it, or give --out "
               "another folder\n",
               out.string(), (out / ".lock").string());
    return exit_usage;
  }
  std::vector<std::string> left_out;
  const std::vector<class_submission> students = class_submissions(req.submissions, a.submission_name(), left_out);
  std::vector<std::string> emitted;
  for (const emit_target& t : req.emit) emitted.push_back(t.path.filename().string());
  std::vector<class_entry> graded;
  int resumed = 0;
  for (const class_submission& s : students) {
    const std::string& student = s.student;
    const fs::path& file = s.file;
    const fs::path target = out / student;
    if (auto done = finished_report(target, a, student, settings.secret, submission_sha256(file.string()))) {
      fmt::print("{}: graded already ({} of {} points), kept\n", student, points_text(done->score),
                 points_text(done->max_score));
      try {  // again: a folder graded by a cudalab before feedback.html has none
        write_file_atomically(target / "feedback.html", feedback_html(*done));
      } catch (const write_error& e) {
        fmt::print(stderr, "cudalab: grade: {}: {}\n", student, e.what());
        return exit_write_error;
      }
      graded.push_back({student, std::move(*done)});
      ++resumed;
      continue;
    }
    fmt::print("\n== {} ({}) ==\n", student, file.string());
    try {
      remove_graded_folder(target, emitted);
      graded_submission g = grade_submission(a, settings, file.string(), student, target);
      if (g.exit_code != exit_ok) return g.exit_code;  // no GPU: no later student can be graded either
      std::vector<emit_target> emit = req.emit;
      for (emit_target& t : emit) t.path = target / t.path.filename();
      emit_renders(g.report, emit);
      graded.push_back({student, std::move(g.report)});
    } catch (const std::exception& e) {  // this student's folder: the others are graded all the same
      fmt::print(stderr, "cudalab: grade: {}: {}\n", student, e.what());
      left_out.push_back(student + ": could not be graded: " + e.what());
    }
  }
  try {
    write_file_atomically(out / "gradebook.csv", gradebook_csv(graded));
    const std::vector<leaderboard_row> board = class_leaderboard(graded);
    write_file_atomically(out / "leaderboard.json", leaderboard_json(a.file.id, board));
    write_file_atomically(out / "leaderboard.md", leaderboard_markdown(a.file.title, board));
    write_file_atomically(out / "class.html", class_html(a.file.title, graded, false));
    write_file_atomically(out / "class-staff.html", class_html(a.file.title, graded, true));
    std::string left;
    for (const std::string& line : left_out) left += line + "\n";
    const fs::path left_file = out / "left-out.txt";
    if (!left.empty())
      write_file_atomically(left_file, left);
    else
      fs::remove(left_file, ec);
  } catch (const std::exception& e) {
    fmt::print(stderr, "cudalab: grade: {}\n", e.what());
    return exit_write_error;
  }
  fmt::print(
      "\n{} student(s) graded ({} kept from an earlier batch{}); gradebook.csv, leaderboard.md and class.html "
      "in {}\n",
      graded.size(), resumed, left_out.empty() ? "" : fmt::format(", {} left out: see left-out.txt", left_out.size()),
      out.string());
  // Every hand-in is graded or named here: a batch that left any out says so in its exit code too.
  return left_out.empty() ? exit_ok : exit_submission;
}

}  // namespace cudalab::host
