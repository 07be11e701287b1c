// feedback.md, the student's page of a grade report (lms_outputs.hpp), and the lines every render shares.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "assignment/lms_outputs.hpp"

namespace cudalab::host {

namespace detail {

std::string points_text(double points) { return fmt::format("{:g}", std::round(points * 100) / 100); }

std::string result_line(const grade_test& t) {
  // In grade_status's order.
  static const char* const words[] = {"passed", "FAILED", "ERROR", "TIMED OUT", "HELD for review", "not run"};
  std::string line = words[static_cast<int>(t.status)];
  if (!t.message.empty()) line += ": " + t.message;
  if (t.metric) {
    line += fmt::format(" (median {:.1f}", t.metric->median);
    if (t.metric->ci) line += fmt::format(", 95% CI {:.1f}-{:.1f}", t.metric->ci->first, t.metric->ci->second);
    line += fmt::format(", {} round{})", t.metric->rounds, t.metric->rounds == 1 ? "" : "s");
  }
  return line;
}

std::string device_line(const grade_report& r) {
  if (!r.device) return "";
  std::string line = r.device->name;
  if (r.measured && r.measured->d2d_copy_gbps > 0)
    line += fmt::format(" (D2D copy {:.0f} GB/s)", r.measured->d2d_copy_gbps);
  return line;
}

}  // namespace detail

namespace {

// A Markdown table cell: one line, its pipes escaped.
std::string cell(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out;
}

// A fenced block that no backtick run in `text` can close early.
std::string fenced(const std::string& text) {
  std::string fence = "```";
  while (text.find(fence) != std::string::npos) fence += '`';
  return fence + "text\n" + text + (text.empty() || text.back() == '\n' ? "" : "\n") + fence + "\n";
}

}  // namespace

std::string feedback_markdown(const grade_report& report) {
  using detail::points_text;
  const grade_report r = student_copy(report);
  std::ostringstream md;
  md << "# " << r.assignment.title << "\n\n";
  const bool any_ran = std::any_of(r.tests.begin(), r.tests.end(),
                                   [](const grade_test& t) { return t.status != grade_status::skipped; });
  if (any_ran || !r.submission.build.ok)
    md << "**Score: " << points_text(r.score) << " / " << points_text(r.max_score) << "**"
       << (r.submission.build.ok ? "" : " - the submission does not build (the log is below)");
  else
    md << "**Score: none yet - no test ran** (" << points_text(r.max_score) << " points in all)";
  if (r.command == "check")
    md << " - `cudalab check` runs the visible tests on your GPU; hidden tests are graded by the course";
  md << "\n\n";
  const std::string device = detail::device_line(r);
  md << "- submission: " << (r.submission.files.empty() ? std::string("-") : r.submission.files.front());
  if (!r.submission.sha256.empty()) md << " (sha256 " << r.submission.sha256.substr(0, 12) << ")";
  md << "\n- build: " << (r.submission.build.ok ? "ok" : "FAILED") << ", " << r.submission.build.command << "\n";
  md << "- device: " << (device.empty() ? std::string("none (nothing ran on a GPU)") : device) << "\n\n";

  md << "| test | kind | points | result |\n|---|---|---:|---|\n";
  for (const grade_test& t : r.tests)
    md << "| " << cell(t.name) << (t.visibility == test_visibility::hidden ? " (hidden)" : "") << " | " << t.kind
       << " | " << points_text(t.points) << " / " << points_text(t.max_points) << " | " << cell(detail::result_line(t))
       << " |\n";

  for (const grade_test& t : r.tests) {
    if (t.feedback_md.empty()) continue;  // hidden tests' was dropped by student_copy
    md << "\n## " << t.name << "\n\n" << t.feedback_md << (t.feedback_md.back() == '\n' ? "" : "\n");
  }
  if (!r.flags.empty()) {
    md << "\n## Integrity checks\n\n";
    for (const grade_flag& f : r.flags) md << "- **" << f.check << "** (" << f.severity << "): " << f.message << "\n";
  }
  if (!r.submission.build.ok && !r.submission.build.log().empty())
    md << "\n## Build log\n\n" << fenced(r.submission.build.log());
  return md.str();
}

}  // namespace cudalab::host
