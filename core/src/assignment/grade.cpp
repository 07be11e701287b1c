// The course's grading of one submission (grade.hpp).
#include "assignment/grade.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>

#include "assignment/confidence.hpp"
#include "assignment/digests.hpp"
#include "assignment/grade_batch.hpp"
#include "assignment/lms_outputs.hpp"
#include "assignment/pseudonyms.hpp"
#include "assignment/sanitizer_test.hpp"
#include "assignment/staff_secret.hpp"
#include "assignment/starter_kit.hpp"
#include "assignment/student_seeds.hpp"
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

// Rounds whose baselines ran further apart than this were disturbed (another process on the GPU, a
// clock change): grading takes another round rather than score the student against a moving baseline.
constexpr double max_baseline_drift = 0.05;

// One grading in progress: the assignment, the student, the folder and the report so far.
class grading {
 public:
  grading(const loaded_assignment& a, const grade_settings& s, std::string submission, std::string student,
          fs::path out)
      : a_(a),
        f_(a.file),
        s_(s),
        submission_(std::move(submission)),
        student_(std::move(student)),
        out_(std::move(out)) {}

  graded_submission run();

 private:
  // The lab file of test `t` for this student: hidden tests drawn from the staff secret.
  std::string lab_text(const assignment_test& t);
  fs::path write_test_file(const assignment_test& t, const std::string& name);
  double seconds_left() const { return f_.total_timeout_s - seconds_since(started_); }
  // grade.json as it stands (rewritten after every stage).
  void save();
  // Runs `files` against the submission into `folder`; the student's results by file, or an exit code
  // that ends the grading (no GPU, ...).
  int run_files(const std::vector<std::string>& files, const fs::path& folder,
                std::map<std::string, std::vector<variant_result>>& results, run_context& context);
  void grade_performance(test_outcome& o, const std::map<std::string, bool>& passed);
  void integrity_tests(const std::map<std::string, std::vector<variant_result>>& correctness,
                       const std::vector<test_outcome>& outcomes);
  void add_integrity(const std::string& id, const std::string& name, grade_status status, const std::string& message);

  const loaded_assignment& a_;
  const assignment_file& f_;
  const grade_settings& s_;
  const std::string submission_, student_;
  const fs::path out_;
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  grade_report report_;
  std::string built_for_gpu_;  // the submission as the first run built it for the GPU
  std::map<const assignment_test*, std::string> drawn_;
};

std::string grading::lab_text(const assignment_test& t) {
  if (t.visibility != test_visibility::hidden) return a_.test_lab(t);
  test_draw d;
  d.axes_seed = student_seed(s_.secret, f_.id, student_, t.name, 0);
  d.input_seed = student_seed(s_.secret, f_.id, student_, t.name, 1);
  const std::string text = test_lab_text(f_, t, a_.base, student_variant(a_.slot->name), d);
  report_.staff.seed_digests.push_back(t.name + ": " +
                                       sha256_hex(fmt::format("{:016x} {:016x}", d.axes_seed, d.input_seed)));
  report_.staff.input_digests.push_back(t.name + ": " + sha256_hex(text));
  return text;
}

fs::path grading::write_test_file(const assignment_test& t, const std::string& name) {
  auto it = drawn_.find(&t);
  if (it == drawn_.end()) it = drawn_.emplace(&t, lab_text(t)).first;
  const fs::path file = out_ / "tests" / (name + ".toml");
  write_file_atomically(file, it->second);
  return file;
}

void grading::save() {
  report_.seconds = seconds_since(started_);
  write_grade_report(out_ / "grade.json", report_);
  write_file_atomically(out_ / "feedback.html", feedback_html(report_));
}

