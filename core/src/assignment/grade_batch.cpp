// A class in one batch (grade_batch.hpp).
#include "assignment/grade_batch.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "assignment/class_results.hpp"
#include "assignment/digests.hpp"
#include "assignment/lms_outputs.hpp"
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

// The complete grade report in `folder` of this assignment and submission text, if there is one.
std::optional<grade_report> finished_report(const fs::path& folder, const assignment_file& f,
                                            const std::string& submission_sha256) {
  std::error_code ec;
  if (!fs::is_regular_file(folder / "grade.json", ec)) return std::nullopt;
  try {
    grade_report r = parse_grade_report(read_text(folder / "grade.json", "grade report"));
    if (r.command == "grade" && r.complete && r.assignment.digest == sha256_hex(f.text) &&
        r.submission.sha256 == submission_sha256)
      return r;
  } catch (const std::exception&) {  // half written by a killed grader, or not ours: graded again
  }
  return std::nullopt;
}

}  // namespace

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
    fmt::print(stderr, "cudalab: grade --submissions needs --out GRADES: one folder per student goes there\n");
    return exit_usage;
  }
  std::error_code ec;
  if (!fs::is_directory(req.submissions, ec)) {
    fmt::print(stderr, "cudalab: grade: --submissions {} is not a folder\n", req.submissions);
    return exit_usage;
  }
  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(req.submissions, ec)) entries.push_back(e.path());
  std::sort(entries.begin(), entries.end());
  const fs::path out(req.out_dir);
  fs::create_directories(out, ec);
  if (ec) {
    fmt::print(stderr, "cudalab: grade: cannot make {}: {}\n", out.string(), ec.message());
    return exit_write_error;
  }
  std::vector<class_entry> graded;
  int skipped = 0, resumed = 0;
  for (const fs::path& entry : entries) {
    const bool folder = fs::is_directory(entry, ec);
    const std::string student = folder ? entry.filename().string() : entry.stem().string();
    if (!usable_name(student)) {
      if (!student.empty() && student[0] != '.')
        fmt::print(stderr, "cudalab: grade: {}: not a student's name (letters, digits, . - _ @); left out\n",
                   entry.string());
      continue;
    }
    const fs::path file = folder ? entry / a.submission_name() : entry;
    if (!fs::is_regular_file(file, ec)) {
      fmt::print(stderr, "cudalab: grade: {}: no {} in it; left out\n", entry.string(), a.submission_name());
      ++skipped;
      continue;
    }
    const fs::path target = out / student;
    if (auto done = finished_report(target, a.file, submission_sha256(file.string()))) {
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
      remove_graded_folder(target);
      graded_submission g = grade_submission(a, settings, file.string(), student, target);
      if (g.exit_code != exit_ok) return g.exit_code;  // no GPU: no later student can be graded either
      std::vector<emit_target> emit = req.emit;
      for (emit_target& t : emit) t.path = target / t.path.filename();
      emit_renders(g.report, emit);
      graded.push_back({student, std::move(g.report)});
    } catch (const std::exception& e) {
      fmt::print(stderr, "cudalab: grade: {}: {}\n", student, e.what());
      return exit_write_error;
    }
  }
  try {
    write_file_atomically(out / "gradebook.csv", gradebook_csv(graded));
    const std::vector<leaderboard_row> board = class_leaderboard(graded);
    write_file_atomically(out / "leaderboard.json", leaderboard_json(a.file.id, board));
    write_file_atomically(out / "leaderboard.md", leaderboard_markdown(a.file.title, board));
    write_file_atomically(out / "class.html", class_html(a.file.title, graded, false));
    write_file_atomically(out / "class-staff.html", class_html(a.file.title, graded, true));
  } catch (const std::exception& e) {
    fmt::print(stderr, "cudalab: grade: {}\n", e.what());
    return exit_write_error;
  }
  fmt::print(
      "\n{} student(s) graded ({} kept from an earlier batch{}); gradebook.csv, leaderboard.md and class.html "
      "in {}\n",
      graded.size(), resumed, skipped ? fmt::format(", {} left out", skipped) : "", out.string());
  return exit_ok;
}

}  // namespace cudalab::host
