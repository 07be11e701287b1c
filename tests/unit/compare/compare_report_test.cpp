// The comparison of the two fixture runs (tests/fixtures/compare/base and new: the same, slower and
// faster results, with and without repetition times, a failure, one result added and one removed) in
// each format, byte for byte against tests/fixtures/compare/golden/; and the NVBench export of each
// run. Regenerate with CUDALAB_UPDATE_GOLDEN=1 after a deliberate change, then review the diff.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "compare/compare_report.hpp"
#include "compare/comparison.hpp"
#include "compare/nvbench_export.hpp"
#include "golden.hpp"
#include "labfile/values.hpp"
#include "results/result_set.hpp"

namespace cudalab::host {
namespace {

namespace fs = std::filesystem;
const fs::path fixtures = fs::path(CUDALAB_SOURCE_DIR) / "tests" / "fixtures" / "compare";

// A fixture run, named by its path below tests/fixtures/compare (the reports show it).
result_set fixture(const std::string& name) {
  result_set set = read_result_set(fixtures / name);
  set.file = name + "/results.json";
  return set;
}

comparison fixture_comparison() { return compare_runs(fixture("base"), fixture("new"), compare_settings{}); }

void expect_golden(const std::string& name, const std::string& got) {
  testing::expect_golden_file(fixtures / "golden" / name, got);
}

TEST(CompareReport, FixtureVerdicts) {
  const comparison c = fixture_comparison();
  std::map<std::string, std::string> got;
  for (const compared_result& r : c.results)
    got[lab_file_label(r.key) + " " + labels_text(r.point) + (r.point.empty() ? "" : " ") + r.key.variant] =
        verdict_name(r.outcome);
  const std::map<std::string, std::string> want = {{"a.toml offset=0 memcpy", "same"},
                                                   {"a.toml offset=0 offset_read", "slower"},
                                                   {"a.toml offset=0 offset_copy", "faster"},
                                                   {"a.toml offset=1 memcpy", "same"},
                                                   {"a.toml offset=1 offset_read", "unsure"},
                                                   {"a.toml offset=1 offset_copy", "slower"},
                                                   {"b.toml short", "unsure"},
                                                   {"b.toml old_style", "same"},
                                                   {"b.toml wrong", "untimed"},
                                                   {"b.toml fresh", "added"},
                                                   {"b.toml dropped", "removed"}};
  EXPECT_EQ(got, want);
  EXPECT_TRUE(c.regression());
  EXPECT_EQ(c.counts.slower, 2u);
}

TEST(CompareReport, Table) {
  std::ostringstream out;
  write_compare_table(out, fixture_comparison(), false);
  expect_golden("table.txt", out.str());
}

TEST(CompareReport, TableFitsOneHundredColumns) {
  std::ostringstream out;
  write_compare_table(out, fixture_comparison(), false);
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 100u) << line;
}

TEST(CompareReport, TableInColour) {
  std::ostringstream out;
  write_compare_table(out, fixture_comparison(), true);
  expect_golden("table_colour.txt", out.str());
}

TEST(CompareReport, Markdown) {
  std::ostringstream out;
  write_compare_markdown(out, fixture_comparison());
  expect_golden("compare.md", out.str());
}

TEST(CompareReport, Json) {
  std::ostringstream out;
  write_compare_json(out, fixture_comparison());
  expect_golden("compare.json", out.str());
  const auto j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j.at("schema_version"), compare_schema_version);
  EXPECT_EQ(j.at("regression"), true);
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// One page: the verdict on the whole, a table per lab file (a row group per result, notes under their
// rows), the change drawn as a bar; names from the results escaped.
TEST(CompareReport, Html) {
  comparison c = fixture_comparison();
  c.results[0].title = "<script>window.pwned=1</script>";
  c.results[1].key.variant = "<img src=x onerror=window.pwned=2>";
  std::ostringstream out;
  write_compare_html(out, c);
  const std::string html = out.str();
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<p class=\"callout bad\" id=\"verdict\"><strong>regression: 2 results slower beyond 5% and the "
                      "noise</strong></p>"),
            std::string::npos)
      << html;
  EXPECT_EQ(count(html, "<section class=\"lab\""), 2u);
  const auto a = html.find("<table id=\"compare-1\" class=\"sortable\" data-filter=\"variant\">");
  const auto b = html.find("<table id=\"compare-2\"");
  ASSERT_NE(a, std::string::npos);
  ASSERT_NE(b, std::string::npos);
  EXPECT_EQ(count(html.substr(a, b - a), "<tbody"), 6u);
  EXPECT_EQ(count(html.substr(b), "<tbody"), 5u);
  EXPECT_NE(html.find("<tbody class=\"row-bad\" data-variant=\"&lt;img src=x onerror=window.pwned=2&gt;\">"),
            std::string::npos);
  EXPECT_NE(html.find("<tr class=\"note\"><td colspan=\"7\">within the noise (p &gt;= 0.05)</td></tr>"),
            std::string::npos);
  EXPECT_NE(html.find("<svg class=\"change\""), std::string::npos);
  EXPECT_EQ(html.find("<script>window"), std::string::npos);
  EXPECT_EQ(html.find("<img src"), std::string::npos);
  EXPECT_EQ(count(html, "<script"), 1u);
}

TEST(CompareReport, NvbenchExport) {
  expect_golden("base.nvbench.json", nvbench_json(fixture("base")));
  expect_golden("new.nvbench.json", nvbench_json(fixture("new")));
}

// A time of 1e308 ms printed as 306 digits of seconds, a change as "+inf %" or hundreds of digits: large
// values are in exponent form, small ones as before.
TEST(CompareReport, redteam26_f31_large_values_in_exponent_form) {
  EXPECT_EQ(duration_text(1e308), "1.000e+305 s");
  EXPECT_EQ(duration_text(99999e3), "99999.0 s");
  EXPECT_EQ(duration_text(1e8), "1.000e+05 s");
  EXPECT_EQ(change_pct_text(12.46), "+12.5 %");
  EXPECT_EQ(change_pct_text(-99.99), "-100.0 %");
  EXPECT_EQ(change_pct_text(1e300), "+1.00e+300 %");
  EXPECT_EQ(change_pct_text(-2e5), "-2.00e+05 %");
}

TEST(CompareReport, Durations) {
  EXPECT_EQ(duration_text(0.0027), "2.700 us");
  EXPECT_EQ(duration_text(17.3249), "17.32 ms");
  EXPECT_EQ(duration_text(0.1234), "123.4 us");
  EXPECT_EQ(duration_text(1250), "1.250 s");
  EXPECT_EQ(duration_text(0.00000042), "0.420 ns");
  EXPECT_EQ(duration_text(0), "-");
}

}  // namespace
}  // namespace cudalab::host
