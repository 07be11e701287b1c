// Gradescope's results.json from a grade report (lms_outputs.hpp). Field names and words from
// gradescope/autograder_samples docs/specs.md ("Output format", "Controlling Test Case Visibility",
// "Test case status", "Output String Formatting") and docs/leaderboards.md.
#include <nlohmann/json.hpp>

#include <cmath>
#include <stdexcept>

#include "assignment/lms_outputs.hpp"
#include "results/json.hpp"

namespace cudalab::host {

using json = nlohmann::ordered_json;

namespace {

// A test's output for Gradescope (Markdown): its result line, then what it says to the student.
std::string test_output(const grade_test& t) {
  std::string out = detail::result_line(t);
  if (!t.parameters.empty()) out += "\n\nRuns at: `" + t.parameters + "`";
  if (!t.feedback_md.empty()) out += "\n\n" + t.feedback_md;
  return out;
}

}  // namespace

std::string gradescope_results(const grade_report& report, const gradescope_options& options) {
  const std::string& hidden = options.hidden_visibility;
  // The four visibility words of docs/specs.md.
  if (hidden != "hidden" && hidden != "after_due_date" && hidden != "after_published" && hidden != "visible")
    throw std::invalid_argument("Gradescope has no test visibility '" + hidden +
                                "' (hidden, after_due_date, after_published, visible)");
  const grade_report r = student_copy(report);
  json tests = json::array();
  // The build first, always visible, as an informational test (a status and no score: "Test case status").
  const grade_build& b = r.submission.build;
  tests.push_back({{"name", "Build"},
                   {"status", b.ok ? "passed" : "failed"},
                   {"output", b.command + (b.log().empty() ? "" : "\n\n```text\n" + b.log() + "\n```")},
                   {"visibility", "visible"}});
  int number = 0;
  for (const grade_test& t : r.tests) {
    // "passed"/"failed" are the only statuses Gradescope knows; ours goes into extra_data.
    tests.push_back({{"name", t.name},
                     {"number", std::to_string(++number)},
                     {"score", t.points},
                     {"max_score", t.max_points},
                     {"status", t.status == grade_status::passed ? "passed" : "failed"},
                     {"output", test_output(t)},
                     {"tags", {t.kind}},
                     {"visibility", t.visibility == test_visibility::hidden ? hidden : "visible"},
                     {"extra_data", {{"id", t.id}, {"status", grade_status_name(t.status)}}}});
  }
  if (!r.flags.empty()) {
    bool blocking = false;
    std::string out;
    for (const grade_flag& f : r.flags) {
      blocking = blocking || f.severity == "blocking";
      out += "- **" + f.check + "** (" + f.severity + "): " + f.message + "\n";
    }
    tests.push_back({{"name", "Integrity checks"},
                     {"status", blocking ? "failed" : "passed"},
                     {"output", out},
                     {"visibility", "visible"}});
  }
  json board = json::array();
  for (const leaderboard_value& l : r.leaderboard) {
    json entry = {{"name", l.name}, {"value", l.value}};
    if (l.order == "asc") entry["order"] = "asc";  // desc is Gradescope's default (docs/leaderboards.md)
    board.push_back(entry);
  }
  std::string output = "**" + r.assignment.title + "**";
  const std::string device = detail::device_line(r);
  if (!device.empty()) output += "\n\nGraded on " + device + ".";
  json j = {{"score", r.score},
            {"execution_time", static_cast<long>(std::lround(r.seconds))},
            {"output", output},
            {"output_format", "md"},
            {"test_output_format", "md"},
            {"stdout_visibility", "hidden"},  // the grader's log may name hidden inputs
            {"tests", tests}};
  if (!board.empty()) j["leaderboard"] = board;
  j["extra_data"] = {{"cudalab_version", r.cudalab_version},
                     {"submission_sha256", r.submission.sha256},
                     {"grade_json_schema", grade_schema_version}};
  return json_text(j, 2) + "\n";
}

}  // namespace cudalab::host
