// Scoring an assignment's tests from a run's results, as `check` and `grade` both do: correctness
// (points per verified point), performance (the student's metric over one or more rounds, its
// confidence interval, the roofline check, points between zero_at and full_at), and each scored test
// into the grade report.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "assignment/assignment_file.hpp"
#include "assignment/grade_report.hpp"
#include "results/result.hpp"
#include "results/run_context.hpp"

namespace cudalab::host {

/// What came of one test.
struct test_outcome {
  const assignment_test* test = nullptr;
  bool ran = false;
  bool passed = false;
  grade_status status = grade_status::skipped;
  double score = 0;                             ///< points earned
  std::optional<double> metric;                 ///< performance: the median of its rounds' metric
  std::optional<std::pair<double, double>> ci;  ///< performance: the rounds' 95% t-interval (2+ rounds)
  std::vector<double> round_metrics;            ///< performance: each round's metric (the median over points)
  std::vector<double> round_baseline_gbps;      ///< performance: each round's baseline GB/s (median over points)
  std::string summary;                          ///< one line, for the console
  std::string message;                          ///< the report's one line ("" : the summary)
  std::vector<std::string> details;             ///< failing points, sanitizer findings
  std::vector<grade_flag> flags;                ///< integrity findings
  std::set<result_failure> failures;            ///< how its results failed, as data (the integrity checks read it)
};

/// A student result that failed, in a line: the point and why ("n=33: 1 of 1 elements wrong, ...").
std::string failure_line(const variant_result& r);

/// A correctness test from its results: all points verified, or (partial) points in proportion;
/// timed_out when a child was stopped by the watchdog, error when there is no result.
void score_correctness(test_outcome& o, const std::vector<variant_result>& results, int max_failures);

/// A performance test from its rounds' results (`rounds[i]`: the student's results of round i, one
/// isolated child per round with the baseline timed beside it): 0 points unless every test it
/// requires passed (`passed`); each round's metric is the median over its points; the test's metric
/// is the median over rounds, with a t-interval from two rounds on. A result above the roofline
/// (roofline_margin x the measured ceiling) holds the test for review with a blocking flag; a result
/// that does not verify (also after timing) costs all its points.
void score_performance(test_outcome& o, const std::vector<std::vector<variant_result>>& rounds,
                       const run_context& context, const std::map<std::string, bool>& passed, const assignment_file& a);

/// The census checks (census_checks.hpp) over a scored test's results: each finding becomes a flag
/// of the test, named for it; a blocking one costs the test all its points (failed, its message says
/// why), whatever its results verified. Nothing for results without a census.
void judge_census(test_outcome& o, const std::vector<variant_result>& results, const census_policy& policy);

/// The warning flag persisting_l2 when the timing found persisting-L2 state set before timed samples of
/// `results` (a set-aside, or an access policy window on the timed stream, that would have carried into the
/// timed launches: issue 31, "changed device state"). The timing reset it before each, so the score stands;
/// the flag tells the staff it was tried, and what was found.
void flag_persisting_l2(test_outcome& o, const std::vector<variant_result>& results);

/// The warning flag host_paced when a launcher timed in the submission's own process (timing.handshake_ms)
/// ended its timing paced by the host (timing.held false after hold timeouts): its figure then holds the
/// host's round trips to that process, not the GPU's time alone. A launcher that waits on the host in its
/// call (the slots say not to) does that; so does a machine too busy to queue a sample in 200 ms.
void flag_host_paced(test_outcome& o, const std::vector<variant_result>& results);

/// How far apart the rounds' baselines ran: (fastest - slowest) / slowest, 0 for fewer than two. Above
/// a few percent something else used the GPU (interference), and grading takes another round.
double baseline_drift(const test_outcome& o);

/// What a test runs at, as its assignment file says ("block = 128, n = [1, 3, 31]").
std::string parameters_of(const assignment_test& t);

/// A new report for `command` (grade or check): the assignment, the submission and its build, and
/// every test skipped with `why` (hidden ones with `hidden_why`); the kit's described hidden tests too.
grade_report new_grade_report(const std::string& command, const assignment_file& a, const std::string& submission,
                              const grade_build& build, const std::string& why, const std::string& hidden_why);

/// A scored test into the report: its test's entry, or (implicit: a test the assignment does not
/// have, such as check's racecheck) a new entry worth no points.
void add_outcome(grade_report& r, const test_outcome& o, bool implicit = false);

/// The SHA-256 (hex) of the submission's text, read as its build reads it; of nothing when it cannot
/// be read. What grade.json records, and what a class batch compares to resume.
std::string submission_sha256(const std::string& path);

/// Points as the console prints them ("12.5").
std::string points_text(double v);

}  // namespace cudalab::host