int grading::run_files(const std::vector<std::string>& files, const fs::path& folder,
                       std::map<std::string, std::vector<variant_result>>& results, run_context& context) {
  test_run_request r;
  r.assignment = &a_;
  r.files = files;
  r.submission = built_for_gpu_.empty() ? submission_ : built_for_gpu_;
  r.out = folder;
  r.search_path = s_.search_path;
  r.program = s_.program;
  r.command_line = "cudalab grade " + f_.path.string();
  r.colour = s_.colour;
  r.time_limit_s = std::max(1.0, seconds_left());
  const int code = run_tests(r);
  if (code == exit_no_gpu || code == exit_submission || code == exit_usage || code == exit_write_error) return code;
  if (code == exit_interrupted && seconds_left() > 0) return code;  // Ctrl-C, not the time limit
  results = student_results(folder, student_variant(a_.slot->name), context, "grade");
  if (!context.device.name.empty()) report_.device = context.device;
  // Ceilings are measured only by runs that time something: the first performance run's.
  if (context.measured.d2d_copy_gbps > 0 && (!report_.measured || report_.measured->d2d_copy_gbps <= 0))
    report_.measured = context.measured;
  std::error_code ec;
  const fs::path gpu_built = folder / "submissions" / built_file_name(*a_.slot);
  if (built_for_gpu_.empty() && fs::exists(gpu_built, ec)) built_for_gpu_ = gpu_built.string();
  return exit_ok;
}

// A performance test: `rounds` children (baseline and student in each), then more, one at a time,
// while the rounds' interval straddles zero_at or full_at or their baselines drifted apart, up to
// max_rounds and the time left.
void grading::grade_performance(test_outcome& o, const std::map<std::string, bool>& passed) {
  const assignment_test& t = *o.test;
  std::vector<std::vector<variant_result>> rounds;
  run_context context;                                // the first round's: its GPU and ceilings judge every round
  score_performance(o, rounds, context, passed, f_);  // the gate: nothing is run for a test it stops
  if (o.status == grade_status::skipped) return;
  auto take = [&](int from, int count) {
    std::vector<std::string> files;
    for (int i = from; i < from + count; ++i)
      files.push_back(write_test_file(t, fmt::format("{}.round-{}", t.name, i + 1)).string());
    std::map<std::string, std::vector<variant_result>> results;
    const fs::path folder = out_ / fmt::format("perf-{}-{}", t.name, from + 1);
    run_context ran;
    if (run_files(files, folder, results, ran) != exit_ok) return false;
    if (context.measured.d2d_copy_gbps <= 0) context = ran;
    for (const std::string& file : files) rounds.push_back(results[file]);
    return true;
  };
  if (!take(0, t.rounds)) return;
  score_performance(o, rounds, context, passed, f_);
  while (o.status == grade_status::passed || o.status == grade_status::failed) {
    const bool unsettled = o.ci && straddles(*o.ci, t.zero_at, t.full_at);
    const bool drifted = baseline_drift(o) > max_baseline_drift;
    if ((!unsettled && !drifted) || int(rounds.size()) >= t.max_rounds || seconds_left() <= 0) break;
    fmt::print("{}: round {} ({})\n", t.name, rounds.size() + 1,
               drifted ? fmt::format("the baseline drifted {:.1f}% between rounds", 100 * baseline_drift(o))
                       : "the interval straddles a threshold");
    if (!take(int(rounds.size()), 1)) break;
    score_performance(o, rounds, context, passed, f_);
  }
  std::vector<variant_result> all;
  for (const std::vector<variant_result>& round : rounds) all.insert(all.end(), round.begin(), round.end());
  judge_census(o, all, f_.census);
  if (baseline_drift(o) > max_baseline_drift)
    o.flags.push_back({"interference", "warning",
                       fmt::format("{}: the baseline ran {:.1f}% apart between rounds: the GPU was not quiet", t.name,
                                   100 * baseline_drift(o))});
}

void grading::add_integrity(const std::string& id, const std::string& name, grade_status status,
                            const std::string& message) {
  grade_test g;
  g.id = id;
  g.name = name;
  g.kind = "integrity";
  g.status = status;
  g.message = message;
  report_.tests.push_back(std::move(g));
}

