// feedback.html, the student's page of a grade report (lms_outputs.hpp): the score, each test with what
// it checked and why it passed or failed, a performance test's median against its thresholds as a
// picture, the build's messages with the student's lines, the integrity flags. Rendered from
// student_copy(), so nothing of a hidden test's inputs or the staff's block can reach it.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <sstream>

#include "assignment/lms_outputs.hpp"
#include "results/html_page.hpp"
#include "results/html_report.hpp"
#include "results/html_text.hpp"
#include "results/plot_axis.hpp"
#include "results/svg.hpp"

namespace cudalab::host {

namespace {

using detail::points_text;

// "ok", "bad", "warn" or "muted": how a test's status is coloured.
const char* status_class(grade_status s) {
  switch (s) {
    case grade_status::passed:
      return "ok";
    case grade_status::failed:
    case grade_status::error:
    case grade_status::timed_out:
      return "bad";
    case grade_status::held:
      return "warn";
    case grade_status::skipped:
      break;
  }
  return "muted";
}

std::string metric_words(const std::string& name) {
  return name == "pct_of_ceiling" ? "% of the ceiling" : "% of the baseline";
}

// A performance test's median against its thresholds: a scale from below zero_at to above full_at, no
// points left of zero_at, all points right of full_at, the points rising in between; the median a
// marker with its interval as a whisker.
std::string thresholds_picture(const grade_test& t, const std::string& id) {
  const grade_metric& m = *t.metric;
  const auto [zero, full] = *m.points_between;
  const double lo = std::min({zero, m.median, m.ci ? m.ci->first : m.median});
  const double hi = std::max({full, m.median, m.ci ? m.ci->second : m.median});
  const double pad = 0.08 * (hi - lo > 0 ? hi - lo : std::max(1.0, hi));
  const y_axis axis = fit_y_axis(std::max(0.0, lo - pad), hi + pad, lo - pad <= 0);
  const double width = 560, left = 20, right = width - 20, top = 30, bar = 14;
  auto x_at = [&](double v) { return left + axis.fraction(v) * (right - left); };
  svg_document svg(width, 96, id + "-");
  svg.open_group("thresholds");
  svg.rect(left, top, x_at(zero) - left, bar, "#f5c6c6");
  const int steps = 12;  // the rise from no points to all: pale to full green
  for (int i = 0; i < steps; ++i) {
    const double a = zero + (full - zero) * i / steps, b = zero + (full - zero) * (i + 1) / steps;
    const auto mix = [&](int from, int to) { return from + (to - from) * (i + 1) / steps; };
    svg.rect(x_at(a), top, x_at(b) - x_at(a), bar,
             fmt::format("#{:02x}{:02x}{:02x}", mix(0xe8, 0x7a), mix(0xf3, 0xc2), mix(0xe8, 0x7a)));
  }
  svg.rect(x_at(full), top, right - x_at(full), bar, "#7ac27a");
  svg.line(left, top + bar, right, top + bar, "#444");
  const double step = axis.ticks.size() > 1 ? axis.ticks[1] - axis.ticks[0] : 1;
  for (double tick : axis.ticks) {
    svg.line(x_at(tick), top + bar, x_at(tick), top + bar + 4, "#444");
    svg.text(x_at(tick), top + bar + 16, tick_text(tick, step), text_anchor::middle, 11);
  }
  svg.text(x_at(zero), top - 6, "0 points at " + points_text(zero), text_anchor::end, 11);
  svg.text(x_at(full), top - 6, "all points at " + points_text(full), text_anchor::start, 11);
  const double y = top + bar / 2;
  if (m.ci) {
    svg.line(x_at(m.ci->first), y, x_at(m.ci->second), y, "#111", 2);
    svg.line(x_at(m.ci->first), y - 5, x_at(m.ci->first), y + 5, "#111", 2);
    svg.line(x_at(m.ci->second), y - 5, x_at(m.ci->second), y + 5, "#111", 2);
  }
  svg.marker(marker_shape::diamond, x_at(m.median), y, "#111", fmt::format("your median: {:.1f}", m.median));
  svg.text(left, 90,
           fmt::format("{} ({}: your median {:.1f}{})", metric_words(m.name), t.name, m.median,
                       m.ci ? fmt::format(", 95% interval {:.1f} to {:.1f}", m.ci->first, m.ci->second) : ""),
           text_anchor::start, 11);
  svg.close_group();
  return "<figure class=\"plot thresholds\">" + svg.str() + "</figure>\n";
}

// The build's messages, each followed by the student's line it names ("  42 | the line").
std::string build_messages(const grade_build& b) {
  std::map<int, std::string> lines;
  for (const source_line& l : b.lines) lines.emplace(l.line, l.text);
  std::string html;
  for (const compile_diagnostic& d : b.diagnostics) {
    html += html_escape(d.text()) + "\n";
    const auto line = lines.find(d.line);
    if (line != lines.end())
      html += "<span class=\"muted\">" + html_escape(fmt::format("{:>6} | ", line->first)) + "</span><mark>" +
              html_escape(line->second) + "</mark>\n";
  }
  return "<pre class=\"build-log\">" + html + "</pre>\n";
}

std::string test_section(const grade_test& t, std::size_t index) {
  const std::string id = html_id("test-", t.id);
  std::string s = fmt::format(
      "<section class=\"test\" id=\"{}\">\n<h3>{}{} <span class=\"{}\">{}</span></h3>\n", id, html_escape(t.name),
      t.visibility == test_visibility::hidden ? " (hidden)" : "", status_class(t.status),
      html_escape(fmt::format("{} / {} points", points_text(t.points), points_text(t.max_points))));
  const bool vowel = !t.kind.empty() && std::string("aeiou").find(t.kind[0]) != std::string::npos;
  std::string checked = (vowel ? "an " : "a ") + t.kind + " test";
  if (t.visibility == test_visibility::hidden)
    checked += "; a hidden test, graded by the course: its inputs are not shown";
  else if (!t.parameters.empty())
    checked += ", at " + t.parameters;
  s += "<p><span class=\"muted\">What it checked:</span> " + html_escape(checked) + "</p>\n";
  s += "<p><span class=\"muted\">Result:</span> <span class=\"" + std::string(status_class(t.status)) + "\">" +
       html_escape(detail::result_line(t)) + "</span></p>\n";
  if (t.metric && t.metric->points_between) s += thresholds_picture(t, fmt::format("perf{}", index));
  if (!t.feedback_md.empty()) s += "<div class=\"details\">\n" + notes_html(t.feedback_md) + "</div>\n";
  return s + "</section>\n";
}

}  // namespace

std::string feedback_html(const grade_report& report) {
  const grade_report r = student_copy(report);
  std::string body = "<header>\n<h1>" + html_escape(r.assignment.title) + "</h1>\n";
  body += "<p class=\"muted\">" +
          html_escape(r.command == "check"
                          ? "cudalab check: the visible tests on your GPU; hidden tests are graded by the course"
                          : "graded " + r.graded_at + " by cudalab " + r.cudalab_version) +
          "</p>\n";
  const bool any_ran = std::any_of(r.tests.begin(), r.tests.end(),
                                   [](const grade_test& t) { return t.status != grade_status::skipped; });
  const double fraction = r.max_score > 0 ? std::clamp(r.score / r.max_score, 0.0, 1.0) : 0;
  if (any_ran || !r.submission.build.ok)
    body += fmt::format(
        "<p id=\"score\"><span class=\"score\">{} / {}</span> points <span class=\"bar\" "
        "style=\"width:{:.0f}px\"></span>"
        "<span class=\"bar rest\" style=\"width:{:.0f}px\"></span></p>\n",
        html_escape(points_text(r.score)), html_escape(points_text(r.max_score)), 240 * fraction, 240 * (1 - fraction));
  else
    body += "<p id=\"score\"><span class=\"score\">no score yet</span> " +
            html_escape("no test ran (" + points_text(r.max_score) + " points in all)") + "</p>\n";
  if (!r.submission.build.ok)
    body +=
        "<p class=\"callout bad\">The submission does not build: the compiler's messages are under "
        "<a href=\"#build\">Build</a>.</p>\n";
  body += "</header>\n<dl class=\"facts\">\n";
  body += "<dt>submission</dt><dd><code>" +
          html_escape(r.submission.files.empty() ? std::string("-") : r.submission.files.front()) + "</code>" +
          (r.submission.sha256.empty()
               ? ""
               : " <span class=\"muted\">sha256 " + html_escape(r.submission.sha256.substr(0, 12)) + "</span>") +
          "</dd>\n";
  body += "<dt>build</dt><dd><span class=\"" + std::string(r.submission.build.ok ? "ok\">ok" : "bad\">FAILED") +
          "</span>, " + html_escape(r.submission.build.command) + "</dd>\n";
  const std::string device = detail::device_line(r);
  body +=
      "<dt>device</dt><dd>" + html_escape(device.empty() ? "none (nothing ran on a GPU)" : device) + "</dd>\n</dl>\n";

  body += "<h2>Tests</h2>\n";
  html_table tests("tests", {{"test"}, {"kind"}, {"points", true}, {"result"}}, true, false);
  for (const grade_test& t : r.tests) {
    const html_cell name =
        markup_cell("<a href=\"#" + html_id("test-", t.id) + "\">" + html_escape(t.name) + "</a>" +
                    (t.visibility == test_visibility::hidden ? " <span class=\"muted\">(hidden)</span>" : ""));
    html_cell result = text_cell(detail::result_line(t));
    result.css_class = status_class(t.status);
    tests.add_row({name, text_cell(t.kind),
                   text_cell(points_text(t.points) + " / " + points_text(t.max_points), t.points), result},
                  "", std::string(status_class(t.status)) == "bad" ? "bad" : "");
  }
  body += tests.str();
  for (std::size_t i = 0; i < r.tests.size(); ++i) body += test_section(r.tests[i], i + 1);
  if (!r.flags.empty()) {
    body += "<h2 id=\"integrity\">Integrity checks</h2>\n<ul>\n";
    for (const grade_flag& f : r.flags)
      body += "<li><strong>" + html_escape(f.check) + "</strong> <span class=\"" +
              (f.severity == "blocking"  ? "bad"
               : f.severity == "warning" ? "warn"
                                         : "muted") +
              "\">(" + html_escape(f.severity) + ")</span>: " + html_escape(f.message) + "</li>\n";
    body += "</ul>\n";
  }
  if (!r.submission.build.diagnostics.empty())
    body += "<h2 id=\"build\">Build</h2>\n<p class=\"muted\">" + html_escape(r.submission.build.command) +
            (r.submission.build.lines.empty() ? "" : "; under each message, your line it names") + "</p>\n" +
            build_messages(r.submission.build);
  return html_document(r.assignment.title + ": feedback", body);
}

}  // namespace cudalab::host
