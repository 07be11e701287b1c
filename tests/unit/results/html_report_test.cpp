// The HTML reports' pieces: escaping and ids, the median's interval, the lab file's notes, and
// report.html of a run (its context, a section, plot and table per lab file, failures under their
// rows, hostile names shown as text, nothing fetched from elsewhere). The browser's view of the same
// pages is tests/html/.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "plan/planning.hpp"
#include "results/html_page.hpp"
#include "results/html_report.hpp"
#include "results/html_text.hpp"
#include "results/median_interval.hpp"
#include "results/result_set.hpp"

namespace cudalab::host {
namespace {

namespace fs = std::filesystem;
const fs::path fixtures = fs::path(CUDALAB_SOURCE_DIR) / "tests" / "fixtures";

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(HtmlText, EveryCharacterMarkupReadsIsEscaped) {
  EXPECT_EQ(html_escape("<img src=x onerror='alert(1)'> & \"q\""),
            "&lt;img src=x onerror=&#39;alert(1)&#39;&gt; &amp; &quot;q&quot;");
  // Bytes that are not UTF-8 and control characters cannot reach the page either.
  EXPECT_EQ(html_escape(std::string("a\xff") + "\x01" + "b\n"),
            "a\xEF\xBF\xBD\xEF\xBF\xBD"
            "b\n");
  EXPECT_EQ(html_escape("caf\xC3\xA9"), "caf\xC3\xA9");  // UTF-8 stays
}

TEST(HtmlText, IdsAreLettersDigitsAndDashes) {
  EXPECT_EQ(html_id("lab-", "labs/a b.toml"), "lab-labs-a-b-toml");
  EXPECT_EQ(html_id("t-", "x\"><script>"), "t-x---script-");
  EXPECT_EQ(html_id("t-", "caf\xC3\xA9"), "t-caf--");
}

TEST(HtmlPage, TablesAreRowGroupsWithNotesAndSortKeys) {
  html_table t("results-1", {{"variant"}, {"GB/s", true}}, true, true);
  t.add_row({text_cell("a<b"), text_cell("12.5", 12.5)}, "a<b", "bad", "why &amp; how");
  t.add_row({text_cell("c"), text_cell("-")}, "c");
  const std::string html = t.str();
  EXPECT_NE(html.find("<table id=\"results-1\" class=\"sortable\" data-filter=\"variant\">"), std::string::npos);
  EXPECT_EQ(count(html, "<tbody"), 2u);
  EXPECT_NE(html.find("<tbody class=\"row-bad\" data-variant=\"a&lt;b\"><tr><td>a&lt;b</td><td class=\"num\" "
                      "data-sort=\"12.5\">12.5</td></tr><tr class=\"note\"><td colspan=\"2\">why &amp; how</td></tr>"),
            std::string::npos)
      << html;
  const std::string page = html_document("t <x>", html);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(page.find("<title>t &lt;x&gt;</title>"), std::string::npos);
  EXPECT_NE(page.find("prefers-color-scheme:dark"), std::string::npos);
}

timing repeated(std::vector<double> ms) {
  timing t;
  t.timed = true;
  t.repetition_ms = ms;
  t.min_ms = *std::min_element(ms.begin(), ms.end());
  t.max_ms = *std::max_element(ms.begin(), ms.end());
  return t;
}

TEST(MedianInterval, OrderStatisticsFromSixRepetitionsOn) {
  // 10 repetitions: the 2nd and 9th smallest hold the median with 1 - 2 x 11/1024 = 97.9%.
  const auto ten = interval_of_median(repeated({10, 1, 9, 2, 8, 3, 7, 4, 6, 5}));
  ASSERT_TRUE(ten);
  EXPECT_EQ(ten->lo_ms, 2);
  EXPECT_EQ(ten->hi_ms, 9);
  EXPECT_NEAR(ten->confidence, 1 - 2 * 11.0 / 1024, 1e-12);
  EXPECT_EQ(ten->repetitions, 10);
  const auto six = interval_of_median(repeated({3, 1, 2, 6, 5, 4}));  // 1 - 2/64 = 96.9%: the extremes
  ASSERT_TRUE(six);
  EXPECT_EQ(six->lo_ms, 1);
  EXPECT_EQ(six->hi_ms, 6);
  // Five are too few for 95%: the range, said as such.
  const auto five = interval_of_median(repeated({3, 1, 2, 5, 4}));
  ASSERT_TRUE(five);
  EXPECT_EQ(five->confidence, 0);
  EXPECT_EQ(five->lo_ms, 1);
  EXPECT_EQ(five->hi_ms, 5);
  // 30: the 10th and 21st (P(X <= 9) = 2.1%).
  std::vector<double> thirty;
  for (int i = 30; i >= 1; --i) thirty.push_back(i);
  const auto many = interval_of_median(repeated(thirty));
  EXPECT_EQ(many->lo_ms, 10);
  EXPECT_EQ(many->hi_ms, 21);
  EXPECT_FALSE(interval_of_median(timing{}));
}

TEST(LabNotes, TheLeadingCommentIsWhatToLookFor) {
  EXPECT_EQ(leading_comment("# Title line.\n#\n# Look at:\n#  - a `x`\n[lab]\n# not this\n"),
            "Title line.\n\nLook at:\n - a `x`");
  EXPECT_EQ(leading_comment("\n\n# after blank lines\n\n# and a gap\nplugin = 1\n"), "after blank lines\n\nand a gap");
  EXPECT_EQ(leading_comment("\xEF\xBB\xBF# with a BOM\r\n[lab]\r\n"), "with a BOM");
  EXPECT_EQ(leading_comment("[lab]\n# late\n"), "");
}

TEST(NotesHtml, ParagraphsListsAndCode) {
  const std::string html = notes_html(
      "Read the GB/s column.\n - first: `explain` shows it\n   and goes on here.\n - second <b>\nAfter the list.\n\n"
      "A paragraph\nover two lines.");
  EXPECT_EQ(html,
            "<p>Read the GB/s column.</p>\n<ul>\n<li>first: <code>explain</code> shows it and goes on here.</li>\n"
            "<li>second &lt;b&gt;</li>\n</ul>\n<p>After the list.</p>\n<p>A paragraph over two lines.</p>\n");
}

// A run of two lab files: a sweep whose title and variant are hostile, one point with a failure.
std::vector<variant_result> hostile_results() {
  std::vector<variant_result> rs;
  for (const char* n : {"1024", "4096"})
    for (const char* v : {"memcpy", "<img src=x onerror=alert(1)>"}) {
      variant_result r;
      r.lab_file = "labs/<script>alert(1)</script>.toml";
      r.plugin = "alignment";
      r.title = "</title><script>alert('title')</script>";
      r.point = {{"n", n}};
      r.variant = v;
      r.is_baseline = std::string(v) == "memcpy";
      r.time.timed = true;
      r.time.median_ms = 0.01;
      r.time.min_ms = 0.009;
      r.time.max_ms = 0.012;
      r.time.repetition_ms = {0.01, 0.011, 0.009, 0.012, 0.01, 0.01, 0.0101, 0.0099, 0.01, 0.0102};
      r.gbps = 100;
      r.pct_of_baseline = r.is_baseline ? 100 : 90;
      rs.push_back(r);
    }
  variant_result bad;
  bad.lab_file = "labs/b.toml";
  bad.title = "Odds and ends";
  bad.variant = "wrong";
  bad.status = result_status::verify_failed;
  bad.verification.passed = false;
  bad.verification.checked = 1000;
  bad.verification.mismatches = 3;
  bad.verification.first_mismatches = {"[7] got nan, expected 1.5", "[8] got <nan>, expected 2"};
  rs.push_back(bad);
  return rs;
}

run_context hostile_context() {
  run_context c;
  c.cudalab_version = "0.1.0";
  c.started_at = "2026-11-26T12:00:00Z";
  c.command_line = "cudalab run '<b>bold</b>'";
  c.device.name = "Test GPU";
  lab_description l;
  l.file = "labs/<script>alert(1)</script>.toml";
  l.about = "What to look for: <u>this</u>.\n - `memcpy` is the baseline";
  l.sweep = {{"n", {"1024", "4096"}}};
  c.labs = {l};
  return c;
}

TEST(RunReport, EveryLabFileHasItsSectionPlotAndTable) {
  const std::string html = run_report_html(hostile_context(), hostile_results());
  EXPECT_EQ(count(html, "<section class=\"lab\""), 2u);
  EXPECT_NE(html.find("<section id=\"context\">"), std::string::npos);
  EXPECT_NE(html.find("<table id=\"results-1\" class=\"sortable\" data-filter=\"variant\">"), std::string::npos);
  EXPECT_NE(html.find("<table id=\"results-2\""), std::string::npos);
  // A row group per result: four in the sweep, one in the other lab file.
  const std::string first =
      html.substr(html.find("id=\"results-1\""), html.find("id=\"results-2\"") - html.find("id=\"results-1\""));
  EXPECT_EQ(count(first, "<tbody"), 4u);
  // The sweep's plot inline, its ids its own; the failure's reasons under its row.
  EXPECT_NE(html.find("<figure class=\"plot\" id=\"plot-1\""), std::string::npos);
  EXPECT_NE(html.find("<g id=\"plot1-gbps\">"), std::string::npos);
  EXPECT_EQ(html.find("<g id=\"gbps\">"), std::string::npos);
  EXPECT_NE(html.find("<tr class=\"note\"><td colspan=\"10\">3 of 1000 wrong"), std::string::npos) << html;
  EXPECT_NE(html.find("<br>[8] got &lt;nan&gt;, expected 2"), std::string::npos);
  // The median with its interval: 10 repetitions, the 2nd and 9th (9.9 us and 11 us: 10% above).
  EXPECT_NE(html.find("10.00 us ±10.0%"), std::string::npos) << html;
  EXPECT_NE(html.find("<h3>What to look for</h3>\n<p>What to look for: &lt;u&gt;this&lt;/u&gt;.</p>"),
            std::string::npos);
}

TEST(RunReport, HostileNamesAreTextAndNothingIsFetched) {
  const std::string html = run_report_html(hostile_context(), hostile_results());
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_EQ(html.find("<img src=x"), std::string::npos);
  EXPECT_EQ(html.find("<b>bold"), std::string::npos);
  EXPECT_EQ(html.find("<u>this"), std::string::npos);
  EXPECT_NE(html.find("&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
  EXPECT_NE(html.find("&lt;/title&gt;&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt;"), std::string::npos);
  // One script, the page's own; no address to load anything from (the SVG namespace is a name, not a fetch).
  EXPECT_EQ(count(html, "<script"), 1u);
  EXPECT_EQ(std::regex_search(html, std::regex("(src|href)=\"(https?:)?//")), false);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
}

TEST(RunReport, TheH100RunsReadBack) {
  for (const char* run : {"h100-reduction", "h100-reduction_sizes"}) {
    const result_set set = read_result_set(fixtures / "plots" / run);
    const std::string html = run_report_html(set.context, set.results);
    EXPECT_EQ(count(html, "<tbody"), set.results.size() + 1) << run;  // and the GPU table's row
    EXPECT_NE(html.find("NVIDIA H100 80GB HBM3"), std::string::npos);
    EXPECT_NE(html.find("<svg"), std::string::npos);
  }
}

}  // namespace
}  // namespace cudalab::host
