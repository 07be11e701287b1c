// Scoring an assignment's tests (test_scoring.hpp).
#include "assignment/test_scoring.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <filesystem>

#include "assignment/census_checks.hpp"
#include "assignment/confidence.hpp"
#include "assignment/digests.hpp"
#include "labfile/text_file.hpp"
#include "results/format.hpp"
#include "results/roofline.hpp"

namespace cudalab::host {

namespace {

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

std::string submission_sha256(const std::string& path) {
  try {
    return sha256_hex(read_text(path, "submission"));
  } catch (const lab_file_error&) {
    return sha256_hex("");
  }
}

std::string points_text(double v) { return fmt::format("{:g}", v); }

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

void score_correctness(test_outcome& o, const std::vector<variant_result>& rs, int max_failures) {
  const assignment_test& t = *o.test;
  o.ran = true;
  o.details.clear();
  o.failures.clear();
  std::size_t good = 0;
  for (const variant_result& r : rs) {
    if (r.status == result_status::ok && r.verification.passed) {
      ++good;
      continue;
    }
    o.failures.insert(r.failure);
    if (int(o.details.size()) < max_failures) o.details.push_back(failure_line(r));
  }
  o.passed = !rs.empty() && good == rs.size();
  o.score = o.passed ? t.points : (t.partial && !rs.empty() ? t.points * double(good) / double(rs.size()) : 0);
  const bool timed_out = o.failures.count(result_failure::timed_out) > 0;
  o.status = rs.empty()  ? grade_status::error
             : o.passed  ? grade_status::passed
             : timed_out ? grade_status::timed_out
                         : grade_status::failed;
  o.summary = rs.empty() ? "no result (see the run's messages above)"
                         : fmt::format("{} of {} points verified", good, rs.size());
}

void score_performance(test_outcome& o, const std::vector<std::vector<variant_result>>& rounds,
                       const run_context& context, const std::map<std::string, bool>& passed,
                       const assignment_file& a) {
  const assignment_test& t = *o.test;
  o.ran = true;
  o.score = 0;
  o.passed = false;
  o.metric.reset();
  o.ci.reset();
  o.round_metrics.clear();
  o.round_baseline_gbps.clear();
  o.details.clear();
  o.flags.clear();
  o.failures.clear();
  o.message.clear();
  for (const std::string& req : t.requires)
    if (!passed.count(req) || !passed.at(req)) {
      o.status = grade_status::skipped;
      o.summary = "0 points: it requires '" + req + "' to pass first";
      o.message = "it requires '" + req + "' to pass first";
      return;
    }
  for (const std::vector<variant_result>& rs : rounds) {
    std::vector<double> values, baselines;
    for (const variant_result& r : rs) {
      if (r.status != result_status::ok || !r.verification.passed || !r.time.timed) {
        o.failures.insert(r.failure);
        o.details.push_back(failure_line(r));
        o.summary = "not timed: the submission must verify at every point, before and after timing";
        o.status = r.failure == result_failure::timed_out ? grade_status::timed_out : grade_status::failed;
        return;
      }
      // Judged by the ceiling of where its bytes live: the L2 copy for a working set L2 holds.
      const roofline roof = roofline_of(r, context);
      if (roof.gbps > 0 && r.gbps > a.roofline_margin * roof.gbps) {
        o.summary = fmt::format(
            "held: {:.0f} GB/s is above {} x the measured {} ceiling ({:.0f} GB/s) - no correct "
            "submission moves its bytes that fast",
            r.gbps, a.roofline_margin, roof.which, roof.gbps);
        // Which ceiling (L2 or DRAM) says how large a hidden test's working set is: its message says none.
        o.message = t.visibility == test_visibility::hidden ? hidden_flag_message("roofline")
                                                            : o.summary.substr(std::string("held: ").size());
        o.status = grade_status::held;
        o.flags.push_back(grade_flag{"roofline", "blocking",
                                     fmt::format("{}: {:.0f} GB/s is above {} x the measured {} ceiling ({:.0f} GB/s)",
                                                 t.name, r.gbps, a.roofline_margin, roof.which, roof.gbps),
                                     t.name});
        return;
      }
      values.push_back(t.metric == "pct_of_ceiling" ? r.pct_of_ceiling : r.pct_of_baseline);
      if (r.pct_of_baseline > 0) baselines.push_back(r.gbps * 100.0 / r.pct_of_baseline);
    }
    if (values.empty()) continue;
    o.round_metrics.push_back(median_of(values));
    if (!baselines.empty()) o.round_baseline_gbps.push_back(median_of(baselines));
  }
  if (o.round_metrics.empty()) {
    o.summary = "no result (see the run's messages above)";
    o.status = grade_status::error;
    return;
  }
  o.metric = median_of(o.round_metrics);
  o.ci = t_interval(o.round_metrics);
  const double fraction = std::clamp((*o.metric - t.zero_at) / (t.full_at - t.zero_at), 0.0, 1.0);
  o.score = t.points * fraction;
  o.passed = fraction > 0;
  o.status = o.passed ? grade_status::passed : grade_status::failed;
  std::string spread;
  if (o.ci)
    spread = fmt::format(", 95% CI {:.1f}-{:.1f} over {} rounds", o.ci->first, o.ci->second, o.round_metrics.size());
  const std::string measured = fmt::format(
      "{} {:.1f}%{}", t.metric == "pct_of_ceiling" ? "of the ceiling:" : "of the baseline:", *o.metric, spread);
  o.summary = fmt::format("{} (0 points at {}, all at {})", measured, points_text(t.zero_at), points_text(t.full_at));
  if (t.visibility == test_visibility::hidden) o.message = measured;  // a hidden test's thresholds are the staff's
}

void judge_census(test_outcome& o, const std::vector<variant_result>& results, const census_policy& policy) {
  const grade_flag* blocking = nullptr;
  for (const variant_result& r : results)
    for (grade_flag f : census_flags(r, policy)) {
      f.message = o.test->name + ": " + f.message;
      f.test = o.test->name;
      const bool seen = std::any_of(o.flags.begin(), o.flags.end(),
                                    [&](const grade_flag& g) { return g.check == f.check && g.message == f.message; });
      if (seen) continue;
      o.flags.push_back(std::move(f));
    }
  for (const grade_flag& f : o.flags)
    if (f.severity == "blocking" && f.check.rfind("census", 0) == 0 && !blocking) blocking = &f;
  if (!blocking) return;
  o.score = 0;
  o.passed = false;
  if (o.status != grade_status::held) o.status = grade_status::failed;
  // What a census saw in a hidden test (copy sizes, kernel counts) would name its inputs.
  const bool hidden = o.test->visibility == test_visibility::hidden;
  o.message = "integrity: " + (hidden ? hidden_flag_message(blocking->check) : blocking->message);
  o.summary = "0 points - integrity: " + blocking->message;
}

void flag_persisting_l2(test_outcome& o, const std::vector<variant_result>& results) {
  std::uint64_t samples = 0;
  std::string found;
  for (const variant_result& r : results) {
    samples += r.time.persisting_l2_found;
    if (found.empty()) found = r.time.persisting_l2_note;
  }
  if (samples == 0) return;
  o.flags.push_back({"persisting_l2", "warning",
                     fmt::format("{}: the submission left {} set for {} timed sample(s); it was reset before each, "
                                 "and every timed launch started from a cold L2",
                                 o.test->name, found, samples)});
}

void flag_host_paced(test_outcome& o, const std::vector<variant_result>& results) {
  std::size_t paced = 0, remote = 0;
  std::uint64_t timeouts = 0;
  for (const variant_result& r : results) {
    if (!r.time.timed || !(r.time.handshake_ms > 0)) continue;
    ++remote;
    if (r.time.held) continue;
    ++paced;
    timeouts += r.time.hold_timeouts;
  }
  if (paced == 0) return;
  o.flags.push_back({"host_paced", "warning",
                     fmt::format("{}: {} of {} timed result(s) of the launcher ended paced by the host ({} held "
                                 "sample(s) ran the blocking kernel out): their times include the host's round trips "
                                 "to the submission's process. A launcher that waits on the host in its call does "
                                 "that; so does a busy machine",
                                 o.test->name, paced, remote, timeouts),
                     o.test->name});
}

double baseline_drift(const test_outcome& o) {
  if (o.round_baseline_gbps.size() < 2) return 0;
  const auto [low, high] = std::minmax_element(o.round_baseline_gbps.begin(), o.round_baseline_gbps.end());
  return *low > 0 ? (*high - *low) / *low : 0;
}

std::string parameters_of(const assignment_test& t) {
  std::string out;
  for (const std::string& line : t.params) out += (out.empty() ? "" : ", ") + line;
  for (const std::string& line : t.sweep) out += (out.empty() ? "" : ", ") + line;
  if (!t.random_text.empty()) out += (out.empty() ? "" : ", ") + t.random_text;
  return out;
}

grade_report new_grade_report(const std::string& command, const assignment_file& f, const std::string& submission,
                              const grade_build& build, const std::string& why, const std::string& hidden_why) {
  grade_report r;
  r.command = command;
  r.cudalab_version = CUDALAB_VERSION;
  r.graded_at = utc_text(std::time(nullptr), "%Y-%m-%dT%H:%M:%SZ");
  r.assignment = {f.id, f.title, f.points, sha256_hex(f.text)};
  r.submission.sha256 = submission_sha256(submission);
  r.submission.files = {std::filesystem::path(submission).filename().string()};
  r.submission.build = build;
  r.max_score = f.points;
  for (const assignment_test& t : f.tests) {
    grade_test g;
    g.id = g.name = t.name;
    g.kind = test_kind_name(t.kind);
    g.visibility = t.visibility;
    g.max_points = t.points;
    g.parameters = parameters_of(t);
    g.message = t.visibility == test_visibility::hidden ? hidden_why : why;
    r.tests.push_back(std::move(g));
  }
  for (const hidden_test& h : f.hidden) {  // a kit's copy: the hidden tests as described
    grade_test g;
    g.id = g.name = h.name;
    g.kind = h.kind;
    g.visibility = test_visibility::hidden;
    g.max_points = h.points;
    g.message = hidden_why;
    r.tests.push_back(std::move(g));
  }
  return r;
}

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
  if (o.metric)
    g.metric = grade_metric{o.test->metric, *o.metric, o.ci, std::max<int>(1, int(o.round_metrics.size())),
                            std::make_pair(o.test->zero_at, o.test->full_at)};
  g.feedback_md.clear();
  // Each line as code: compiler and sanitizer text holds underscores and stars Markdown would eat.
  for (std::string d : o.details) {
    std::replace(d.begin(), d.end(), '`', '\'');
    g.feedback_md += "- `" + d + "`\n";
  }
  for (const grade_flag& f : o.flags) r.flags.push_back(f);
}

}  // namespace cudalab::host
