// A student's check of a submission (check.hpp).
#include "assignment/check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>

#include "assignment/assignment.hpp"
#include "assignment/digests.hpp"
#include "assignment/grade_report.hpp"
#include "assignment/lms_outputs.hpp"
#include "assignment/starter_kit.hpp"
#include "compare/result_set.hpp"
#include "exit_codes.hpp"
#include "isolation/child_process.hpp"
#include "labfile/text_file.hpp"
#include "plugin/spec_lookup.hpp"
#include "results/format.hpp"
#include "results/safe_file.hpp"
#include "run_labs.hpp"
#include "slots/submission.hpp"
#include "toolkit_programs.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

namespace {

// What came of one test.
struct test_outcome {
  const assignment_test* test = nullptr;
  bool ran = false;
  bool passed = false;
  grade_status status = grade_status::skipped;
  double score = 0;                  ///< points earned
  std::optional<double> metric;      ///< performance: the metric's median over the points
  std::string summary;               ///< one line, for the console
  std::string message;               ///< the report's one line ("" : the summary)
  std::vector<std::string> details;  ///< failing points, sanitizer findings
  std::optional<grade_flag> flag;    ///< an integrity finding
};

std::string points_text(double v) { return fmt::format("{:g}", v); }

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A student result that failed, in a line: the point and why.
std::string failure_line(const variant_result& r) {
  std::string where;
  for (const auto& [k, v] : r.point) where += (where.empty() ? "" : " ") + k + "=" + v;
  if (where.empty()) where = "the test's point";
  std::string why = r.error;
  if (r.status == result_status::verify_failed) {
    why = fmt::format("{} of {} elements wrong", r.verification.mismatches, r.verification.checked);
    if (!r.verification.first_mismatches.empty()) why += ", first " + r.verification.first_mismatches.front();
    if (!r.verification.note.empty()) why += " (" + r.verification.note + ")";
  }
  return where + ": " + why;
}

// The student's results of the run in `folder` (results.json, or what a stopped run left in
// results.jsonl), by test lab file; none, after saying why, when the run wrote nothing readable.
std::map<std::string, std::vector<variant_result>> student_results(const fs::path& folder, const std::string& variant,
                                                                   run_context& context) {
  std::map<std::string, std::vector<variant_result>> by_file;
  try {
    result_set run = read_result_set(folder);
    context = std::move(run.context);
    for (variant_result& r : run.results)
      if (r.variant == variant) by_file[r.lab_file].push_back(std::move(r));
  } catch (const result_set_error& e) {
    fmt::print(stderr, "cudalab: check: no results to score: {}\n", e.what());
  }
  return by_file;
}

void score_correctness(test_outcome& o, const std::vector<variant_result>& rs, int max_failures) {
  const assignment_test& t = *o.test;
  o.ran = true;
  std::size_t good = 0;
  for (const variant_result& r : rs) {
    if (r.status == result_status::ok && r.verification.passed)
      ++good;
    else if (int(o.details.size()) < max_failures)
      o.details.push_back(failure_line(r));
  }
  o.passed = !rs.empty() && good == rs.size();
  o.score = o.passed ? t.points : (t.partial && !rs.empty() ? t.points * double(good) / double(rs.size()) : 0);
  // A child the watchdog stopped reports "timed out after N s" (isolation/child_process's describe()).
  const bool timed_out = std::any_of(rs.begin(), rs.end(), [](const variant_result& r) {
    return r.status == result_status::error && r.error.find("timed out after") != std::string::npos;
  });
  o.status = rs.empty()  ? grade_status::error
             : o.passed  ? grade_status::passed
             : timed_out ? grade_status::timed_out
                         : grade_status::failed;
  o.summary = rs.empty() ? "no result (see the run's messages above)"
                         : fmt::format("{} of {} points verified", good, rs.size());
}

void score_performance(test_outcome& o, const std::vector<variant_result>& rs, const run_context& context,
                       const std::map<std::string, bool>& passed, const assignment_file& a) {
  const assignment_test& t = *o.test;
  o.ran = true;
  for (const std::string& req : t.requires)
    if (!passed.count(req) || !passed.at(req)) {
      o.summary = "0 points: it requires '" + req + "' to pass first";
      o.message = "not run: it requires '" + req + "' to pass first";
      return;
    }
  std::vector<double> values;
  for (const variant_result& r : rs) {
    if (r.status != result_status::ok || !r.verification.passed || !r.time.timed) {
      o.details.push_back(failure_line(r));
      o.summary = "not timed: the submission must verify at every point";
      o.status = grade_status::failed;
      return;
    }
    const double ceiling = context.measured.d2d_copy_gbps;
    if (r.bytes.path == memory_path::device && ceiling > 0 && r.gbps > a.roofline_margin * ceiling) {
      o.summary = fmt::format(
          "held: {:.0f} GB/s is above {} x the measured ceiling ({:.0f} GB/s) - no correct "
          "submission moves its bytes that fast",
          r.gbps, a.roofline_margin, ceiling);
      o.message = o.summary.substr(std::string("held: ").size());
      o.status = grade_status::held;
      o.flag = grade_flag{"roofline", "blocking",
                          fmt::format("{}: {:.0f} GB/s is above {} x the measured D2D ceiling ({:.0f} GB/s)", t.name,
                                      r.gbps, a.roofline_margin, ceiling)};
      return;
    }
    values.push_back(t.metric == "pct_of_ceiling" ? r.pct_of_ceiling : r.pct_of_baseline);
  }
  if (values.empty()) {
    o.summary = "no result (see the run's messages above)";
    o.status = grade_status::error;
    return;
  }
  std::sort(values.begin(), values.end());
  o.metric = values[values.size() / 2];
  const double fraction = std::clamp((*o.metric - t.zero_at) / (t.full_at - t.zero_at), 0.0, 1.0);
  o.score = t.points * fraction;
  o.passed = fraction > 0;
  o.status = o.passed ? grade_status::passed : grade_status::failed;
  o.summary = fmt::format("{} {:.1f}% (0 points at {}, all at {})",
                          t.metric == "pct_of_ceiling" ? "of the ceiling:" : "of the baseline:", *o.metric,
                          points_text(t.zero_at), points_text(t.full_at));
}

// A sanitizer test: `cudalab run TEST --submission SLOT=BUILT --isolate=none` under compute-sanitizer.
void run_sanitizer(test_outcome& o, const check_request& req, const loaded_assignment& a, const fs::path& lab_file,
                   const std::string& built, const fs::path& out, double seconds_left) {
  const assignment_test& t = *o.test;
  o.ran = true;
  const auto sanitizer = find_toolkit_program("compute-sanitizer");
  if (!sanitizer) {
    o.summary = "not run: compute-sanitizer (CUDA toolkit) was not found";
    o.message = "compute-sanitizer (CUDA toolkit) was not found";
    return;
  }
  child_request c;
  c.program = sanitizer->string();
  c.argv = {c.program, "--tool", t.tool, "--error-exitcode", std::to_string(exit_cuda_error), "--print-limit", "10"};
  if (t.tool == "racecheck") c.argv.insert(c.argv.end(), {"--racecheck-report", "hazard"});
  c.argv.insert(c.argv.end(), {req.program, "run", "--isolate=none", "--format", "csv", "--out", out.string(),
                               "--submission", a.slot->name + "=" + built});
  for (const fs::path& p : req.search_path) c.argv.push_back("--plugin-path=" + p.string());
  c.argv.push_back(lab_file.string());
  // The sanitizer slows kernels down many times; never past the check's total time.
  c.timeout_s = std::min(a.file.unit_timeout_s * 20, seconds_left);
  // The sanitizer's findings: each report's first line ("Invalid __global__ write of size 4 bytes") and
  // where it happened ("at vector_copy+0x70 in vector_copy.cu:7", with -lineinfo).
  bool after_report = false;
  c.on_output_line = [&](const std::string& line) {
    const std::string prefix = "========= ";
    if (line.rfind(prefix, 0) != 0) return;
    const std::string text = line.substr(prefix.size());
    const std::string trimmed = text.substr(std::min(text.find_first_not_of(' '), text.size()));
    const bool summary = trimmed.find("SUMMARY") != std::string::npos;
    const bool report = !summary && (trimmed.rfind("Invalid", 0) == 0 || trimmed.rfind("Race", 0) == 0 ||
                                     trimmed.rfind("Error", 0) == 0 || trimmed.find("hazard") != std::string::npos ||
                                     trimmed.rfind("Uninitialized", 0) == 0 || trimmed.rfind("Barrier", 0) == 0);
    if (int(o.details.size()) < 2 * a.file.max_failures && (report || (after_report && trimmed.rfind("at ", 0) == 0)))
      o.details.push_back(trimmed);
    after_report = report;
  };
  const child_outcome e = run_child(c);
  if (e.ended_normally() && e.exit_code == exit_ok) {
    o.details.clear();
    o.passed = true;
    o.status = grade_status::passed;
    o.score = t.points;
    o.summary = t.tool + ": no errors";
    return;
  }
  o.status = grade_status::failed;
  if (e.ended_normally() && e.exit_code == exit_cuda_error) {
    o.summary = t.tool + " found errors";
  } else if (e.ended_normally() && e.exit_code == exit_verify_failed) {
    o.details.clear();  // a clean run whose output is wrong earns nothing here either
    o.summary = t.tool + ": no sanitizer error, but the output is wrong (the correctness tests say where)";
  } else {
    o.status = e.timed_out ? grade_status::timed_out : grade_status::error;
    o.summary = t.tool + ": the run " + e.describe();
  }
}

// With --force: an earlier check's folder (only what check writes in it) is removed; anything else
// in it keeps it, and make_empty_folder refuses it.
void remove_earlier_check(const fs::path& out) {
  std::error_code ec;
  if (!fs::is_directory(out, ec)) return;
  for (const auto& entry : fs::directory_iterator(out, ec)) {
    const std::string name = entry.path().filename().string();
    if (name != "build" && name != "tests" && name != "run" && name != "grade.json" && name != "feedback.md" &&
        name.rfind("sanitizer-", 0) != 0)
      return;
  }
  fs::remove_all(out, ec);
}

// The SHA-256 of the submission's text, read as its build read it (read_text); of nothing when it
// cannot be read any more.
std::string submission_sha256(const fs::path& path) {
  try {
    return sha256_hex(read_text(path, "submission"));
  } catch (const lab_file_error&) {
    return sha256_hex("");
  }
}

// What a test runs at, as its assignment file says ("block = 128, n = [1, 3, 31]").
std::string parameters_of(const assignment_test& t) {
  std::string out;
  for (const std::string& line : t.params) out += (out.empty() ? "" : ", ") + line;
  for (const std::string& line : t.sweep) out += (out.empty() ? "" : ", ") + line;
  if (!t.random_text.empty()) out += (out.empty() ? "" : ", ") + t.random_text;
  return out;
}

// The report of a check before anything is scored: the assignment, the submission and its build, and
// every test skipped - the visible ones with `why`, the hidden ones as graded by the course.
grade_report check_report(const loaded_assignment& a, const std::string& submission, const grade_build& build,
                          const std::string& why) {
  const assignment_file& f = a.file;
  grade_report r;
  r.command = "check";
  r.cudalab_version = CUDALAB_VERSION;
  r.graded_at = utc_text(std::time(nullptr), "%Y-%m-%dT%H:%M:%SZ");
  r.assignment = {f.id, f.title, f.points, sha256_hex(f.text)};
  r.submission.sha256 = submission_sha256(submission);
  r.submission.files = {fs::path(submission).filename().string()};
  r.submission.build = build;
  r.max_score = f.points;
  for (const assignment_test& t : f.tests) {
    grade_test g;
    g.id = g.name = t.name;
    g.kind = test_kind_name(t.kind);
    g.visibility = t.visibility;
    g.max_points = t.points;
    g.parameters = parameters_of(t);
    g.message = t.visibility == test_visibility::hidden ? "graded by the course, not by check" : why;
    r.tests.push_back(std::move(g));
  }
  for (const hidden_test& h : f.hidden) {  // a kit's copy: the hidden tests as described
    grade_test g;
    g.id = g.name = h.name;
    g.kind = h.kind;
    g.visibility = test_visibility::hidden;
    g.max_points = h.points;
    g.message = "graded by the course, not by check";
    r.tests.push_back(std::move(g));
  }
  return r;
}

// A scored test into the report: its test's entry, or a new one for the implicit racecheck.
void add_outcome(grade_report& r, const test_outcome& o, bool implicit) {
  auto it = std::find_if(r.tests.begin(), r.tests.end(), [&](const grade_test& g) { return g.id == o.test->name; });
  if (implicit || it == r.tests.end()) {
    grade_test g;
    g.id = "implicit-" + o.test->name;
    g.name = o.test->name + " (not graded)";
    g.kind = test_kind_name(o.test->kind);
    g.parameters = parameters_of(*o.test);
    r.tests.push_back(std::move(g));
    it = std::prev(r.tests.end());
  }
  grade_test& g = *it;
  g.points = o.score;
  g.status = o.status;
  g.message = o.message.empty() ? o.summary : o.message;
  if (o.metric) g.metric = grade_metric{o.test->metric, *o.metric, std::nullopt, 1};
  g.feedback_md.clear();
  // Each line as code: compiler and sanitizer text holds underscores and stars Markdown would eat.
  for (std::string d : o.details) {
    std::replace(d.begin(), d.end(), '`', '\'');
    g.feedback_md += "- `" + d + "`\n";
  }
  if (o.flag) r.flags.push_back(*o.flag);
}

// grade.json and feedback.md into the check's folder; exit_ok, or exit_write_error after saying why.
int write_check_report(const fs::path& out, const grade_report& r) {
  try {
    write_grade_report(out / "grade.json", r);
    write_file_atomically(out / "feedback.md", feedback_markdown(r));
  } catch (const write_error& e) {
    fmt::print(stderr, "cudalab: check: {}\n", e.what());
    return exit_write_error;
  }
  fmt::print("feedback: {} (the grader's feedback.md for the visible tests; grade.json beside it)\n",
             (out / "feedback.md").string());
  return exit_ok;
}

}  // namespace

