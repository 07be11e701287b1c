// One submission through an assignment's tests, as check and grade both do it (test_session.hpp).
#include "assignment/test_session.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>

#include "assignment/confidence.hpp"
#include "assignment/digests.hpp"
#include "assignment/lms_outputs.hpp"
#include "assignment/pseudonyms.hpp"
#include "assignment/report_signature.hpp"
#include "assignment/sanitizer_test.hpp"
#include "assignment/starter_kit.hpp"
#include "assignment/student_seeds.hpp"
#include "assignment/test_run.hpp"
#include "assignment/test_scoring.hpp"
#include "exit_codes.hpp"
#include "labfile/spec_lookup.hpp"
#include "results/console_text.hpp"
#include "results/safe_file.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

session_policy check_policy(bool gpu) {
  session_policy p;
  p.command = "check";
  p.implicit_racecheck = true;
  p.gpu = gpu;
  return p;
}

session_policy grade_policy() {
  session_policy p;
  p.command = "grade";
  p.hidden_tests = true;
  p.rounds = true;
  p.integrity_tests = true;
  p.launchers_apart = true;
  return p;
}

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The card a session's runs used: the process sees one (a --devices worker's child is shown its own, a
// Slurm task the one Slurm gave it), named by the grader's number for it, its PCI bus id and the machine.
graded_gpu graded_on(const std::string& pci_bus_id, int device) {
  graded_gpu g;
  g.index = device;
  if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES")) g.visible_devices = visible;
  g.pci_bus_id = pci_bus_id;
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0) g.host = host;
  return g;
}

// The student's results of one isolated run, by test lab file.
using results_by_file = std::map<std::string, std::vector<variant_result>>;

class test_session {
 public:
  test_session(const loaded_assignment& a, const session_policy& policy, const session_inputs& in)
      : a_(a), f_(a.file), policy_(policy), in_(in) {}

  session_result run();

 private:
  // The stages, in order; each scores what it ran into the report and saves it.
  bool build();
  void no_gpu();
  bool correctness();
  bool performance();
  void sanitizers();
  void integrity();
  void finish();

  // The tests this session runs (check: the visible ones), with an outcome each, in the file's order.
  void select_tests();
  // The lab file of test `t` for this student (a hidden test drawn from the staff secret), as `name`.toml.
  fs::path write_test_file(const assignment_test& t, const std::string& name);
  std::string lab_text(const assignment_test& t);
  // Runs `files` against the submission into `folder`, a child per file or, `isolate` = variant, per
  // variant at each point; the student's results by file in `results`, or an exit code that ends the
  // session (no GPU, ...).
  int run_files(const std::vector<std::string>& files, const fs::path& folder, results_by_file& results,
                run_context& context, isolation_mode isolate = isolation_mode::file);
  void grade_performance(test_outcome& o);
  void add_integrity(const std::string& id, const std::string& name, grade_status status, const std::string& message);
  double seconds_left() const { return f_.total_timeout_s - seconds_since(started_); }
  bool out_of_time() const { return seconds_left() <= 0; }
  void save();
  void print_table() const;
  const std::string& submission_to_run() const { return built_for_gpu_.empty() ? in_.submission : built_for_gpu_; }

  const loaded_assignment& a_;
  const assignment_file& f_;
  const session_policy& policy_;
  const session_inputs& in_;
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  session_result result_;
  grade_report& report_ = result_.report;
  std::vector<test_outcome> outcomes_;
  std::unique_ptr<assignment_test> implicit_racecheck_;  // check's racecheck, when the assignment runs none
  std::map<const assignment_test*, std::string> drawn_;  // each test's lab text, drawn once
  std::map<const assignment_test*, fs::path> lab_of_;    // each correctness or sanitizer test's lab file
  std::map<std::string, bool> passed_;                   // correctness tests by name: passed
  results_by_file correctness_;
  std::string built_for_gpu_;  // the submission as the first run built it for the GPU
};

