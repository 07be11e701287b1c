// class.html and class-staff.html, a class's grading on one page for its staff (class_results.hpp):
// the score distribution, pass rates per test, each performance test's spread against the reference,
// integrity flags and the students held for review, each linked to the student's row. By pseudonym;
// only the staff variant names students and links their feedback.html.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "assignment/class_results.hpp"
#include "assignment/lms_outputs.hpp"
#include "results/html_page.hpp"
#include "results/html_text.hpp"
#include "results/plot_axis.hpp"
#include "results/svg.hpp"

namespace cudalab::host {

namespace {

using detail::points_text;

// One student as the page shows them: by pseudonym, and by name on the staff's page.
struct shown_student {
  const class_entry* entry;
  std::string anchor;  // "student-3": the row the page's links go to
  std::string label;   // the pseudonym, and "(id)" after it on the staff's page
};

class class_page {
 public:
  class_page(const std::string& title, const std::vector<class_entry>& entries, bool staff)
      : title_(title), staff_(staff) {
    std::vector<const class_entry*> order;
    for (const class_entry& e : entries) order.push_back(&e);
    // By pseudonym on the shared page, so that not even the order says who is who.
    if (!staff)
      std::stable_sort(order.begin(), order.end(), [](const class_entry* a, const class_entry* b) {
        return a->report.student.pseudonym < b->report.student.pseudonym;
      });
    for (std::size_t i = 0; i < order.size(); ++i) {
      const grade_report& r = order[i]->report;
      const std::string pseudonym =
          r.student.pseudonym.empty() ? fmt::format("student {}", i + 1) : r.student.pseudonym;
      students_.push_back(
          {order[i], fmt::format("student-{}", i + 1), staff ? pseudonym + " (" + order[i]->student + ")" : pseudonym});
    }
    for (const class_entry* e : order)
      for (const grade_test& t : e->report.tests)
        if (std::none_of(tests_.begin(), tests_.end(), [&](const grade_test* k) { return k->id == t.id; }))
          tests_.push_back(&t);
  }

  std::string html() const {
    std::string body =
        "<header>\n<h1>" + html_escape(title_) + ": the class</h1>\n<p class=\"muted\">" +
        html_escape(fmt::format("{} student{} graded", students_.size(), students_.size() == 1 ? "" : "s")) + "</p>\n";
    body += staff_
                ? "<p class=\"callout\">Staff only: this page names the students. <code>class.html</code> beside it "
                  "shows them by pseudonym.</p>\n"
                : "<p class=\"muted\">Students are shown by their pseudonym; the staff's <code>class-staff.html</code> "
                  "names them.</p>\n";
    body += "</header>\n";
    if (students_.empty()) return html_document(title_ + ": the class", body + "<p>No student was graded.</p>\n");
    body += scores();
    body += pass_rates();
    body += performance();
    body += integrity();
    body += review();
    body += roster();
    return html_document(title_ + (staff_ ? ": the class (staff)" : ": the class"), body);
  }

 private:
  std::string link(const shown_student& s) const {
    return "<a href=\"#" + s.anchor + "\">" + html_escape(s.label) + "</a>";
  }

