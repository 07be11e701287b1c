// PrairieLearn's external grading results.json from a grade report (lms_outputs.hpp). Fields from
// PrairieLearn/PrairieLearn docs/externalGrading.md, "Grading results": score in [0, 1], gradable and
// format_errors, message, output, tests[] {name, description, points, max_points, message, output},
// and the 1 MB limit on the file.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <sstream>

#include "assignment/lms_outputs.hpp"
#include "results/json.hpp"

namespace cudalab::host {

using json = nlohmann::ordered_json;

namespace {

// One output field at most this long: a flood of findings must not push the score out of the file.
constexpr std::size_t max_output_bytes = 64 * 1024;

std::string capped(const std::string& s) {
  if (s.size() <= max_output_bytes) return s;
  return s.substr(0, max_output_bytes) + "\n... (cut: the rest is in feedback.md)\n";
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

}  // namespace

std::string prairielearn_results(const grade_report& report) {
  using detail::points_text;
  const grade_report r = student_copy(report);
  const grade_build& b = r.submission.build;
  if (!b.ok) {
    // gradable: false marks the submission "invalid, not gradable": no points won or lost, no attempt used.
    std::vector<std::string> errors = lines_of(capped(b.log()));
    if (errors.empty()) errors.push_back("the submission did not build (" + b.command + ")");
    json j = {
        {"gradable", false}, {"message", "The submission did not build: " + b.command}, {"format_errors", errors}};
    std::string text = json_text(j, 2) + "\n";
    if (text.size() > prairielearn_max_bytes) {
      j["format_errors"] = json::array({errors.front().substr(0, 1000)});
      text = json_text(j, 2) + "\n";
    }
    return text;
  }
  json tests = json::array();
  double hidden_points = 0, hidden_max = 0;
  int hidden_count = 0, hidden_passed = 0;
  std::string hidden_output;
  for (const grade_test& t : r.tests) {
    if (t.visibility == test_visibility::hidden) {
      ++hidden_count;
      hidden_passed += t.status == grade_status::passed;
      hidden_points += t.points;
      hidden_max += t.max_points;
      hidden_output += t.name + ": " + detail::result_line(t) + "\n";
      continue;
    }
    tests.push_back({{"name", t.name},
                     {"description", t.kind + (t.parameters.empty() ? "" : ", at " + t.parameters)},
                     {"points", t.points},
                     {"max_points", t.max_points},
                     {"message", detail::result_line(t)},
                     {"output", capped(t.feedback_md)}});
  }
  // The hidden tests as one entry: how many passed and their points, never what they run at.
  if (hidden_count > 0)
    tests.push_back({{"name", "Hidden tests"},
                     {"description", std::to_string(hidden_count) + " test(s) at inputs you do not see"},
                     {"points", hidden_points},
                     {"max_points", hidden_max},
                     {"message", std::to_string(hidden_passed) + " of " + std::to_string(hidden_count) + " passed"},
                     {"output", capped(hidden_output)}});
  std::string output;
  const std::string device = detail::device_line(r);
  if (!device.empty()) output += "Graded on " + device + ".\n";
  for (const grade_flag& f : r.flags)
    output += "Integrity check " + f.check + " (" + f.severity + "): " + f.message + "\n";
  const double fraction = r.max_score > 0 ? std::clamp(r.score / r.max_score, 0.0, 1.0) : 0.0;
  json j = {{"gradable", true},
            {"score", fraction},
            {"message", points_text(r.score) + " of " + points_text(r.max_score) + " points"},
            {"output", capped(output)},
            {"tests", tests}};
  std::string text = json_text(j, 2) + "\n";
  if (text.size() > prairielearn_max_bytes) {
    // Still too big (many tests): the outputs go, the points and messages stay.
    j["output"] = "The full results were over PrairieLearn's 1 MB; the outputs are in feedback.md.";
    for (json& t : j["tests"]) t["output"] = "";
    text = json_text(j, 2) + "\n";
  }
  if (text.size() > prairielearn_max_bytes) {
    j.erase("tests");
    text = json_text(j, 2) + "\n";
  }
  return text;
}

}  // namespace cudalab::host