std::string test_session::lab_text(const assignment_test& t) {
  if (!draws_for_student(t, policy_.hidden_tests && !in_.settings.secret.empty())) return a_.test_lab(t);
  test_draw d;
  d.axes_seed = student_seed(in_.settings.secret, f_.id, in_.student, t.name, 0);
  d.input_seed = student_seed(in_.settings.secret, f_.id, in_.student, t.name, 1);
  std::string text = test_lab_text(f_, t, a_.base, student_variant(a_.slot->name), d);
  report_.staff.seed_digests.push_back(t.name + ": " +
                                       sha256_hex(fmt::format("{:016x} {:016x}", d.axes_seed, d.input_seed)));
  report_.staff.input_digests.push_back(t.name + ": " + sha256_hex(text));
  return text;
}

fs::path test_session::write_test_file(const assignment_test& t, const std::string& name) {
  auto it = drawn_.find(&t);
  if (it == drawn_.end()) it = drawn_.emplace(&t, lab_text(t)).first;
  fs::path file = in_.out / "tests" / (name + ".toml");
  write_file_atomically(file, it->second);
  return file;
}

// grade.json and the student's feedback.html (from the student's copy) as they stand.
void test_session::save() {
  report_.seconds = seconds_since(started_);
  if (!in_.settings.secret.empty()) sign_report(report_, a_, in_.student, in_.settings.secret);
  write_grade_report(in_.out / "grade.json", report_);
  write_file_atomically(in_.out / "feedback.html", feedback_html(report_));
}

int test_session::run_files(const std::vector<std::string>& files, const fs::path& folder, results_by_file& results,
                            run_context& context, isolation_mode isolate) {
  test_run_request r;
  r.assignment = &a_;
  r.files = files;
  r.submission = submission_to_run();
  r.out = folder;
  r.search_path = in_.settings.search_path;
  r.program = in_.settings.program;
  r.command_line = "cudalab " + policy_.command + " " + f_.path.string();
  r.colour = in_.settings.colour;
  r.time_limit_s = std::max(1.0, seconds_left());
  r.sandbox = in_.settings.sandbox;
  r.isolate = isolate;
  r.launchers_apart = policy_.launchers_apart;
  const int code = run_tests(r);
  if (code == exit_no_gpu || code == exit_submission || code == exit_usage || code == exit_write_error) return code;
  if (code == exit_interrupted && !out_of_time()) return code;  // Ctrl-C, not the time limit
  if (code == exit_interrupted)
    fmt::print("the assignment's total_timeout_s ({} s) ran out: what was measured is scored, the rest is not\n",
               points_text(f_.total_timeout_s));
  results = student_results(folder, student_variant(a_.slot->name), context, policy_.command);
  if (!context.device.name.empty()) {
    report_.device = context.device;
    report_.gpu = graded_on(context.gpu.pci_bus_id, in_.settings.device);
  }
  // Ceilings are measured only by runs that time something: the first performance run's.
  if (context.measured.d2d_copy_gbps > 0 && (!report_.measured || report_.measured->d2d_copy_gbps <= 0))
    report_.measured = context.measured;
  std::error_code ec;
  const fs::path gpu_built = folder / "submissions" / built_file_name(*a_.slot);
  if (built_for_gpu_.empty() && fs::exists(gpu_built, ec)) built_for_gpu_ = gpu_built.string();
  return exit_ok;
}

