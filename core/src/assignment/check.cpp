// A student's check of a submission (check.hpp).
#include "assignment/check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>

#include "assignment/assignment.hpp"
#include "assignment/grade_report.hpp"
#include "assignment/lms_outputs.hpp"
#include "assignment/sanitizer_test.hpp"
#include "assignment/starter_kit.hpp"
#include "assignment/test_run.hpp"
#include "assignment/test_scoring.hpp"
#include "exit_codes.hpp"
#include "labfile/spec_lookup.hpp"
#include "results/format.hpp"
#include "results/safe_file.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// With --force: an earlier check's folder (only what check writes in it) is removed; anything else
// in it keeps it, and make_empty_folder refuses it.
void remove_earlier_check(const fs::path& out) {
  std::error_code ec;
  if (!fs::is_directory(out, ec)) return;
  for (const auto& entry : fs::directory_iterator(out, ec)) {
    const std::string name = entry.path().filename().string();
    if (name != "build" && name != "tests" && name != "run" && name != "grade.json" && name != "feedback.md" &&
        name != "feedback.html" && name.rfind("sanitizer-", 0) != 0)
      return;
  }
  fs::remove_all(out, ec);
}

// The report of a check before anything is scored: every test skipped, the visible ones with `why`,
// the hidden ones as graded by the course.
grade_report check_report(const assignment_file& f, const std::string& submission, const grade_build& build,
                          const std::string& why) {
  return new_grade_report("check", f, submission, build, why, "graded by the course, not by check");
}

// grade.json, feedback.md and feedback.html into the check's folder; exit_ok, or exit_write_error after saying why.
int write_check_report(const fs::path& out, const grade_report& r) {
  try {
    write_grade_report(out / "grade.json", r);
    write_file_atomically(out / "feedback.md", feedback_markdown(r));
    write_file_atomically(out / "feedback.html", feedback_html(r));
  } catch (const write_error& e) {
    fmt::print(stderr, "cudalab: check: {}\n", e.what());
    return exit_write_error;
  }
  fmt::print("feedback: {} (the grader's feedback.md for the visible tests; feedback.html and grade.json beside it)\n",
             (out / "feedback.md").string());
  return exit_ok;
}

}  // namespace

