// Reporters against golden files (console table with and without colour, JSON lines, JSON, CSV,
// Markdown, an SVG plot) and focused checks of quoting, round trips, streaming and fan-out.
// Regenerate the golden files after a deliberate format change with CUDALAB_UPDATE_GOLDEN=1.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "reporter.hpp"

namespace cudalab::detail {
namespace {

namespace fs = std::filesystem;
const fs::path golden_dir = fs::path(CUDALAB_SOURCE_DIR) / "tests" / "fixtures" / "golden";

run_context fixed_context() {
  run_context c;
  c.cudalab_version = "0.1.0";
  c.started_at = "2026-11-22T12:00:00Z";
  c.command_line = "cudalab run labs/a.toml labs/b.toml";
  c.device.name = "Test GPU";
  c.device.cc_major = 9;
  c.device.sm_count = 132;
  c.device.global_memory_bytes = std::uint64_t(80) << 30;
  c.device.l2_cache_bytes = 50u << 20;
  c.device.memory_bus_width_bits = 5120;
  c.device.memory_clock_khz = 2619000;
  c.measured = {3000.0, 55.0, 54.0, 90.0};
  return c;
}

variant_result make(const std::string& file, std::uint64_t point, const std::string& offset, const std::string& variant,
                    bool baseline, double ms, double gbps) {
  variant_result r;
  r.lab_file = file;
  r.plugin = "alignment";
  r.title = "Offset copy";
  r.point_index = point;
  if (!offset.empty()) r.point = {{"offset", offset}};
  r.variant = variant;
  r.variant_summary = "summary of " + variant;
  r.is_baseline = baseline;
  r.verification.passed = true;
  r.verification.checked = 1000;
  r.verification.tolerance = "exact";
  r.bytes = {4000000, 4000000, memory_path::device};
  r.time = {true, 200, 4, ms, ms * 0.98, ms * 1.05, ms * 1.01, 0.0123, false};
  r.gbps = gbps;
  r.pct_of_baseline = baseline ? 100.0 : gbps / 30.0;
  r.pct_of_ceiling = gbps / 30.0;
  r.pct_of_peak = gbps / 33.52;
  if (!baseline) {
    r.has_model = true;
    r.model.global_load = {1000, 5000, 2000, 128000};
    r.model.global_store = {1000, 4000, 1000, 128000};
  }
  return r;
}

std::vector<variant_result> fixed_results() {
  std::vector<variant_result> rs;
  for (std::uint64_t p = 0; p < 3; ++p) {
    const std::string off = std::to_string(p);
    rs.push_back(make("labs/a.toml", p, off, "memcpy", true, 0.0027, 2963.0));
    rs.push_back(make("labs/a.toml", p, off, "offset_read", false, 0.0035, 2300.0 - 10.0 * double(p)));
    rs.push_back(make("labs/a.toml", p, off, "offset_copy", false, 0.0036, 2250.0 - 10.0 * double(p)));
  }
  variant_result bad = make("labs/b.toml", 0, "", "wrong", false, 0, 0);
  bad.status = result_status::verify_failed;
  bad.time = {};
  bad.gbps = bad.pct_of_baseline = bad.pct_of_ceiling = bad.pct_of_peak = 0;
  bad.verification.passed = false;
  bad.verification.mismatches = 3;
  bad.verification.first_mismatches = {"[7] got nan, expected 1.5", "[8] got nan, expected 2"};
  rs.push_back(bad);
  variant_result err = make("labs/b.toml", 0, "", "crash, \"quoted\"", false, 0, 0);
  err.status = result_status::error;
  err.error = "kernel launch failed: cudaErrorIllegalAddress";
  err.time = {};
  err.gbps = err.pct_of_baseline = err.pct_of_ceiling = err.pct_of_peak = 0;
  err.has_model = false;
  rs.push_back(err);
  variant_result untimed = make("labs/b.toml", 0, "", "verified_only", false, 0, 0);
  untimed.time = {};
  untimed.gbps = untimed.pct_of_baseline = untimed.pct_of_ceiling = untimed.pct_of_peak = 0;
  untimed.bytes.path = memory_path::host_bus;
  rs.push_back(untimed);
  return rs;
}

std::string render(std::unique_ptr<reporter> r, std::ostringstream& out) {
  r->begin(fixed_context());
  for (const auto& res : fixed_results()) r->add(res);
  r->end();
  return out.str();
}

void expect_golden(const std::string& name, const std::string& got) {
  const fs::path file = golden_dir / name;
  if (std::getenv("CUDALAB_UPDATE_GOLDEN")) {
    std::ofstream(file, std::ios::binary) << got;
    GTEST_SKIP() << "rewrote " << file;
  }
  std::ifstream in(file, std::ios::binary);
  ASSERT_TRUE(in) << "missing golden file " << file << " (run with CUDALAB_UPDATE_GOLDEN=1)";
  std::stringstream want;
  want << in.rdbuf();
  EXPECT_EQ(got, want.str()) << "output differs from " << file;
}

TEST(Reporter, TableMatchesGolden) {
  std::ostringstream out;
  expect_golden("table.txt", render(make_table_reporter(out, false), out));
}

TEST(Reporter, ColourTableMatchesGolden) {
  std::ostringstream out;
  const std::string text = render(make_table_reporter(out, true), out);
  EXPECT_NE(text.find("\033[31m"), std::string::npos);
  expect_golden("table_colour.txt", text);
}

TEST(Reporter, JsonLinesMatchGolden) {
  std::ostringstream out;
  expect_golden("results.jsonl", render(make_jsonl_reporter(out), out));
}

TEST(Reporter, JsonMatchesGolden) {
  std::ostringstream out;
  expect_golden("results.json", render(make_json_reporter(out), out));
}

TEST(Reporter, CsvMatchesGolden) {
  std::ostringstream out;
  expect_golden("results.csv", render(make_csv_reporter(out), out));
}

TEST(Reporter, MarkdownMatchesGolden) {
  std::ostringstream out;
  expect_golden("report.md", render(make_markdown_reporter(out, "plots/"), out));
}

TEST(Reporter, SweepPlotMatchesGolden) {
  const fs::path dir = fs::temp_directory_path() / "cudalab_plot_test";
  fs::remove_all(dir);
  const auto written = write_sweep_plots(fixed_results(), dir);
  ASSERT_EQ(written.size(), 1u);  // labs/b.toml has no sweep
  EXPECT_EQ(written[0].filename(), "a.svg");
  std::ifstream in(written[0]);
  std::stringstream svg;
  svg << in.rdbuf();
  EXPECT_NE(svg.str().find("<polyline"), std::string::npos);
  expect_golden("a.svg", svg.str());
  fs::remove_all(dir);
}

TEST(Reporter, CsvQuotesCommasAndQuotes) {
  std::ostringstream out;
  const std::string csv = render(make_csv_reporter(out), out);
  EXPECT_NE(csv.find("\"crash, \"\"quoted\"\"\""), std::string::npos) << csv;
  // Every row has as many fields as the header once quoted fields are taken whole.
  std::istringstream lines(csv);
  std::string line;
  std::vector<std::size_t> counts;
  while (std::getline(lines, line)) {
    std::size_t fields = 1;
    bool quoted = false;
    for (char c : line) {
      if (c == '"') quoted = !quoted;
      if (c == ',' && !quoted) ++fields;
    }
    counts.push_back(fields);
  }
  ASSERT_EQ(counts.size(), fixed_results().size() + 1);
  for (std::size_t c : counts) EXPECT_EQ(c, counts.front());
}

TEST(Reporter, ResultJsonRoundTrip) {
  const variant_result r = fixed_results()[1];
  const auto j = nlohmann::json::parse(result_json(r));
  EXPECT_EQ(j["variant"], "offset_read");
  EXPECT_EQ(j["point"]["offset"], "0");
  EXPECT_EQ(j["status"], "ok");
  EXPECT_DOUBLE_EQ(j["timing"]["median_ms"].get<double>(), 0.0035);
  EXPECT_EQ(j["timing"]["batch"], 4);
  EXPECT_EQ(j["traffic"]["bytes_read"], 4000000);
  EXPECT_EQ(j["traffic"]["path"], "device");
  EXPECT_DOUBLE_EQ(j["model"]["global_load"]["sectors_per_request"].get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(j["model"]["global_load"]["efficiency"].get<double>(), 0.8);
  EXPECT_TRUE(nlohmann::json::parse(result_json(fixed_results()[0]))["model"].is_null());
}

TEST(Reporter, ContextJsonHasDeviceAndCeilings) {
  const auto j = nlohmann::json::parse(context_json(fixed_context()));
  EXPECT_EQ(j["device"]["name"], "Test GPU");
  EXPECT_EQ(j["device"]["compute_capability"], "9.0");
  EXPECT_NEAR(j["device"]["peak_dram_gbps"].get<double>(), 3352.3, 0.1);
  EXPECT_DOUBLE_EQ(j["ceilings"]["bidir_gbps"].get<double>(), 90.0);
}

TEST(Reporter, JsonLinesAreWrittenBeforeTheEnd) {
  std::ostringstream out;
  auto r = make_jsonl_reporter(out);
  r->begin(fixed_context());
  EXPECT_NE(out.str().find("\"context\""), std::string::npos);
  r->add(fixed_results()[0]);
  r->add(fixed_results()[1]);
  // Before end(): the context line and two result lines are already there, each parseable.
  std::istringstream lines(out.str());
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) {
    EXPECT_NO_THROW(nlohmann::json::parse(line));
    ++n;
  }
  EXPECT_EQ(n, 3);
}

TEST(Reporter, EmptyRunsAreFine) {
  std::ostringstream table;
  auto t = make_table_reporter(table, false);
  t->begin(fixed_context());
  t->end();
  EXPECT_NE(table.str().find("Test GPU"), std::string::npos);
  std::ostringstream json;
  auto j = make_json_reporter(json);
  j->begin(fixed_context());
  j->end();
  EXPECT_TRUE(nlohmann::json::parse(json.str())["results"].empty());
  EXPECT_TRUE(write_sweep_plots({}, fs::temp_directory_path() / "cudalab_no_plots").empty());
}

TEST(Reporter, ReporterSetFansOut) {
  std::ostringstream a, b;
  reporter_set set;
  set.add_reporter(make_jsonl_reporter(a));
  set.add_reporter(make_csv_reporter(b));
  set.begin(fixed_context());
  set.add(fixed_results()[0]);
  set.end();
  EXPECT_NE(a.str().find("memcpy"), std::string::npos);
  EXPECT_NE(b.str().find("memcpy"), std::string::npos);
}

TEST(Reporter, StatusNames) {
  EXPECT_STREQ(status_name(result_status::ok), "ok");
  EXPECT_STREQ(status_name(result_status::verify_failed), "verify_failed");
  EXPECT_STREQ(status_name(result_status::error), "error");
  EXPECT_STREQ(status_name(result_status::skipped), "skipped");
}

}  // namespace
}  // namespace cudalab::detail