void test_session::select_tests() {
  for (const assignment_test& t : f_.tests) {
    if (t.visibility == test_visibility::hidden && !policy_.hidden_tests) continue;
    test_outcome o;
    o.test = &t;
    outcomes_.push_back(std::move(o));
  }
  // check: racecheck always runs, on the first correctness test's points when the assignment runs none
  // (shared-memory races are a student's commonest bug); it is worth no points.
  const bool has_racecheck = std::any_of(outcomes_.begin(), outcomes_.end(), [](const test_outcome& o) {
    return o.test->kind == test_kind::sanitizer && o.test->tool == "racecheck";
  });
  const auto first_correctness = std::find_if(
      outcomes_.begin(), outcomes_.end(), [](const test_outcome& o) { return o.test->kind == test_kind::correctness; });
  if (policy_.implicit_racecheck && !has_racecheck && first_correctness != outcomes_.end()) {
    implicit_racecheck_ = std::make_unique<assignment_test>(*first_correctness->test);
    implicit_racecheck_->name = "racecheck";
    implicit_racecheck_->kind = test_kind::sanitizer;
    implicit_racecheck_->tool = "racecheck";
    implicit_racecheck_->points = 0;
    drawn_[implicit_racecheck_.get()] = lab_text(*first_correctness->test);
    test_outcome o;
    o.test = implicit_racecheck_.get();
    outcomes_.push_back(std::move(o));
  }
}

bool test_session::build() {
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(in_.submission, ec);
  if (!ec && size > f_.max_bytes) {  // never handed to a compiler
    report_.submission.build.command = "not handed to a compiler";
    report_.submission.build.diagnostics.push_back(
        {fs::path(in_.submission).filename().string(), 0, diagnostic_severity::error,
         fmt::format("the submission has {} bytes, more than the assignment's max_bytes ({})", size, f_.max_bytes)});
    fmt::print("  {}\n", printable(report_.submission.build.diagnostics.back().text(), text_lines::kept));
  } else {
    try {
      report_.submission.build =
          build_graded(a_, in_.submission, in_.settings.arch, in_.out / "build", in_.settings.sandbox).report;
    } catch (const std::exception& e) {  // a toolkit that cannot be run, a folder that cannot be written
      report_.submission.build.diagnostics.push_back(
          {fs::path(in_.submission).filename().string(), 0, diagnostic_severity::error, e.what()});
      fmt::print(stderr, "cudalab: {}: {}\n", policy_.command, printable(e.what(), text_lines::kept));
    }
  }
  const grade_build& build = report_.submission.build;
  if (build.ok) {
    fmt::print("build: ok ({})\n", build.command);
    if (policy_.integrity_tests)
      add_integrity("integrity-build", "build policy", grade_status::passed,
                    "no denied header or library (the assignment's [build] policy)");
    return true;
  }
  fmt::print("build: FAILED ({}) - nothing was run\n", build.command);
  for (grade_test& g : report_.tests)
    if (g.visibility == test_visibility::visible || policy_.hidden_tests) g.message = "the submission does not build";
  if (policy_.integrity_tests) {
    if (build.denied())
      report_.flags.push_back({"build_policy", "blocking", "the submission uses what the assignment denies"});
    add_integrity("integrity-build", "build policy", build.denied() ? grade_status::failed : grade_status::skipped,
                  build.denied()
                      ? "refused: the submission includes a denied header or needs a denied library (see the build log)"
                      : "the submission does not build");
  }
  return false;
}

void test_session::no_gpu() {
  std::size_t count = 0;
  for (const test_outcome& o : outcomes_)
    if (o.test != implicit_racecheck_.get()) {
      write_test_file(*o.test, o.test->name);
      ++count;
    }
  fmt::print(
      "--no-gpu: the build and header policy pass; the {} visible test(s) run on a GPU (their lab files are in {})\n",
      count, (in_.out / "tests").string());
  for (grade_test& g : report_.tests)
    if (g.visibility == test_visibility::visible) g.message = "runs on a GPU; --no-gpu checked the build only";
}

bool test_session::correctness() {
  std::vector<std::string> files;
  for (const test_outcome& o : outcomes_)
    if (o.test->kind == test_kind::correctness) {
      lab_of_[o.test] = write_test_file(*o.test, o.test->name);
      files.push_back(lab_of_[o.test].string());
    }
  run_context context;
  if (!files.empty())
    if (const int code = run_files(files, in_.out / "run", correctness_, context); code != exit_ok) {
      result_.exit_code = code;
      return false;
    }
  for (test_outcome& o : outcomes_)
    if (o.test->kind == test_kind::correctness) {
      const std::vector<variant_result>& results = correctness_[lab_of_[o.test].string()];
      score_correctness(o, results, f_.max_failures);
      judge_census(o, results, f_.census);
      passed_[o.test->name] = o.passed;
      add_outcome(report_, o);
    }
  save();
  return true;
}

