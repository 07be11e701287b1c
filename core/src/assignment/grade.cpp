// The course's grading of one submission (grade.hpp).
#include "assignment/grade.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "assignment/grade_batch.hpp"
#include "assignment/lms_outputs.hpp"
#include "assignment/staff_secret.hpp"
#include "assignment/test_scoring.hpp"
#include "assignment/test_session.hpp"
#include "exit_codes.hpp"
#include "labfile/spec_lookup.hpp"
#include "results/format.hpp"
#include "results/safe_file.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

namespace {

// The submission file of `path`: itself, or the assignment's file in that folder.
std::string submission_file(const loaded_assignment& a, const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return (path / a.submission_name()).string();
  return path.string();
}

}  // namespace

graded_submission grade_submission(const loaded_assignment& a, const session_settings& s, const std::string& submission,
                                   const std::string& student, const fs::path& out) {
  session_inputs in;
  in.submission = submission_file(a, submission);
  in.student = student;
  in.out = out;
  in.settings = s;
  const session_result done = run_test_session(a, grade_policy(), in);
  graded_submission g;
  g.report = done.report;
  g.exit_code = done.exit_code;
  if (done.exit_code == exit_ok && done.report.complete && done.report.submission.build.ok)
    fmt::print("\nscore: {}/{} ({} s); grade.json in {}\n", points_text(std::round(g.report.score * 10) / 10),
               points_text(a.file.points), fmt::format("{:.0f}", g.report.seconds), out.string());
  return g;
}

void emit_renders(const grade_report& report, const std::vector<emit_target>& targets) {
  for (const emit_target& t : targets) {
    const std::string text = t.kind == "gradescope"     ? gradescope_results(report)
                             : t.kind == "prairielearn" ? prairielearn_results(report)
                             : t.kind == "junit"        ? junit_xml(report)
                                                        : feedback_markdown(report);
    write_file_atomically(t.path, text);
  }
}

int grade_command(const grade_request& req) {
  loaded_assignment a;
  if (const int code = load_assignment_for_command(req.assignment, req.settings.search_path, a); code != exit_ok)
    return code;
  session_settings settings = req.settings;
  const fs::path secret_file =
      !req.secret_file.empty() ? fs::path(req.secret_file) : req.assignment.parent_path() / staff_secret_file_name;
  try {
    settings.secret = read_staff_secret(secret_file);
  } catch (const staff_secret_error& e) {
    fmt::print(stderr,
               "cudalab: grade: the staff secret: {}\n  (grade draws hidden tests and pseudonyms from it; "
               "`cudalab assignment init` makes one, --secret FILE names another)\n",
               e.what());
    return exit_usage;
  }
  if (!req.submissions.empty()) return grade_class(a, settings, req);

  std::error_code ec;
  const std::string file = submission_file(a, req.submission);
  if (!fs::is_regular_file(file, ec)) {
    fmt::print(stderr, "cudalab: grade: no submission file {}\n", file);
    return exit_usage;
  }
  if (fs::file_size(file, ec) > a.file.max_bytes) {
    fmt::print(stderr, "cudalab: grade: {} is larger than the assignment's max_bytes ({})\n", file, a.file.max_bytes);
    return exit_submission;
  }
  const std::string student =
      !req.student.empty() ? req.student : fs::path(req.submission).lexically_normal().filename().stem().string();
  const fs::path out = !req.out_dir.empty()
                           ? fs::path(req.out_dir)
                           : fs::path("grade-results") /
                                 (a.file.id + "-" + student + "-" + utc_text(std::time(nullptr), "%Y%m%d-%H%M%SZ"));
  try {
    if (req.force) remove_graded_folder(out);
    graded_submission g = grade_submission(a, settings, file, student, out);
    if (g.exit_code != exit_ok) return g.exit_code;
    emit_renders(g.report, req.emit);
  } catch (const std::exception& e) {  // a folder that cannot be made or written
    fmt::print(stderr, "cudalab: grade: {}\n", e.what());
    return exit_write_error;
  }
  return exit_ok;
}

}  // namespace cudalab::host