  // A histogram of the scores: ten bins of a tenth of the points each (the last one closed).
  std::string scores() const {
    double max_score = 0;
    std::vector<double> scores;
    for (const shown_student& s : students_) {
      max_score = std::max(max_score, s.entry->report.max_score);
      scores.push_back(s.entry->report.score);
    }
    std::sort(scores.begin(), scores.end());
    const double median =
        scores.size() % 2 ? scores[scores.size() / 2] : (scores[scores.size() / 2 - 1] + scores[scores.size() / 2]) / 2;
    const int bins = 10;
    std::vector<int> count(bins, 0);
    for (double v : scores)
      ++count[std::size_t(std::clamp(int(max_score > 0 ? v / max_score * bins : 0), 0, bins - 1))];
    const int most = *std::max_element(count.begin(), count.end());
    const double width = 620, left = 48, right = width - 12, top = 16, height = 160;
    const double bin_width = (right - left) / bins;
    const y_axis axis = fit_y_axis(0, most, true);
    auto y_at = [&](double v) { return top + height - axis.fraction(v) * height; };
    svg_document svg(width, top + height + 48, "scores-");
    svg.open_group("distribution");
    for (double t : axis.ticks) {
      svg.line(left, y_at(t), right, y_at(t), "#ddd");
      svg.text(left - 6, y_at(t) + 4, tick_text(t, axis.ticks.size() > 1 ? axis.ticks[1] - axis.ticks[0] : 1),
               text_anchor::end);
    }
    for (int b = 0; b < bins; ++b) {
      const double lo = max_score * b / bins, hi = max_score * (b + 1) / bins;
      if (count[std::size_t(b)] > 0) {
        svg.rect(left + b * bin_width + 2, y_at(count[std::size_t(b)]), bin_width - 4,
                 top + height - y_at(count[std::size_t(b)]), "#1f77b4");
        svg.text(left + (b + 0.5) * bin_width, y_at(count[std::size_t(b)]) - 4, std::to_string(count[std::size_t(b)]),
                 text_anchor::middle, 11);
      }
      svg.text(left + (b + 0.5) * bin_width, top + height + 16, points_text(lo) + "-" + points_text(hi),
               text_anchor::middle, 10);
    }
    svg.line(left, top + height, right, top + height, "#444");
    svg.text(left + (right - left) / 2, top + height + 38, "points (of " + points_text(max_score) + ")",
             text_anchor::middle);
    svg.close_group();
    return "<section id=\"scores\">\n<h2>Scores</h2>\n<p>" +
           html_escape(fmt::format("median {} of {}; lowest {}, highest {}", points_text(median),
                                   points_text(max_score), points_text(scores.front()), points_text(scores.back()))) +
           "</p>\n<figure class=\"plot\">" + svg.str() +
           "<figcaption>How many students scored in each tenth of the points</figcaption></figure>\n</section>\n";
  }

  std::string pass_rates() const {
    html_table table("pass-rates",
                     {{"test"},
                      {"kind"},
                      {"passed", true},
                      {"pass rate", true},
                      {"failed", true},
                      {"error", true},
                      {"timed out", true},
                      {"held", true},
                      {"not run", true},
                      {"mean points", true}},
                     true, false);
    for (const grade_test* t : tests_) {
      int n[6] = {0, 0, 0, 0, 0, 0}, graded = 0;
      double points = 0;
      for (const shown_student& s : students_)
        for (const grade_test& g : s.entry->report.tests)
          if (g.id == t->id) {
            ++n[static_cast<int>(g.status)];
            ++graded;
            points += g.points;
          }
      const double rate = graded ? double(n[0]) / graded : 0;
      html_cell bar = text_cell(fmt::format("{:.0f}%", 100 * rate), 100 * rate);
      bar.html = fmt::format("<span class=\"bar\" style=\"width:{:.0f}px\"></span> ", 80 * rate) + bar.html;
      table.add_row(
          {text_cell(t->name + (t->visibility == test_visibility::hidden ? " (hidden)" : "")), text_cell(t->kind),
           text_cell(fmt::format("{} of {}", n[0], graded), double(n[0])), bar, text_cell(std::to_string(n[1]), n[1]),
           text_cell(std::to_string(n[2]), n[2]), text_cell(std::to_string(n[3]), n[3]),
           text_cell(std::to_string(n[4]), n[4]), text_cell(std::to_string(n[5]), n[5]),
           text_cell(graded ? fmt::format("{} of {}", points_text(points / graded), points_text(t->max_points)) : "-",
                     graded ? std::optional(points / graded) : std::nullopt)},
          "", rate < 0.5 ? "warn" : "");
    }
    return "<section id=\"tests\">\n<h2>Pass rates per test</h2>\n" + table.str() + "</section>\n";
  }