// A performance test: its rounds (the baseline beside the student in each, each variant at each point
// in a child of its own: the baseline's loads no submission and has ended before the student's starts),
// then, as grade's policy allows, more, one at a time, while the rounds' interval straddles zero_at or
// full_at or their baselines drifted apart, up to max_rounds and the time left.
void test_session::grade_performance(test_outcome& o) {
  const assignment_test& t = *o.test;
  std::vector<std::vector<variant_result>> rounds;
  run_context context;                                 // the first round's: its GPU and ceilings judge every round
  score_performance(o, rounds, context, passed_, f_);  // the gate: nothing is run for a test it stops
  if (o.status == grade_status::skipped) return;
  auto take = [&](int from, int count) {
    std::vector<std::string> files;
    for (int i = from; i < from + count; ++i)
      files.push_back(write_test_file(t, fmt::format("{}.round-{}", t.name, i + 1)).string());
    results_by_file results;
    run_context ran;
    if (run_files(files, in_.out / fmt::format("perf-{}-{}", t.name, from + 1), results, ran,
                  isolation_mode::variant) != exit_ok)
      return false;
    if (context.measured.d2d_copy_gbps <= 0) context = ran;
    for (const std::string& file : files) rounds.push_back(results[file]);
    return true;
  };
  if (!take(0, policy_.rounds ? t.rounds : 1)) return;
  score_performance(o, rounds, context, passed_, f_);
  while (policy_.rounds && (o.status == grade_status::passed || o.status == grade_status::failed)) {
    const bool unsettled = o.ci && straddles(*o.ci, t.zero_at, t.full_at);
    const bool drifted = baseline_drift(o) > max_baseline_drift;
    if ((!unsettled && !drifted) || int(rounds.size()) >= t.max_rounds || out_of_time()) break;
    fmt::print("{}: round {} ({})\n", t.name, rounds.size() + 1,
               drifted ? fmt::format("the baseline drifted {:.1f}% between rounds", 100 * baseline_drift(o))
                       : "the interval straddles a threshold");
    if (!take(int(rounds.size()), 1)) break;
    score_performance(o, rounds, context, passed_, f_);
  }
  std::vector<variant_result> all;
  for (const std::vector<variant_result>& round : rounds) all.insert(all.end(), round.begin(), round.end());
  judge_census(o, all, f_.census);
  flag_persisting_l2(o, all);
  flag_host_paced(o, all);
  if (baseline_drift(o) > max_baseline_drift)
    o.flags.push_back({"interference", "warning",
                       fmt::format("{}: the baseline ran {:.1f}% apart between rounds: the GPU was not quiet", t.name,
                                   100 * baseline_drift(o)),
                       t.name});
}

bool test_session::performance() {
  for (test_outcome& o : outcomes_) {
    if (o.test->kind != test_kind::performance) continue;
    if (out_of_time()) {
      o.message = "the assignment's total_timeout_s ran out";
      add_outcome(report_, o);
      continue;
    }
    grade_performance(o);
    add_outcome(report_, o);
    save();
  }
  return true;
}