int check_submission(const check_request& req) {
  const auto started = std::chrono::steady_clock::now();  // total_timeout_s counts from here
  loaded_assignment a;
  try {
    a = load_assignment(req.assignment, req.search_path);
  } catch (const lab_file_error& e) {
    fmt::print(stderr, "{}\n", e.what());
    return exit_bad_lab_file;
  } catch (const plugin_error& e) {
    fmt::print(stderr, "cudalab: {}\n", e.what());
    return exit_plugin;
  }
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
  build_policy policy;
  policy.flags = f.flags;
  policy.deny_headers = f.deny_headers;
  policy.allow_libraries = f.allow_libraries;
  policy.timeout_s = f.compile_timeout_s;
  built_submission built;
  const auto build_started = std::chrono::steady_clock::now();
  try {
    built = build_submission(*a.slot, submission, req.arch, policy, out / "build");
  } catch (const std::exception& e) {
    fmt::print(stderr, "cudalab: check: {}\n", e.what());
    return exit_submission;
  }
  grade_build build;
  build.ok = built.ok;
  build.seconds = seconds_since(build_started);
  build.command = fmt::format("{} for {}", a.slot->kind == slot_kind::kernel ? "NVRTC" : "nvcc", req.arch);
  for (const std::string& flag : f.flags) build.command += " " + flag;
  for (const compile_diagnostic& d : built.diagnostics) {
    fmt::print("  {}\n", d.text());
    build.log_tail += d.text() + "\n";
  }
  if (!built.ok) {
    fmt::print("build: FAILED ({} for {}) - nothing was run\n", a.slot->kind == slot_kind::kernel ? "NVRTC" : "nvcc",
               req.arch);
    grade_report report = check_report(a, submission, build, "the submission does not build");
    report.seconds = seconds_since(started);
    const int code = write_check_report(out, report);
    return code == exit_ok ? exit_submission : code;
  }
  fmt::print("build: ok ({} for {}, the grader's flags and header policy)\n",
             a.slot->kind == slot_kind::kernel ? "NVRTC" : "nvcc", req.arch);

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
    grade_report report = check_report(a, submission, build, "runs on a GPU; --no-gpu checked the build only");
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
    run_request r;
    plan_request pr;
    pr.files = run_files;
    pr.search_path = req.search_path;
    pr.submitted_slots = std::vector<std::string>{a.slot->name};
    r.plans = plan_lab_files(pr);
    r.isolate = isolation_mode::file;
    r.timeout_s = f.unit_timeout_s;
    r.out_dir = (out / "run").string();
    r.colour = req.colour;
    r.submissions = {{a.slot->name, submission}};
    r.build = policy;
    r.command_line = "cudalab check " + req.assignment.string();
    r.child.argv0 = req.program;
    for (const fs::path& p : req.search_path) r.child.plugin_paths.push_back(p.string());
    r.child.submissions = {a.slot->name + "=" + submission};
    r.time_limit_s = f.total_timeout_s;
    const int code = run_labs(r);
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
    results = student_results(out / "run", variant, context);
    const fs::path gpu_built = out / "run" / "submissions" / built_file_name(*a.slot);
    if (fs::exists(gpu_built, ec)) built_for_gpu = gpu_built.string();
  }

  // 4. Scores, correctness first (performance tests may require them).
  std::map<std::string, bool> passed;
  for (test_outcome& o : outcomes)
    if (o.test->kind == test_kind::correctness) {
      score_correctness(o, results[lab_of[o.test].string()], f.max_failures);
      passed[o.test->name] = o.passed;
    }
  for (test_outcome& o : outcomes)
    if (o.test->kind == test_kind::performance)
      score_performance(o, results[lab_of[o.test].string()], context, passed, f);
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
    run_sanitizer(o, req, a, lab_of[o.test], built_for_gpu.empty() ? submission : built_for_gpu,
                  out / ("sanitizer-" + o.test->name), left);
  }

  // 5. The report.
  double earned = 0, visible = 0, hidden = 0;
  bool failed = false;
  fmt::print("\n{:<22} {:<12} {:>9}  {}\n", "test", "kind", "points", "result");
  grade_report report = check_report(a, submission, build, "");
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