  // Each performance test: every student's median (and interval) against the reference, 100 = the
  // lab's baseline (or its ceiling), with the test's thresholds, best at the top.
  std::string performance() const {
    std::string s;
    for (const grade_test* t : tests_) {
      if (t->kind != "performance") continue;
      struct dot {
        const shown_student* who;
        grade_metric m;
      };
      std::vector<dot> dots;
      for (const shown_student& st : students_)
        for (const grade_test& g : st.entry->report.tests)
          if (g.id == t->id && g.metric) dots.push_back({&st, *g.metric});
      if (dots.empty()) continue;
      std::stable_sort(dots.begin(), dots.end(), [](const dot& a, const dot& b) { return a.m.median > b.m.median; });
      double lo = 100, hi = 100;
      std::optional<std::pair<double, double>> thresholds;
      for (const dot& d : dots) {
        lo = std::min(lo, d.m.ci ? d.m.ci->first : d.m.median);
        hi = std::max(hi, d.m.ci ? d.m.ci->second : d.m.median);
        if (d.m.points_between) thresholds = d.m.points_between;
      }
      if (thresholds) {
        lo = std::min(lo, thresholds->first);
        hi = std::max(hi, thresholds->second);
      }
      const y_axis axis = fit_y_axis(lo, hi * 1.04, lo < 0.5 * hi);
      const double row = dots.size() > 60 ? 5 : 14, width = 640, left = 150, right = width - 16, top = 24;
      const double height = row * double(dots.size());
      auto x_at = [&](double v) { return left + axis.fraction(v) * (right - left); };
      const std::string id = html_id("perf-", t->id);
      svg_document svg(width, top + height + 44, id + "-");
      svg.open_group("spread");
      const double step = axis.ticks.size() > 1 ? axis.ticks[1] - axis.ticks[0] : 1;
      for (double tick : axis.ticks) {
        svg.line(x_at(tick), top, x_at(tick), top + height, "#ddd");
        svg.text(x_at(tick), top + height + 16, tick_text(tick, step), text_anchor::middle, 11);
      }
      svg.line(x_at(100), top - 8, x_at(100), top + height, "#444", 1.5, "6 4");
      svg.text(x_at(100), top - 12, "reference = 100", text_anchor::middle, 11);
      if (thresholds)
        for (const auto& [v, words] :
             {std::make_pair(thresholds->first, "0 points"), std::make_pair(thresholds->second, "all points")}) {
          svg.line(x_at(v), top, x_at(v), top + height, words[0] == '0' ? "#cf222e" : "#1a7f37", 1, "2 3");
          svg.text(x_at(v), top + height + 30, std::string(words) + " at " + points_text(v), text_anchor::middle, 10);
        }
      for (std::size_t i = 0; i < dots.size(); ++i) {
        const dot& d = dots[i];
        const double y = top + row * (double(i) + 0.5);
        if (row >= 12) svg.text(left - 8, y + 4, d.who->label.substr(0, 22), text_anchor::end, 11);
        if (d.m.ci) svg.line(x_at(d.m.ci->first), y, x_at(d.m.ci->second), y, "#1f77b4", 1.5);
        svg.marker(marker_shape::circle, x_at(d.m.median), y,
                   held_for_review(d.who->entry->report) ? "#cf222e" : "#1f77b4",
                   fmt::format("{}: {:.1f}", d.who->label, d.m.median));
      }
      svg.close_group();
      s += "<h3>" + html_escape(t->name) + "</h3>\n<figure class=\"plot\">" + svg.str() + "<figcaption>" +
           html_escape(fmt::format("Each student's median {} ({} of {} students), best first, with its 95% interval; "
                                   "red: held for review",
                                   dots.front().m.name == "pct_of_ceiling" ? "% of the ceiling" : "% of the baseline",
                                   dots.size(), students_.size())) +
           "</figcaption></figure>\n";
    }
    if (s.empty()) return "";
    return "<section id=\"performance\">\n<h2>Performance against the reference</h2>\n" + s + "</section>\n";
  }