int check_submission(const check_request& req) {
  const auto started = std::chrono::steady_clock::now();  // total_timeout_s counts from here
  loaded_assignment a;
  if (const int code = load_assignment_for_command(req.assignment, req.search_path, a); code != exit_ok) return code;
  const assignment_file& f = a.file;
  const std::string submission =
      !req.submission.empty() ? req.submission : (req.assignment.parent_path() / a.submission_name()).string();
  fmt::print("{} - checking {} ({} slot '{}' of lab '{}')\n", f.title, submission,
             a.slot->kind == slot_kind::kernel ? "kernel" : "launcher", a.slot->name, a.plugin->spec.name);
  std::error_code ec;
  const auto size = fs::file_size(submission, ec);
  if (ec || !fs::is_regular_file(submission, ec)) {
    fmt::print(stderr, "cudalab: check: no submission file {}\n", submission);
    return exit_usage;
  }
  if (size > f.max_bytes) {
    fmt::print("build: FAILED - {} has {} bytes, more than the assignment's max_bytes ({})\n", submission, size,
               f.max_bytes);
    return exit_submission;
  }
  const fs::path out = !req.out_dir.empty()
                           ? fs::path(req.out_dir)
                           : fs::path("check-results") / (f.id + "-" + utc_text(std::time(nullptr), "%Y%m%d-%H%M%SZ"));
  try {
    if (req.force) remove_earlier_check(out);
    make_empty_folder(out);
  } catch (const std::exception& e) {
    fmt::print(stderr, "cudalab: check: {}\n", e.what());
    return exit_usage;
  }

  // 1. The build, as the grader builds it.
  graded_build built;
  try {
    built = build_graded(a, submission, req.arch, out / "build");
  } catch (const std::exception& e) {
    fmt::print(stderr, "cudalab: check: {}\n", e.what());
    return exit_submission;
  }
  const grade_build& build = built.report;
  if (!build.ok) {
    fmt::print("build: FAILED ({}) - nothing was run\n", build.command);
    grade_report report = check_report(f, submission, build, "the submission does not build");
    report.seconds = seconds_since(started);
    const int code = write_check_report(out, report);
    return code == exit_ok ? exit_submission : code;
  }
  fmt::print("build: ok ({}, the grader's flags and header policy)\n", build.command);

  // 2. The visible tests' lab files.
  fs::create_directories(out / "tests", ec);
  std::vector<test_outcome> outcomes;
  std::vector<std::string> run_files;
  std::map<const assignment_test*, fs::path> lab_of;
  for (const assignment_test& t : f.tests) {
    if (t.visibility != test_visibility::visible) continue;
    const fs::path file = out / "tests" / (t.name + ".toml");
    write_file_atomically(file, a.test_lab(t));
    lab_of[&t] = file;
    test_outcome o;
    o.test = &t;
    outcomes.push_back(std::move(o));
    if (t.kind != test_kind::sanitizer) run_files.push_back(file.string());
  }
  // Racecheck always runs: when the assignment has no visible racecheck test, on the first visible
  // correctness test's points, for no points (shared-memory races are a student's commonest bug).
  assignment_test implicit_racecheck;
  const bool has_racecheck = std::any_of(outcomes.begin(), outcomes.end(), [](const test_outcome& o) {
    return o.test->kind == test_kind::sanitizer && o.test->tool == "racecheck";
  });
  const auto first_correctness = std::find_if(
      outcomes.begin(), outcomes.end(), [](const test_outcome& o) { return o.test->kind == test_kind::correctness; });
  const bool add_racecheck = !has_racecheck && first_correctness != outcomes.end();
  if (add_racecheck) {
    implicit_racecheck = *first_correctness->test;
    implicit_racecheck.name = "racecheck";
    implicit_racecheck.kind = test_kind::sanitizer;
    implicit_racecheck.tool = "racecheck";
    implicit_racecheck.points = 0;
    lab_of[&implicit_racecheck] = lab_of[first_correctness->test];
    test_outcome o;
    o.test = &implicit_racecheck;
    outcomes.push_back(std::move(o));
  }
  if (req.no_gpu) {
    fmt::print(
        "--no-gpu: the build and header policy pass; the {} visible test(s) run on a GPU (their lab files are "
        "in {})\n",
        outcomes.size() - (add_racecheck ? 1 : 0), (out / "tests").string());
    grade_report report = check_report(f, submission, build, "runs on a GPU; --no-gpu checked the build only");
    report.seconds = seconds_since(started);
    return write_check_report(out, report);
  }

  // 3. Correctness and performance tests: one isolated run, each test's lab file in a child, all of
  // it within the assignment's total_timeout_s (the run stops as on Ctrl-C when it passes).
  bool out_of_time = false;
  const std::string variant = student_variant(a.slot->name);
  std::map<std::string, std::vector<variant_result>> results;
  run_context context;
  std::string built_for_gpu;
  if (!run_files.empty()) {
    test_run_request r;
    r.assignment = &a;
    r.files = run_files;
    r.submission = submission;
    r.out = out / "run";
    r.search_path = req.search_path;
    r.program = req.program;
    r.command_line = "cudalab check " + req.assignment.string();
    r.colour = req.colour;
    r.time_limit_s = f.total_timeout_s;
    const int code = run_tests(r);
    if (code == exit_no_gpu || code == exit_submission || code == exit_usage || code == exit_write_error) {
      if (code == exit_no_gpu) fmt::print(stderr, "cudalab: check: no usable GPU; --no-gpu checks the build only\n");
      return code;
    }
    if (code == exit_interrupted) {
      if (seconds_since(started) < f.total_timeout_s) return code;  // Ctrl-C: the student stopped it
      out_of_time = true;
      fmt::print("the assignment's total_timeout_s ({} s) ran out: what was measured is scored, the rest is not\n",
                 points_text(f.total_timeout_s));
    }
    results = student_results(out / "run", variant, context, "check");
    const fs::path gpu_built = out / "run" / "submissions" / built_file_name(*a.slot);
    if (fs::exists(gpu_built, ec)) built_for_gpu = gpu_built.string();
  }

  // 4. Scores, correctness first (performance tests may require them).
  std::map<std::string, bool> passed;
  for (test_outcome& o : outcomes)
    if (o.test->kind == test_kind::correctness) {
      score_correctness(o, results[lab_of[o.test].string()], f.max_failures);
      judge_census(o, results[lab_of[o.test].string()], f.census);
      passed[o.test->name] = o.passed;
    }
  for (test_outcome& o : outcomes)
    if (o.test->kind == test_kind::performance) {
      score_performance(o, {results[lab_of[o.test].string()]}, context, passed, f);
      judge_census(o, results[lab_of[o.test].string()], f.census);
    }
  // The sanitizers only look at a submission whose output is right: one that fails earns nothing here
  // anyway, and one that never ends would hold the sanitizer (much slower) for its whole budget.
  const bool correct = std::all_of(passed.begin(), passed.end(), [](const auto& p) { return p.second; });
  for (test_outcome& o : outcomes) {
    if (o.test->kind != test_kind::sanitizer) continue;
    const double left = f.total_timeout_s - seconds_since(started);
    if (!correct || out_of_time || left <= 0) {
      o.ran = true;
      o.message = correct ? "the assignment's total_timeout_s ran out" : "the correctness tests must pass first";
      o.summary = o.test->tool + ": not run, " + o.message;
      continue;
    }
    sanitizer_run sr;
    sr.program = req.program;
    sr.search_path = req.search_path;
    sr.lab_file = lab_of[o.test];
    sr.slot = a.slot->name;
    sr.built = built_for_gpu.empty() ? submission : built_for_gpu;
    sr.out = out / ("sanitizer-" + o.test->name);
    // The sanitizer slows kernels down many times; never past the check's total time.
    sr.timeout_s = std::min(f.unit_timeout_s * 20, left);
    sr.max_details = 2 * f.max_failures;
    run_sanitizer_test(o, sr);
  }

  // 5. The report.
  double earned = 0, visible = 0, hidden = 0;
  bool failed = false;
  fmt::print("\n{:<22} {:<12} {:>9}  {}\n", "test", "kind", "points", "result");
  grade_report report = check_report(f, submission, build, "");
  for (const test_outcome& o : outcomes) {
    const assignment_test& t = *o.test;
    earned += o.score;
    visible += t.points;
    if (t.kind != test_kind::performance && !o.passed) failed = true;
    fmt::print("{:<22} {:<12} {:>9}  {}{}\n", t.name, test_kind_name(t.kind),
               &t == &implicit_racecheck ? std::string("not graded")
                                         : points_text(std::round(o.score * 10) / 10) + "/" + points_text(t.points),
               o.passed ? "" : (t.kind == test_kind::performance ? "" : "FAILED: "), o.summary);
    for (const std::string& d : o.details) fmt::print("{:<22}   {}\n", "", d);
    add_outcome(report, o, &t == &implicit_racecheck);
  }
  for (const assignment_test& t : f.tests)
    if (t.visibility == test_visibility::hidden) hidden += t.points;
  for (const hidden_test& h : f.hidden) hidden += h.points;
  fmt::print("\nprojected score of the visible tests: {}/{}", points_text(std::round(earned * 10) / 10),
             points_text(visible));
  if (hidden > 0) fmt::print(" ({} more points in hidden tests, graded by the course)", points_text(hidden));
  fmt::print("\nchecked on {}; everything it ran is in {}\n",
             context.device.name.empty() ? "the GPU" : context.device.name, out.string());
  report.score = earned;
  report.seconds = seconds_since(started);
  if (!context.device.name.empty()) {
    report.device = context.device;
    report.measured = context.measured;
  }
  const int written = write_check_report(out, report);
  if (written != exit_ok) return written;
  return failed ? exit_verify_failed : exit_ok;
}

}  // namespace cudalab::host
