// A student's check of a submission (check.hpp).
#include "assignment/check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>

#include "assignment/assignment.hpp"
#include "assignment/grade_report.hpp"
#include "assignment/lms_outputs.hpp"
#include "assignment/starter_kit.hpp"
#include "assignment/test_scoring.hpp"
#include "assignment/test_session.hpp"
#include "exit_codes.hpp"
#include "labfile/spec_lookup.hpp"
#include "results/console_text.hpp"
#include "results/format.hpp"
#include "results/safe_file.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

namespace {

// With --force: an earlier check's folder (only what check writes in it) is removed; anything else
// in it keeps it, and make_empty_folder refuses it.
void remove_earlier_check(const fs::path& out) {
  std::error_code ec;
  if (!fs::is_directory(out, ec)) return;
  for (const auto& entry : fs::directory_iterator(out, ec)) {
    const std::string name = entry.path().filename().string();
    if (name != "build" && name != "tests" && name != "run" && name != "grade.json" && name != "feedback.md" &&
        name != "feedback.html" && name.rfind("sanitizer-", 0) != 0 && name.rfind("perf-", 0) != 0)
      return;
  }
  fs::remove_all(out, ec);
}

// check's exit code from its report: a build that failed, a visible correctness or sanitizer test that
// did not pass (performance tests score, they do not fail), or none of that.
int check_exit_code(const grade_report& r, bool gpu) {
  if (!r.submission.build.ok) return exit_submission;
  if (!gpu) return exit_ok;
  for (const grade_test& g : r.tests)
    if ((g.kind == "correctness" || g.kind == "sanitizer") && g.visibility == test_visibility::visible &&
        g.status != grade_status::passed)
      return exit_verify_failed;
  return exit_ok;
}

// The projected score's line, and where everything is.
void print_projection(const loaded_assignment& a, const grade_report& r, const fs::path& out) {
  double visible = 0, hidden = 0;
  for (const assignment_test& t : a.file.tests)
    (t.visibility == test_visibility::hidden ? hidden : visible) += t.points;
  for (const hidden_test& h : a.file.hidden) hidden += h.points;
  fmt::print("\nprojected score of the visible tests: {}/{}", points_text(std::round(r.score * 10) / 10),
             points_text(visible));
  if (hidden > 0) fmt::print(" ({} more points in hidden tests, graded by the course)", points_text(hidden));
  fmt::print("\nchecked on {}; everything it ran is in {}\n", r.device ? r.device->name : "the GPU", out.string());
}

}  // namespace

int check_submission(const check_request& req) {
  loaded_assignment a;
  if (const int code = load_assignment_for_command(req.assignment, req.search_path, a); code != exit_ok) return code;
  const assignment_file& f = a.file;
  const std::string submission =
      !req.submission.empty() ? req.submission : (req.assignment.parent_path() / a.submission_name()).string();
  // The title is the kit's: shown, never obeyed.
  fmt::print("{} - checking {} ({} slot '{}' of lab '{}')\n", printable(f.title), printable(submission),
             a.slot->kind == slot_kind::kernel ? "kernel" : "launcher", a.slot->name, a.plugin->spec.name);
  std::error_code ec;
  if (!fs::is_regular_file(submission, ec)) {
    fmt::print(stderr, "cudalab: check: no submission file {}\n", submission);
    return exit_usage;
  }
  session_inputs in;
  in.submission = submission;
  in.out = !req.out_dir.empty()
               ? fs::path(req.out_dir)
               : fs::path("check-results") / (f.id + "-" + utc_text(std::time(nullptr), "%Y%m%d-%H%M%SZ"));
  in.settings.search_path = req.search_path;
  in.settings.program = req.program;
  in.settings.arch = req.arch;
  in.settings.colour = req.colour;
  session_result done;
  try {
    if (req.force) remove_earlier_check(in.out);
    make_empty_folder(in.out);
  } catch (const std::exception& e) {
    fmt::print(stderr, "cudalab: check: {}\n", e.what());
    return exit_usage;
  }
  try {
    done = run_test_session(a, check_policy(!req.no_gpu), in);
    if (done.exit_code != exit_ok) {
      if (done.exit_code == exit_no_gpu)
        fmt::print(stderr, "cudalab: check: no usable GPU; --no-gpu checks the build only\n");
      return done.exit_code;
    }
    write_file_atomically(in.out / "feedback.md", feedback_markdown(done.report));
  } catch (const std::exception& e) {  // write_error, a folder that cannot be made
    fmt::print(stderr, "cudalab: check: {}\n", e.what());
    return exit_write_error;
  }
  if (done.report.submission.build.ok && !req.no_gpu) print_projection(a, done.report, in.out);
  fmt::print("feedback: {} (the grader's feedback.md for the visible tests; feedback.html and grade.json beside it)\n",
             (in.out / "feedback.md").string());
  return check_exit_code(done.report, !req.no_gpu);
}

}  // namespace cudalab::host