// The sanitizers only look at a submission whose output is right: one that fails earns nothing here
// anyway, and one that never ends would hold the sanitizer (much slower) for its whole budget.
void test_session::sanitizers() {
  const bool correct = std::all_of(passed_.begin(), passed_.end(), [](const auto& p) { return p.second; });
  for (test_outcome& o : outcomes_) {
    if (o.test->kind != test_kind::sanitizer) continue;
    const bool implicit = o.test == implicit_racecheck_.get();
    if (!correct || out_of_time()) {
      o.ran = true;
      o.message = correct ? "the assignment's total_timeout_s ran out" : "the correctness tests must pass first";
      o.summary = o.test->tool + ": not run, " + o.message;
    } else {
      sanitizer_run sr;
      sr.program = in_.settings.program;
      sr.search_path = in_.settings.search_path;
      sr.lab_file = write_test_file(*o.test, o.test->name);
      sr.slot = a_.slot->name;
      sr.built = submission_to_run();
      sr.out = in_.out / ("sanitizer-" + o.test->name);
      // The sanitizer slows kernels down many times; never past the session's total time.
      sr.timeout_s = std::min(f_.unit_timeout_s * 20, seconds_left());
      sr.max_details = 2 * f_.max_failures;
      sr.limits = children_limits_of(f_);
      sr.sandbox = in_.settings.sandbox;
      run_sanitizer_test(o, sr);
    }
    add_outcome(report_, o, implicit);
  }
}

void test_session::add_integrity(const std::string& id, const std::string& name, grade_status status,
                                 const std::string& message) {
  grade_test g;
  g.id = id;
  g.name = name;
  g.kind = "integrity";
  g.status = status;
  g.message = message;
  report_.tests.push_back(std::move(g));
}

// The integrity checks, each a named test worth no points of its own (what they find costs the tests
// they concern their points). They read the results' failures and the flags, never their messages.
void test_session::integrity() {
  std::vector<grade_flag> changed;  // a flag for each point whose input changed, naming its test
  for (const test_outcome& o : outcomes_)
    if (o.test->kind == test_kind::correctness)
      for (const variant_result& r : correctness_[lab_of_[o.test].string()])
        if (r.failure == result_failure::input_changed)
          changed.push_back({"input_integrity", "blocking", failure_line(r), o.test->name});
  if (changed.empty())
    add_integrity("integrity-inputs", "inputs unchanged", grade_status::passed,
                  "no registered input was changed by the submission");
  else {
    add_integrity("integrity-inputs", "inputs unchanged", grade_status::failed,
                  fmt::format("the submission changed an input at {} point(s); those points fail", changed.size()));
    report_.flags.push_back(changed.front());
  }
  bool timed = false, held = false;
  const test_outcome* after_timing = nullptr;  // the first performance test wrong after timing
  for (const test_outcome& o : outcomes_) {
    if (o.test->kind != test_kind::performance) continue;
    timed = timed || !o.round_metrics.empty() || o.status == grade_status::held;
    held = held || o.status == grade_status::held;
    if (!after_timing && o.failures.count(result_failure::wrong_after_timing) > 0) after_timing = &o;
  }
  if (after_timing) {
    add_integrity("integrity-after-timing", "right after timing", grade_status::failed,
                  "the output was wrong when checked again after the timed launches: the work was not done every "
                  "launch; the performance points are lost");
    report_.flags.push_back(
        {"verify_after_timing", "blocking", "the output was wrong after timing", after_timing->test->name});
  } else {
    add_integrity("integrity-after-timing", "right after timing", timed ? grade_status::passed : grade_status::skipped,
                  timed ? "the output was right again after the timed launches" : "nothing was timed");
  }
  // Each finding as a student may read it: a hidden test's in words of its check alone.
  std::vector<std::string> census_findings;
  bool census_taken = false;
  for (const auto& [file, rs] : correctness_)
    for (const variant_result& r : rs) census_taken = census_taken || r.census.available();
  for (const test_outcome& o : outcomes_)
    for (const grade_flag& f : o.flags)
      if (f.check.rfind("census", 0) == 0 && f.severity == "blocking")
        census_findings.push_back(o.test->visibility == test_visibility::hidden ? hidden_flag_message(f.check)
                                                                                : f.message);
  add_integrity("integrity-census", "kernel census",
                !census_findings.empty() ? grade_status::failed
                : census_taken           ? grade_status::passed
                                         : grade_status::skipped,
                !census_findings.empty() ? census_findings.front()
                : census_taken           ? "every kernel and copy on the session stream, none denied, no host copy"
                                         : "no census was taken (CUPTI not available, or [anti_cheat] census = false)");
  add_integrity("integrity-roofline", "possible throughput",
                held    ? grade_status::held
                : timed ? grade_status::passed
                        : grade_status::skipped,
                held    ? "faster than the memory system can move the bytes: held for review"
                : timed ? "within the measured ceiling"
                        : "nothing was timed");
}

