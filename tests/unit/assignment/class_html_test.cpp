// The class's pages (class_html): the score distribution, pass rates, the performance spread, flags and
// review linked to each student's row; class.html names no student, class-staff.html does and links
// each one's feedback.html; text from the reports is escaped. The browser's view: tests/html/ (html.class).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "assignment/class_results.hpp"

namespace cudalab::host {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

grade_test test_of(const std::string& id, const std::string& kind, double points, double max_points, grade_status s) {
  grade_test t;
  t.id = t.name = id;
  t.kind = kind;
  t.points = points;
  t.max_points = max_points;
  t.status = s;
  return t;
}

// A student: correctness passed or not, a performance median (none: not run), a flag when given.
class_entry student(const std::string& id, const std::string& pseudonym, bool correct, std::optional<double> median,
                    std::optional<grade_flag> flag = std::nullopt) {
  class_entry e;
  e.student = id;
  grade_report& r = e.report;
  r.assignment.title = "Reduction";
  r.student.pseudonym = pseudonym;
  r.max_score = 100;
  r.tests.push_back(
      test_of("sizes", "correctness", correct ? 60 : 0, 60, correct ? grade_status::passed : grade_status::failed));
  grade_test perf = test_of("bandwidth", "performance", 0, 40, median ? grade_status::passed : grade_status::skipped);
  if (median) {
    perf.points = std::clamp((*median - 30) / 40 * 40, 0.0, 40.0);
    perf.metric = grade_metric{"pct_of_baseline", *median, std::make_pair(*median - 2, *median + 2), 3,
                               std::make_pair(30.0, 70.0)};
  }
  if (flag && flag->severity == "blocking") perf.status = grade_status::held;
  r.tests.push_back(perf);
  if (flag) r.flags.push_back(*flag);
  r.score = r.tests[0].points + r.tests[1].points;
  return e;
}

std::vector<class_entry> a_class() {
  return {student("alice", "zesty-yak-01", true, 74.0),
          student("bob", "<script>window.pwned=1</script>", true, 104.0,
                  grade_flag{"roofline", "blocking", "above the ceiling <b>really</b>"}),
          student("carol", "brisk-otter-3f", false, std::nullopt),
          student("dave", "calm-heron-0a", true, 41.5, grade_flag{"census", "warning", "a stream of its own"})};
}

TEST(ClassHtml, TheSharedPageGoesByPseudonymOnly) {
  const std::string html = class_html("Reduction", a_class(), false);
  for (const char* id : {"alice", "bob", "carol", "dave"}) EXPECT_EQ(html.find(id), std::string::npos) << id;
  EXPECT_EQ(html.find("feedback.html\""), std::string::npos);
  // Listed by pseudonym, so not even the order says who is who: "&lt;script..." < "brisk" < "calm" < "zesty".
  const auto script = html.find("<span id=\"student-1\">&lt;script&gt;"),
             brisk = html.find("<span id=\"student-2\">brisk");
  EXPECT_NE(script, std::string::npos);
  EXPECT_NE(brisk, std::string::npos);
  EXPECT_NE(html.find("<span id=\"student-4\">zesty-yak-01</span>"), std::string::npos);
  EXPECT_EQ(html.find("<script>window"), std::string::npos);
  EXPECT_EQ(html.find("<b>really"), std::string::npos);
}

TEST(ClassHtml, StaffSeeNamesAndEachStudentsFeedback) {
  const std::string html = class_html("Reduction", a_class(), true);
  EXPECT_NE(html.find("Staff only"), std::string::npos);
  EXPECT_NE(html.find(">zesty-yak-01 (alice)</span>"), std::string::npos);
  EXPECT_EQ(count(html, "/feedback.html\">feedback.html</a>"), 4u);
  EXPECT_NE(html.find("<a href=\"./carol/feedback.html\">"), std::string::npos);
}

TEST(ClassHtml, DistributionPassRatesSpreadFlagsAndReview) {
  const std::string html = class_html("Reduction", a_class(), false);
  // The score histogram: four students in tenths of 100 points.
  EXPECT_NE(html.find("<g id=\"scores-distribution\">"), std::string::npos);
  EXPECT_NE(html.find("median 85.75 of 100; lowest 0, highest 100"), std::string::npos) << html;
  // Pass rates: a row per test; sizes passed by 3 of 4.
  const auto rates =
      html.substr(html.find("<table id=\"pass-rates\""),
                  html.find("</table>", html.find("<table id=\"pass-rates\"")) - html.find("<table id=\"pass-rates\""));
  EXPECT_EQ(count(rates, "<tbody"), 2u);
  EXPECT_NE(rates.find("<td class=\"num\" data-sort=\"3\">3 of 4</td>"), std::string::npos) << rates;
  // The spread: three medians against the reference at 100 and the thresholds; bob's, held, in red.
  EXPECT_NE(html.find("<g id=\"perf-bandwidth-spread\">"), std::string::npos);
  EXPECT_NE(html.find(">reference = 100<"), std::string::npos);
  EXPECT_NE(html.find(">0 points at 30<"), std::string::npos);
  EXPECT_EQ(count(html, "<circle"), 3u);
  EXPECT_NE(html.find("fill=\"#cf222e\"><title>&lt;script&gt;window.pwned=1&lt;/script&gt;: 104.0</title>"),
            std::string::npos);
  // Flags and review, each linked to the student's row.
  const auto flags =
      html.substr(html.find("<table id=\"flags\""),
                  html.find("</table>", html.find("<table id=\"flags\"")) - html.find("<table id=\"flags\""));
  EXPECT_EQ(count(flags, "<tbody"), 2u);
  EXPECT_NE(flags.find("<a href=\"#student-3\">calm-heron-0a</a>"), std::string::npos) << flags;
  const auto review = html.substr(html.find("<section id=\"review\">"));
  EXPECT_NE(review.find("<li><a href=\"#student-1\">&lt;script&gt;"), std::string::npos);
  EXPECT_NE(review.find("roofline: above the ceiling &lt;b&gt;really&lt;/b&gt;"), std::string::npos);
  EXPECT_EQ(review.find("calm-heron"), review.find("calm-heron-0a</span>"));  // a warning is no hold
}

TEST(ClassHtml, AnEmptyClassSaysSo) {
  EXPECT_NE(class_html("Reduction", {}, false).find("No student was graded."), std::string::npos);
}

}  // namespace
}  // namespace cudalab::host