// The integrity checks, each a named test worth no points of its own (what they find costs the
// tests they concern their points).
void grading::integrity_tests(const std::map<std::string, std::vector<variant_result>>& correctness,
                              const std::vector<test_outcome>& outcomes) {
  std::vector<std::string> changed;
  for (const auto& [file, rs] : correctness)
    for (const variant_result& r : rs)
      if (r.verification.note.find("changed a registered input") != std::string::npos)
        changed.push_back(failure_line(r));
  if (changed.empty())
    add_integrity("integrity-inputs", "inputs unchanged", grade_status::passed,
                  "no registered input was changed by the submission");
  else {
    add_integrity("integrity-inputs", "inputs unchanged", grade_status::failed,
                  fmt::format("the submission changed an input at {} point(s); those points fail", changed.size()));
    report_.flags.push_back({"input_integrity", "blocking", changed.front()});
  }
  bool timed = false, after_timing = false, held = false;
  for (const test_outcome& o : outcomes) {
    if (o.test->kind != test_kind::performance) continue;
    timed = timed || !o.round_metrics.empty() || o.status == grade_status::held;
    held = held || o.status == grade_status::held;
    for (const std::string& d : o.details) after_timing = after_timing || d.find("after timing") != std::string::npos;
  }
  if (after_timing) {
    add_integrity("integrity-after-timing", "right after timing", grade_status::failed,
                  "the output was wrong when checked again after the timed launches: the work was not done every "
                  "launch; the performance points are lost");
    report_.flags.push_back({"verify_after_timing", "blocking", "the output was wrong after timing"});
  } else {
    add_integrity("integrity-after-timing", "right after timing", timed ? grade_status::passed : grade_status::skipped,
                  timed ? "the output was right again after the timed launches" : "nothing was timed");
  }
  std::vector<std::string> census_checks;
  bool census_blocking = false, census_taken = false;
  for (const auto& [file, rs] : correctness)
    for (const variant_result& r : rs) census_taken = census_taken || r.census.available();
  for (const test_outcome& o : outcomes)
    for (const grade_flag& f : o.flags)
      if (f.check.rfind("census", 0) == 0) {
        census_blocking = census_blocking || f.severity == "blocking";
        if (f.severity == "blocking") census_checks.push_back(f.message);
      }
  add_integrity("integrity-census", "kernel census",
                census_blocking ? grade_status::failed
                : census_taken  ? grade_status::passed
                                : grade_status::skipped,
                census_blocking ? census_checks.front()
                : census_taken  ? "every kernel and copy on the session stream, none denied, no host copy"
                                : "no census was taken (CUPTI not available, or [anti_cheat] census = false)");
  add_integrity("integrity-roofline", "possible throughput",
                held    ? grade_status::held
                : timed ? grade_status::passed
                        : grade_status::skipped,
                held    ? "faster than the memory system can move the bytes: held for review"
                : timed ? "within the measured ceiling"
                        : "nothing was timed");
}