// A test's line in the console table: what it came to, in words for anything but a pass.
std::string console_result(const grade_test& g) {
  if (g.status != grade_status::passed) return detail::result_line(g);
  std::string line = g.message;
  if (g.metric) {
    line += fmt::format(" (median {:.1f}", g.metric->median);
    if (g.metric->ci) line += fmt::format(", 95% CI {:.1f}-{:.1f}", g.metric->ci->first, g.metric->ci->second);
    line += fmt::format(", {} round{})", g.metric->rounds, g.metric->rounds == 1 ? "" : "s");
  }
  return line;
}

// The table of the tests on the console: what a child or a compiler said in it (a failing point's error,
// a sanitizer's finding) is shown, never obeyed.
void test_session::print_table() const {
  std::map<std::string, const test_outcome*> outcome_of;
  for (const test_outcome& o : outcomes_) outcome_of[o.test->name] = &o;
  fmt::print("\n{:<24} {:<12} {:>9}  {}\n", "test", "kind", "points", "result");
  for (const grade_test& g : report_.tests) {
    const bool scored = g.kind != "integrity" && g.id.rfind("implicit-", 0) != 0;
    fmt::print(
        "{:<24} {:<12} {:>9}  {}\n", printable(g.name), g.kind,
        scored ? points_text(std::round(g.points * 10) / 10) + "/" + points_text(g.max_points) : std::string("-"),
        printable(console_result(g), text_lines::kept));
    const auto o = outcome_of.find(g.id);
    if (o != outcome_of.end() && g.status != grade_status::passed)
      for (const std::string& d : o->second->details) fmt::print("{:<24}   {}\n", "", printable(d, text_lines::kept));
  }
}

void test_session::finish() {  // the integrity checks, the score, the leaderboard, the table
  if (policy_.integrity_tests) integrity();
  report_.score = 0;
  for (const grade_test& g : report_.tests)
    if (g.visibility == test_visibility::visible || policy_.hidden_tests) report_.score += g.points;
  if (policy_.hidden_tests)
    for (const test_outcome& o : outcomes_)
      if (o.test->kind == test_kind::performance && o.metric && o.status != grade_status::held)
        report_.leaderboard.push_back({o.test->metric == "pct_of_ceiling" ? "% of ceiling" : "% of baseline",
                                       o.test->name, *o.metric, "desc", o.ci});
  report_.complete = true;
  save();
  print_table();
}

session_result test_session::run() {
  report_ = new_grade_report(policy_.command, f_, in_.submission, {}, "not run",
                             policy_.hidden_tests ? "not run" : "graded by the course, not by check");
  report_.complete = false;
  report_.sandboxed = in_.settings.sandbox.has_value();
  if (!in_.student.empty()) {
    report_.student.id_hmac = student_id_hmac(in_.settings.secret, f_.id, in_.student);
    report_.student.pseudonym = pseudonym(in_.settings.secret, f_.id, in_.student);
  }
  make_empty_folder(in_.out);
  fs::create_directories(in_.out / "tests");
  select_tests();
  save();
  // Nothing runs of a submission that does not build, nor on no GPU: the report is complete as it is.
  const bool built = build();
  if (!built || !policy_.gpu) {
    if (built) no_gpu();
    report_.complete = true;
    save();
    return result_;
  }
  if (!correctness()) return result_;
  performance();
  sanitizers();
  finish();
  return result_;
}

}  // namespace

session_result run_test_session(const loaded_assignment& a, const session_policy& policy, const session_inputs& in) {
  return test_session(a, policy, in).run();
}

}  // namespace cudalab::host