  std::string integrity() const {
    html_table table("flags", {{"student"}, {"check"}, {"severity"}, {"finding"}}, true, false);
    for (const shown_student& s : students_)
      for (const grade_flag& f : s.entry->report.flags) {
        html_cell severity = text_cell(f.severity);
        severity.css_class = f.severity == "blocking" ? "bad" : f.severity == "warning" ? "warn" : "muted";
        html_cell finding = text_cell(f.message);
        finding.css_class = "wrap";
        table.add_row({markup_cell(link(s)), text_cell(f.check), severity, finding}, "",
                      f.severity == "blocking" ? "bad" : "");
      }
    return "<section id=\"integrity\">\n<h2>Integrity flags</h2>\n" +
           (table.rows() == 0 ? std::string("<p class=\"ok\">No submission raised a flag.</p>\n") : table.str()) +
           "</section>\n";
  }

  std::string review() const {
    std::string items;
    for (const shown_student& s : students_) {
      const grade_report& r = s.entry->report;
      if (!held_for_review(r)) continue;
      std::string why;
      for (const grade_test& t : r.tests)
        if (t.status == grade_status::held) why += (why.empty() ? "" : "; ") + t.name + ": " + t.message;
      for (const grade_flag& f : r.flags)
        if (f.severity == "blocking") why += (why.empty() ? "" : "; ") + f.check + ": " + f.message;
      items += "<li>" + link(s) + " " + html_escape(why) + "</li>\n";
    }
    return "<section id=\"review\">\n<h2>Held for review</h2>\n" +
           (items.empty() ? std::string("<p class=\"ok\">Nobody is held for review.</p>\n")
                          : "<ul>\n" + items + "</ul>\n") +
           "</section>\n";
  }

  std::string roster() const {
    std::vector<html_column> columns = {{"student"}, {"score", true}};
    for (const grade_test* t : tests_) columns.push_back({t->name, true, t->kind});
    columns.push_back({"flags", true});
    columns.push_back({"device"});
    if (staff_) columns.push_back({"report"});
    html_table table("students", std::move(columns), true, false);
    for (const shown_student& s : students_) {
      const grade_report& r = s.entry->report;
      std::vector<html_cell> cells = {markup_cell("<span id=\"" + s.anchor + "\">" + html_escape(s.label) + "</span>"),
                                      text_cell(points_text(r.score) + " / " + points_text(r.max_score), r.score)};
      for (const grade_test* t : tests_) {
        const auto g = std::find_if(r.tests.begin(), r.tests.end(), [&](const grade_test& x) { return x.id == t->id; });
        if (g == r.tests.end()) {
          cells.push_back(text_cell("-"));
          continue;
        }
        html_cell c = text_cell(points_text(g->points), g->points);
        c.css_class = g->status == grade_status::passed    ? "ok"
                      : g->status == grade_status::held    ? "warn"
                      : g->status == grade_status::skipped ? "muted"
                                                           : "bad";
        c.title = grade_status_name(g->status) + std::string(g->message.empty() ? "" : ": " + g->message);
        cells.push_back(c);
      }
      cells.push_back(text_cell(std::to_string(r.flags.size()), double(r.flags.size())));
      cells.push_back(text_cell(r.device ? r.device->name : "-"));
      if (staff_)
        cells.push_back(
            markup_cell("<a href=\"./" + html_escape(s.entry->student) + "/feedback.html\">feedback.html</a>"));
      table.add_row(cells, "", held_for_review(r) ? "warn" : "");
    }
    return "<section id=\"roster\">\n<h2>Students</h2>\n<p class=\"muted\">Points per test; a cell's tooltip "
           "says its status and why.</p>\n" +
           table.str() + "</section>\n";
  }

  std::string title_;
  bool staff_;
  std::vector<shown_student> students_;
  std::vector<const grade_test*> tests_;  // every test of any report, in the order first seen
};

}  // namespace

std::string class_html(const std::string& title, const std::vector<class_entry>& entries, bool staff) {
  return class_page(title, entries, staff).html();
}

}  // namespace cudalab::host