graded_submission grading::run() {
  graded_submission done;
  report_ = new_grade_report("grade", f_, submission_, {}, "not run", "not run");
  report_.complete = false;
  report_.student.id_sha256 = sha256_hex(student_);
  report_.student.pseudonym = pseudonym(s_.secret, f_.id, student_);
  make_empty_folder(out_);
  save();

  // 1. The build, as check builds it (compile errors at file:line; policy refusals named).
  try {
    report_.submission.build = build_graded(a_, submission_, s_.arch, out_ / "build").report;
  } catch (const std::exception& e) {
    report_.submission.build.log_tail = e.what();
    fmt::print(stderr, "cudalab: grade: {}\n", e.what());
  }
  const grade_build& build = report_.submission.build;
  const bool denied = build.log_tail.find(": denied: ") != std::string::npos;
  if (!build.ok) {
    fmt::print("build: FAILED ({}) - nothing was run\n", build.command);
    for (grade_test& g : report_.tests) g.message = "the submission does not build";
    if (denied) report_.flags.push_back({"build_policy", "blocking", "the submission uses what the assignment denies"});
    add_integrity("integrity-build", "build policy", denied ? grade_status::failed : grade_status::skipped,
                  denied
                      ? "refused: the submission includes a denied header or needs a denied library (see the build log)"
                      : "the submission does not build");
    report_.complete = true;
    save();
    done.report = report_;
    return done;
  }
  fmt::print("build: ok ({})\n", build.command);
  add_integrity("integrity-build", "build policy", grade_status::passed,
                "no denied header or library (the assignment's [build] policy)");
  fs::create_directories(out_ / "tests");

  // 2. Correctness tests, visible and hidden, in one isolated run.
  std::vector<test_outcome> outcomes;
  std::vector<std::string> files;
  std::map<const assignment_test*, std::string> file_of;
  for (const assignment_test& t : f_.tests) {
    test_outcome o;
    o.test = &t;
    outcomes.push_back(std::move(o));
    if (t.kind == test_kind::correctness) {
      file_of[&t] = write_test_file(t, t.name).string();
      files.push_back(file_of[&t]);
    }
  }
  std::map<std::string, std::vector<variant_result>> correctness;
  run_context context;
  if (!files.empty())
    if (const int code = run_files(files, out_ / "run", correctness, context); code != exit_ok) {
      done.exit_code = code;
      return done;
    }
  std::map<std::string, bool> passed;
  for (test_outcome& o : outcomes)
    if (o.test->kind == test_kind::correctness) {
      score_correctness(o, correctness[file_of[o.test]], f_.max_failures);
      judge_census(o, correctness[file_of[o.test]], f_.census);
      passed[o.test->name] = o.passed;
      add_outcome(report_, o);
    }
  save();

  // 3. Performance tests, gated on the correctness tests they require.
  for (test_outcome& o : outcomes)
    if (o.test->kind == test_kind::performance) {
      if (seconds_left() <= 0) {
        o.message = "the assignment's total_timeout_s ran out";
        continue;
      }
      grade_performance(o, passed);
      add_outcome(report_, o);
      save();
    }

  // 4. Sanitizer tests, on a submission whose output is right.
  const bool correct = std::all_of(passed.begin(), passed.end(), [](const auto& p) { return p.second; });
  for (test_outcome& o : outcomes) {
    if (o.test->kind != test_kind::sanitizer) continue;
    if (!correct || seconds_left() <= 0) {
      o.ran = true;
      o.message = correct ? "the assignment's total_timeout_s ran out" : "the correctness tests must pass first";
      o.summary = o.message;
    } else {
      sanitizer_run sr;
      sr.program = s_.program;
      sr.search_path = s_.search_path;
      sr.lab_file = write_test_file(*o.test, o.test->name);
      sr.slot = a_.slot->name;
      sr.built = built_for_gpu_.empty() ? submission_ : built_for_gpu_;
      sr.out = out_ / ("sanitizer-" + o.test->name);
      sr.timeout_s = std::min(f_.unit_timeout_s * 20, seconds_left());
      sr.max_details = 2 * f_.max_failures;
      run_sanitizer_test(o, sr);
    }
    add_outcome(report_, o);
  }

  // 5. Integrity, the score, the leaderboard.
  for (test_outcome& o : outcomes)
    if (o.test->kind == test_kind::performance && !o.ran) add_outcome(report_, o);
  integrity_tests(correctness, outcomes);
  report_.score = 0;
  for (const grade_test& g : report_.tests) report_.score += g.points;
  for (const test_outcome& o : outcomes)
    if (o.test->kind == test_kind::performance && o.metric && o.status != grade_status::held)
      report_.leaderboard.push_back({o.test->metric == "pct_of_ceiling" ? "% of ceiling" : "% of baseline",
                                     o.test->name, *o.metric, "desc", o.ci});
  report_.complete = true;
  save();
  fmt::print("\n{:<24} {:<12} {:>9}  {}\n", "test", "kind", "points", "result");
  for (const grade_test& g : report_.tests)
    fmt::print("{:<24} {:<12} {:>9}  {}\n", g.name, g.kind,
               g.kind == "integrity" ? std::string("-")
                                     : points_text(std::round(g.points * 10) / 10) + "/" + points_text(g.max_points),
               detail::result_line(g));
  fmt::print("\nscore: {}/{} ({} s); grade.json in {}\n", points_text(std::round(report_.score * 10) / 10),
             points_text(f_.points), fmt::format("{:.0f}", report_.seconds), out_.string());
  done.report = report_;
  return done;
}

// The submission file of `path`: itself, or the assignment's file in that folder.
std::string submission_file(const loaded_assignment& a, const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return (path / a.submission_name()).string();
  return path.string();
}

}  // namespace

graded_submission grade_submission(const loaded_assignment& a, const grade_settings& s, const std::string& submission,
                                   const std::string& student, const fs::path& out) {
  return grading(a, s, submission_file(a, submission), student, out).run();
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
  grade_settings settings = req.settings;
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
