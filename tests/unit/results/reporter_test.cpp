// Reporters against golden files (console table at 80 and 120 columns, --wide, with and without
// colour, JSON lines, JSON, CSV, Markdown, an SVG plot) and focused checks of quoting, round trips,
// streaming and fan-out; the console's text pieces: time units, wrapping, the columns that fit.
// Regenerate the golden files after a deliberate format change with CUDALAB_UPDATE_GOLDEN=1.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include "golden.hpp"
#include "gpu_sample_fixture.hpp"
#include "results/console_text.hpp"
#include "results/format.hpp"
#include "results/json.hpp"
#include "results/reporter.hpp"
#include "results/safe_file.hpp"

namespace cudalab::host {
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
  c.measured = {3000.0, 55.0, 54.0, 90.0, 7000.0};
  c.nvml = {true, "libnvidia-ml.so.1", "", "580.65.06"};
  c.gpu.pci_bus_id = "0000:19:00.0";
  c.gpu.start = testing::idle_gpu_sample(1795348801250);  // 2026-11-22T12:00:01.250Z
  return c;
}

// The context as the run ended: its GPU's end sample, held down by power for 1.5 s of 60.
run_context ended_context() {
  run_context c = fixed_context();
  gpu_sample end = *c.gpu.start;
  end.taken_at_ms += 60000;
  end.sm_clock_mhz = 1755;
  end.clocks_event_reasons = 0x4;  // sw_power_cap
  end.power_w = 699.0;
  end.temperature_c = 71;
  end.power_violation_ns = *end.power_violation_ns + 1500000000;
  c.gpu.end = end;
  c.gpu.throttle = judge_throttling(*c.gpu.start, end, "GPU 0 (Test GPU)");
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
  r.time.timed = true;
  r.time.samples = 200;
  r.time.batch = 4;
  r.time.median_ms = ms;
  r.time.min_ms = ms * 0.98;
  r.time.max_ms = ms * 1.05;
  r.time.mean_ms = ms * 1.01;
  r.time.cv = 0.0123;
  r.time.repetition_ms = {ms * 1.05, ms * 0.98, ms, ms * 1.01, ms};
  r.gbps = gbps;
  r.pct_of_baseline = baseline ? 100.0 : gbps / 30.0;
  r.pct_of_ceiling = gbps / 30.0;
  r.pct_of_peak = gbps / 33.52;
  if (!baseline) {
    r.has_model = true;
    r.model.global_load = {1000, 5000, 2000, 128000};
    r.model.global_store = {1000, 4000, 1000, 128000};
    if (variant == "offset_copy") {  // a transpose-like tile: 32-way conflicts on loads, none on stores
      r.model.shared_load = {1000, 32000, 1000};
      r.model.shared_store = {1000, 1000, 1000};
    }
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
  bad.verification.max_abs_error = 0.5;
  bad.verification.max_rel_error = 0.25;
  bad.verification.first_mismatches = {"[7] got nan, expected 1.5", "[8] got nan, expected 2"};
  bad.verification.note = "outputs poisoned with 0xFF before the run";
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
  variant_result skipped = make("labs/b.toml", 0, "", "needs_sm100", false, 0, 0);
  skipped.status = result_status::skipped;
  skipped.error = "needs compute capability 10.0, the device has 9.0";
  skipped.time = {};
  skipped.gbps = skipped.pct_of_baseline = skipped.pct_of_ceiling = skipped.pct_of_peak = 0;
  skipped.verification = {};
  skipped.has_model = false;
  rs.push_back(skipped);
  return rs;
}

std::string render(std::unique_ptr<reporter> r, std::ostringstream& out) {
  r->begin(fixed_context());
  for (const auto& res : fixed_results()) r->add(res);
  r->end(ended_context());
  return out.str();
}

void expect_golden(const std::string& name, const std::string& got) {
  testing::expect_golden_file(golden_dir / name, got);
}

// The results of a `run --profile`: nothing timed, each that ran with Nsight Compute's counters. In
// labs/a.toml (a sweep) the loads match the model within 2% at both points and offset_copy's shared
// loads at offset 0, not at 1 (6% more wavefronts); labs/c.toml (one point) has a histogram whose
// atomics the model serialises less than the GPU does, and a copy whose kernels were never counted.
std::vector<variant_result> counted_results() {
  auto untimed = [](variant_result r) {
    r.time = {};
    r.gbps = r.pct_of_baseline = r.pct_of_ceiling = r.pct_of_peak = 0;
    r.has_measured = true;
    return r;
  };
  std::vector<variant_result> rs;
  for (std::uint64_t p = 0; p < 2; ++p) {
    const std::string off = std::to_string(p);
    rs.push_back(untimed(make("labs/a.toml", p, off, "memcpy", true, 0, 0)));  // no kernel, no model
    variant_result read = untimed(make("labs/a.toml", p, off, "offset_read", false, 0, 0));
    read.measured = {1, {1000, 5050}, {1000, 4000}, {}, {}, {}, {}, 4000000, 4000000};
    rs.push_back(read);
    variant_result copy = untimed(make("labs/a.toml", p, off, "offset_copy", false, 0, 0));
    copy.measured = read.measured;
    copy.measured.shared_load = {1000, 1250, 32400, p == 0 ? 32000u : 34000u, 31400};
    copy.measured.shared_store = {1000, 1250, 1000, 1000, 0};
    rs.push_back(copy);
  }
  variant_result histogram = untimed(make("labs/c.toml", 0, "", "histogram", false, 0, 0));
  histogram.model.global_load = {1000, 4000, 1000, 128000};
  histogram.model.global_store = {};
  histogram.model.global_atomic = {1000, 4000, 1000, 4000};
  histogram.measured = {2, {1000, 4000}, {}, {1000, 22600}, {}, {}, {}, 4200000, 1024};
  rs.push_back(histogram);
  variant_result lost = untimed(make("labs/c.toml", 0, "", "copy", false, 0, 0));  // its range never counted
  rs.push_back(lost);
  variant_result failed = make("labs/c.toml", 0, "", "crash", false, 0, 0);  // never ran: no counters
  failed.status = result_status::error;
  failed.error = "kernel launch failed: cudaErrorIllegalAddress";
  failed.time = {};
  failed.gbps = failed.pct_of_baseline = failed.pct_of_ceiling = failed.pct_of_peak = 0;
  rs.push_back(failed);
  return rs;
}

run_context counted_context(run_context c) {
  c.command_line = "cudalab run --profile labs/a.toml labs/c.toml";
  c.counters = "Nsight Compute 2025.3.1.0 (/usr/local/cuda/bin/ncu)";
  return c;
}

std::string render_counted(std::unique_ptr<reporter> r, std::ostringstream& out) {
  r->begin(counted_context(fixed_context()));
  for (const auto& res : counted_results()) r->add(res);
  r->end(counted_context(ended_context()));
  return out.str();
}

// The width console_width() finds with $COLUMNS set to `columns` (nullptr: unset), as a run's table gets it.
std::size_t width_with_columns(const char* columns) {
  const char* before = std::getenv("COLUMNS");
  const std::string saved = before ? before : "";
  if (columns)
    ::setenv("COLUMNS", columns, 1);
  else
    ::unsetenv("COLUMNS");
  const std::size_t width = console_width();
  if (before)
    ::setenv("COLUMNS", saved.c_str(), 1);
  else
    ::unsetenv("COLUMNS");
  return width;
}

// The longest line of `text`, in terminal columns.
std::size_t widest_line(const std::string& text) {
  std::istringstream lines(text);
  std::size_t widest = 0;
  for (std::string line; std::getline(lines, line);) widest = std::max(widest, text_columns(line));
  return widest;
}

TEST(Reporter, TableAt120ColumnsMatchesGolden) {
  std::ostringstream out;
  const std::size_t width = width_with_columns("120");
  ASSERT_EQ(width, 120u);
  const std::string text = render(make_table_reporter(out, false, width), out);
  EXPECT_LE(widest_line(text), 120u) << text;
  expect_golden("table.txt", text);
}

TEST(Reporter, TableAt80ColumnsMatchesGolden) {
  std::ostringstream out;
  const std::size_t width = width_with_columns("80");
  ASSERT_EQ(width, 80u);
  const std::string text = render(make_table_reporter(out, false, width), out);
  EXPECT_LE(widest_line(text), 80u) << text;
  // The least important columns went first; the time, the rate, % of the baseline and the model stay.
  EXPECT_EQ(text.find("% peak"), std::string::npos);
  EXPECT_EQ(text.find("CV %"), std::string::npos);
  EXPECT_NE(text.find("status           median     GB/s  % base  ld s/r  st s/r\n"), std::string::npos) << text;
  expect_golden("table_80.txt", text);
}

TEST(Reporter, TableHeadingKeepsOnGpuNTogetherAtEveryWidth) {
  variant_result r = fixed_results()[1];
  r.device = 1;
  r.title = "Offset copy: bandwidth against misalignment, every offset from 0 to 32";
  for (std::size_t width = 30; width <= 130; ++width) {
    std::ostringstream out;
    auto table = make_table_reporter(out, false, width);
    table->begin(fixed_context());
    table->add(r);
    table->end(fixed_context());
    EXPECT_NE(out.str().find("on GPU 1\n"), std::string::npos) << "at " << width << " columns:\n" << out.str();
    EXPECT_EQ(out.str().find('\x1f'), std::string::npos);
  }
}

// At the end of an isolated run over named GPUs, a line per GPU: its jobs' time of the run's; none
// without a schedule (a run in one process) or without named GPUs.
TEST(Reporter, TableEndsWithHowBusyEachGpuWas) {
  run_context c = fixed_context();
  c.devices = {run_device{0, c.device, c.measured, c.gpu}, run_device{1, c.device, c.measured, c.gpu}};
  run_schedule s;
  s.probe_s = 6.0;
  s.end_s = 282.5;
  s.jobs = {{"labs/a.toml", 0, 16, 0, false, 6.1, 150.0},
            {"labs/a.toml", 17, 32, 1, false, 6.1, 140.5},
            {"labs/b.toml", 0, 0, 0, false, 156.1, 120.1}};
  c.schedule = s;
  std::ostringstream out;
  auto table = make_table_reporter(out, false, 120);
  table->begin(c);
  table->end(c);
  EXPECT_NE(out.str().find("\nGPU 0: busy 270.1 s of 282.5 s, 2 jobs\nGPU 1: busy 140.5 s of 282.5 s, 1 job\n"),
            std::string::npos)
      << out.str();
  c.devices.clear();
  std::ostringstream unnamed;
  auto plain = make_table_reporter(unnamed, false, 120);
  plain->begin(c);
  plain->end(c);
  EXPECT_EQ(unnamed.str().find("busy"), std::string::npos) << unnamed.str();
}

TEST(Reporter, WideTableMatchesGolden) {
  std::ostringstream out;
  const std::string text = render(make_table_reporter(out, false, unlimited_width), out);
  EXPECT_NE(text.find("median    +-%     GB/s  % base  % ceil  % peak  ld s/r  st s/r  sh cf ld/st\n"),
            std::string::npos)
      << text;
  // Not wrapped: a failure's text is one line.
  EXPECT_NE(
      text.find(
          "      3 of 1000 wrong (exact); [7] got nan, expected 1.5; outputs poisoned with 0xFF before the run\n"),
      std::string::npos)
      << text;
  expect_golden("table_wide.txt", text);
}

TEST(Reporter, ColourTableMatchesGolden) {
  std::ostringstream out;
  const std::string text = render(make_table_reporter(out, true, 120), out);
  EXPECT_NE(text.find("\033[31m"), std::string::npos);
  expect_golden("table_colour.txt", text);
}

TEST(Reporter, TableWrapsFailuresUnderTheirRowAndNeverARow) {
  std::ostringstream out;
  auto t = make_table_reporter(out, false, 60);
  t->begin(fixed_context());
  variant_result r = fixed_results()[10];  // an error
  r.variant = "a_variant_name_longer_than_its_column";
  r.error = std::string("first ") + std::string(70, 'x') + " last words of a long error";
  t->add(r);
  t->end(fixed_context());
  const std::string text = out.str();
  EXPECT_LE(widest_line(text), 60u) << text;
  // The long name on a line of its own, its row below it with the status.
  EXPECT_NE(text.find("\n  a_variant_name_longer_than_its_column\n" + std::string(24, ' ') + "error"),
            std::string::npos)
      << text;
  // The error wrapped at its spaces, the word too long for a line cut, every line indented under the name.
  EXPECT_NE(text.find("\n      first\n      xxxx"), std::string::npos) << text;
  EXPECT_NE(text.find("\n      " + std::string(54, 'x') + "\n      " + std::string(16, 'x') +
                      " last words of a long error\n"),
            std::string::npos)
      << text;
}

TEST(Reporter, ConsoleWidthFromColumnsElseTheDefault) {
  EXPECT_EQ(width_with_columns("80"), 80u);
  EXPECT_EQ(width_with_columns("200"), 200u);
  // Not a width: as if unset, and then (stdout no terminal, as under ctest) the default.
  if (::isatty(STDOUT_FILENO)) GTEST_SKIP() << "stdout is a terminal: its width comes before the default";
  for (const char* bad : {"", "0", "-5", "80x", "abc", "99999"}) EXPECT_EQ(width_with_columns(bad), 120u) << bad;
  EXPECT_EQ(width_with_columns(nullptr), default_console_width);
}

TEST(ConsoleText, TimeTakesTheUnitThatShowsFourDigits) {
  EXPECT_EQ(time_text(0.0009999), "999.9 ns");
  EXPECT_EQ(time_text(0.00099994), "999.9 ns");
  EXPECT_EQ(time_text(0.00099996), "1.000 us");  // would round to 1000.0 ns
  EXPECT_EQ(time_text(0.001), "1.000 us");
  EXPECT_EQ(time_text(0.0027), "2.700 us");
  EXPECT_EQ(time_text(0.0099994), "9.999 us");
  EXPECT_EQ(time_text(0.0099996), "10.00 us");
  EXPECT_EQ(time_text(0.01234), "12.34 us");
  EXPECT_EQ(time_text(0.1234), "123.4 us");
  EXPECT_EQ(time_text(0.9999), "999.9 us");
  EXPECT_EQ(time_text(0.99996), "1.000 ms");
  EXPECT_EQ(time_text(1), "1.000 ms");
  EXPECT_EQ(time_text(55.5), "55.50 ms");
  EXPECT_EQ(time_text(999.9), "999.9 ms");
  EXPECT_EQ(time_text(1000), "1.000 s");
  EXPECT_EQ(time_text(2500), "2.500 s");
  EXPECT_EQ(time_text(1234567), "1235 s");  // seconds are the largest unit
  EXPECT_EQ(time_text(0.0000123), "12.30 ns");
  EXPECT_EQ(time_text(0), "0.000 ns");
  EXPECT_EQ(time_text(-1), "-");
  EXPECT_EQ(time_text(std::nan("")), "-");
  EXPECT_EQ(time_text(std::numeric_limits<double>::infinity()), "-");
}

TEST(ConsoleText, WrapBreaksAtSpacesAndCutsOnlyLongWords) {
  EXPECT_EQ(wrap_lines("one two three four", 9, 0, 2), (std::vector<std::string>{"one two", "  three", "  four"}));
  EXPECT_EQ(wrap_lines("abcdefghij", 4, 0, 0), (std::vector<std::string>{"abcd", "efgh", "ij"}));
  EXPECT_EQ(wrap_lines("a\n\nb", 10, 2, 4), (std::vector<std::string>{"  a", "", "    b"}));
  EXPECT_EQ(wrap_lines("x y", unlimited_width, 3, 3), (std::vector<std::string>{"   x y"}));
  EXPECT_EQ(wrap_lines("\u00b5s \u00b5s", 5, 0, 0),
            (std::vector<std::string>{"\u00b5s \u00b5s"}));  // 5 columns, 7 bytes
  EXPECT_EQ(wrap_lines("word", 2, 6, 6), (std::vector<std::string>{"      w", "      o", "      r", "      d"}));
}

TEST(ConsoleText, FitDropsTheHighestRankFirst) {
  const std::vector<column_fit> columns = {{10, 1}, {10, 3}, {10, 2}};
  EXPECT_EQ(fit_columns(20, columns, 50), (std::vector<bool>{true, true, true}));
  EXPECT_EQ(fit_columns(20, columns, 49), (std::vector<bool>{true, false, true}));
  EXPECT_EQ(fit_columns(20, columns, 30), (std::vector<bool>{true, false, false}));
  EXPECT_EQ(fit_columns(20, columns, 10), (std::vector<bool>{false, false, false}));
  EXPECT_EQ(fit_columns(1000, columns, unlimited_width), (std::vector<bool>{true, true, true}));
  // Of equal rank, the one further right goes first.
  EXPECT_EQ(fit_columns(0, {{5, 1}, {5, 1}}, 7), (std::vector<bool>{true, false}));
}

// A results folder's results.jsonl: one result per line, no context (context.json has it).
TEST(Reporter, JsonLinesMatchGolden) {
  std::ostringstream out;
  expect_golden("results.jsonl", render(make_jsonl_reporter(out, false), out));
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
  const auto written = write_plots(fixed_results(), {}, dir);
  ASSERT_EQ(written.size(), 1u);  // labs/b.toml has no sweep
  EXPECT_EQ(written[0].filename(), "a.svg");
  std::ifstream in(written[0]);
  std::stringstream svg;
  svg << in.rdbuf();
  EXPECT_NE(svg.str().find("<polyline"), std::string::npos);
  expect_golden("a.svg", svg.str());
  fs::remove_all(dir);
}

// run --profile: the counters under each row of the console with the verdict, in the CSV's measured
// columns, in report.md's measured columns and the context's line on the counters.
TEST(Reporter, CountersInTheTableMatchGolden) {
  std::ostringstream out;
  const std::string text = render_counted(make_table_reporter(out, false, 120), out);
  EXPECT_NE(text.find("      measured: ld s/r 5.05, st s/r 4.00 - matches\n"), std::string::npos) << text;
  EXPECT_NE(text.find("differs: sh ld wavefronts +6.2%"), std::string::npos) << text;
  EXPECT_NE(text.find("      measured: no kernel - not modelled\n"), std::string::npos) << text;
  expect_golden("table_counters.txt", text);
}

TEST(Reporter, CountersInTheCsvMatchGolden) {
  std::ostringstream out;
  expect_golden("results_counters.csv", render_counted(make_csv_reporter(out), out));
}

TEST(Reporter, CountersInTheMarkdownMatchGolden) {
  std::ostringstream out;
  const std::string md = render_counted(make_markdown_reporter(out, "plots/"), out);
  EXPECT_NE(md.find("Counters (`run --profile`): Nsight Compute 2025.3.1.0"), std::string::npos) << md;
  expect_golden("report_counters.md", md);
  // A run without counters keeps report.md's tables as they were.
  std::ostringstream plain;
  EXPECT_EQ(render(make_markdown_reporter(plain, "plots/"), plain).find("measured s/r"), std::string::npos);
}

TEST(Reporter, CountersRoundTripThroughJson) {
  for (const variant_result& r : counted_results()) {
    const variant_result back = parse_result_json(result_json(r));
    EXPECT_EQ(result_json(back), result_json(r)) << r.variant;
    EXPECT_EQ(back.has_measured, r.has_measured) << r.variant;
  }
  const auto j = nlohmann::json::parse(result_json(counted_results()[2]));
  EXPECT_EQ(j["measured"]["shared_load"]["address_conflicts"], 31000);
  EXPECT_EQ(j["measured"]["shared_load"]["contention"], 400);
  EXPECT_EQ(j["counters_verdict"], "matches");
  // A result written without counters (every run before --profile) reads as one without them.
  EXPECT_FALSE(nlohmann::json::parse(result_json(fixed_results()[1])).contains("measured"));
  EXPECT_FALSE(parse_result_json(result_json(fixed_results()[1])).has_measured);
  const run_context c = parse_context_json(context_json(counted_context(fixed_context())));
  EXPECT_EQ(c.counters, "Nsight Compute 2025.3.1.0 (/usr/local/cuda/bin/ncu)");
  EXPECT_FALSE(nlohmann::json::parse(context_json(fixed_context())).contains("counters"));
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
  EXPECT_DOUBLE_EQ(j["ceilings"]["l2_copy_gbps"].get<double>(), 7000.0);
}

TEST(Reporter, JsonLinesAreWrittenBeforeTheEnd) {
  std::ostringstream out;
  auto r = make_jsonl_reporter(out, true);  // a child of an isolated run: the context line first
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
  auto t = make_table_reporter(table, false, 120);
  t->begin(fixed_context());
  t->end(fixed_context());
  EXPECT_NE(table.str().find("Test GPU"), std::string::npos);
  std::ostringstream json;
  auto j = make_json_reporter(json);
  j->begin(fixed_context());
  j->end(fixed_context());
  EXPECT_TRUE(nlohmann::json::parse(json.str())["results"].empty());
  EXPECT_TRUE(write_plots({}, {}, fs::temp_directory_path() / "cudalab_no_plots").empty());
}

// results.json and report.md say the context as the run ended: the GPU's end sample and its warning,
// which only end() knows.
TEST(Reporter, TheEndsContextReachesResultsJsonAndTheReport) {
  std::ostringstream json, md;
  reporter_set set;
  set.add_reporter(make_json_reporter(json));
  set.add_reporter(make_markdown_reporter(md, ""));
  set.begin(fixed_context());
  set.end(ended_context());
  const auto gpu = nlohmann::json::parse(json.str())["context"]["gpu_state"];
  EXPECT_EQ(gpu["end"]["sm_clock_mhz"], 1755);
  EXPECT_EQ(gpu["end"]["clocks_event_reasons"], nlohmann::json::array({"sw_power_cap"}));
  EXPECT_EQ(gpu["throttling"]["throttled"], true);
  EXPECT_DOUBLE_EQ(gpu["throttling"]["power_violation_s"].get<double>(), 1.5);
  EXPECT_NE(md.str().find("at the end: SM 1755 MHz of 1980"), std::string::npos) << md.str();
  EXPECT_NE(md.str().find("- **Warning:** GPU 0 (Test GPU) ran throttled during the 60.0 s of the run: power "
                          "capping for 1.500 s; slowdown reasons active at its start or end: sw_power_cap."),
            std::string::npos)
      << md.str();
  // Not throttled: no warning.
  std::ostringstream quiet;
  auto calm = make_markdown_reporter(quiet, "");
  calm->begin(fixed_context());
  calm->end(fixed_context());
  EXPECT_EQ(quiet.str().find("Warning"), std::string::npos) << quiet.str();
}

TEST(Reporter, ReporterSetFansOut) {
  std::ostringstream a, b;
  reporter_set set;
  set.add_reporter(make_jsonl_reporter(a, false));
  set.add_reporter(make_csv_reporter(b));
  set.begin(fixed_context());
  set.add(fixed_results()[0]);
  set.end(fixed_context());
  EXPECT_NE(a.str().find("memcpy"), std::string::npos);
  EXPECT_NE(b.str().find("memcpy"), std::string::npos);
}

// A sweep over two parameters: block (first) and n (last, the x axis), n listed high to low.
std::vector<variant_result> two_axis_sweep() {
  std::vector<variant_result> rs;
  std::uint64_t point = 0;
  for (const char* block : {"128", "256"})
    for (const char* n : {"268435456", "1048576", "1024"}) {
      variant_result r = make("labs/sizes.toml", point++, "", "copy", false, 0.01, 100.0 + std::strlen(n));
      r.point = {{"block", block}, {"n", n}};
      rs.push_back(r);
    }
  return rs;
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Reporter, VerificationDetailRoundTrip) {
  const auto j = nlohmann::json::parse(result_json(fixed_results()[9]));
  EXPECT_EQ(j["status"], "verify_failed");
  EXPECT_FALSE(j["verification"]["passed"].get<bool>());
  EXPECT_EQ(j["verification"]["checked"], 1000);
  EXPECT_EQ(j["verification"]["mismatches"], 3);
  EXPECT_DOUBLE_EQ(j["verification"]["max_abs_error"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(j["verification"]["max_rel_error"].get<double>(), 0.25);
  EXPECT_EQ(j["verification"]["tolerance"], "exact");
  ASSERT_EQ(j["verification"]["first_mismatches"].size(), 2u);
  EXPECT_EQ(j["verification"]["first_mismatches"][1], "[8] got nan, expected 2");
  EXPECT_EQ(j["verification"]["note"], "outputs poisoned with 0xFF before the run");
  EXPECT_FALSE(j["timing"]["timed"].get<bool>());
  // A NaN error (a NaN output compared with a number) is written as null, so the line stays JSON.
  variant_result nan_result = fixed_results()[9];
  nan_result.verification.max_abs_error = std::nan("");
  EXPECT_TRUE(nlohmann::json::parse(result_json(nan_result))["verification"]["max_abs_error"].is_null());
}

TEST(Reporter, JsonSurvivesTextThatIsNotUtf8) {
  variant_result r = fixed_results()[10];
  r.error = "bad byte \xff here";
  const auto j = nlohmann::json::parse(result_json(r));
  EXPECT_EQ(j["error"], "bad byte \xef\xbf\xbd here");  // U+FFFD
}

TEST(Reporter, JsonLinesHaveOneLinePerResultAfterTheContext) {
  std::ostringstream out;
  const std::string text = render(make_jsonl_reporter(out, true), out);
  std::istringstream lines(text);
  std::string line;
  std::vector<nlohmann::json> parsed;
  while (std::getline(lines, line)) parsed.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(parsed.size(), fixed_results().size() + 1);
  EXPECT_EQ(parsed[0]["context"]["schema_version"], 2);
  EXPECT_EQ(parsed.back()["status"], "skipped");
  EXPECT_EQ(parsed.back()["error"], "needs compute capability 10.0, the device has 9.0");
}

// What a results folder writes (schema 2): no context line, every line a result that parses as one.
TEST(Reporter, ResultsFolderJsonLinesAreResultsOnly) {
  std::ostringstream out;
  const std::string text = render(make_jsonl_reporter(out, false), out);
  std::istringstream lines(text);
  std::string line;
  std::size_t n = 0;
  while (std::getline(lines, line)) {
    EXPECT_NO_THROW(parse_result_json(line)) << line;
    EXPECT_EQ(line.find("\"context\""), std::string::npos);
    ++n;
  }
  EXPECT_EQ(n, fixed_results().size());
}

TEST(Reporter, TableColoursSkippedYellowAndFailuresRed) {
  std::ostringstream out;
  const std::string text = render(make_table_reporter(out, true, 120), out);
  EXPECT_NE(text.find("\033[33mskipped"), std::string::npos);
  EXPECT_NE(text.find("\033[31mverify_failed"), std::string::npos);
  EXPECT_NE(text.find("\033[32mok"), std::string::npos);
  std::ostringstream plain;
  EXPECT_EQ(render(make_table_reporter(plain, false, 120), plain).find('\033'), std::string::npos);
}

TEST(Reporter, CsvQuotesNewlines) {
  std::ostringstream out;
  auto csv = make_csv_reporter(out);
  variant_result r = fixed_results()[10];
  r.error = "line one\nline two";
  csv->begin(fixed_context());
  csv->add(r);
  csv->end(fixed_context());
  EXPECT_NE(out.str().find(",\"line one\nline two\"\n"), std::string::npos) << out.str();
}

TEST(Reporter, MarkdownEscapesPipesAndLinksOnlyWrittenPlots) {
  std::ostringstream out;
  auto md = make_markdown_reporter(out, "plots/");
  md->begin(fixed_context());
  variant_result piped = fixed_results()[0];
  piped.variant = "a|b";
  md->add(piped);
  variant_result untimed_sweep = fixed_results()[11];  // untimed, in a lab file of its own with a sweep
  untimed_sweep.lab_file = "labs/c.toml";
  untimed_sweep.point = {{"n", "1024"}};
  md->add(untimed_sweep);
  md->end(fixed_context());
  EXPECT_NE(out.str().find("| a\\|b (baseline) |"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("(plots/a.svg)"), std::string::npos);
  EXPECT_EQ(out.str().find("c.svg"), std::string::npos);  // nothing timed: no plot is written, no link
  std::ostringstream no_plots;
  EXPECT_EQ(render(make_markdown_reporter(no_plots, ""), no_plots).find("!["), std::string::npos);
}

TEST(Reporter, PlotOfTwoAxisSweepNamesTheOtherAxisAndUsesLogScale) {
  const fs::path dir = fs::temp_directory_path() / "cudalab_plot_two_axes";
  fs::remove_all(dir);
  const auto written = write_plots(two_axis_sweep(), {}, dir);
  ASSERT_EQ(written.size(), 1u);
  const std::string svg = read_text(written[0]);
  // The other axis of two values: a dash pattern each, named in the legend beside the variant.
  EXPECT_NE(svg.find(">copy<"), std::string::npos) << svg;
  EXPECT_NE(svg.find(">block=128<"), std::string::npos);
  EXPECT_NE(svg.find(">block=256<"), std::string::npos);
  EXPECT_NE(svg.find("n (log scale)"), std::string::npos);  // 1024 .. 256Mi spans far more than 30x
  EXPECT_NE(svg.find(">256Mi<"), std::string::npos);
  EXPECT_NE(svg.find(">1Mi<"), std::string::npos);
  // Each polyline runs left to right although the sweep listed n from high to low.
  // In the GB/s panel (the model's sectors per request draw a panel of their own).
  const std::string gbps = svg.substr(svg.find("<g id=\"gbps\">"), svg.find("</g>") - svg.find("<g id=\"gbps\">"));
  std::size_t at = 0;
  int lines = 0;
  while ((at = gbps.find("<polyline", at)) != std::string::npos &&
         (at = gbps.find("points=\"", at)) != std::string::npos) {
    at += 8;
    std::istringstream pts(gbps.substr(at, gbps.find('"', at) - at));
    double x = 0, y = 0, last = -1;
    char comma = 0;
    while (pts >> x >> comma >> y) {
      EXPECT_GT(x, last);
      last = x;
    }
    ++lines;
  }
  EXPECT_EQ(lines, 2);
  fs::remove_all(dir);
}

TEST(Reporter, PlotOfNarrowNumericSweepIsLinear) {
  const fs::path dir = fs::temp_directory_path() / "cudalab_plot_linear";
  fs::remove_all(dir);
  const auto written = write_plots(fixed_results(), {}, dir);
  ASSERT_EQ(written.size(), 1u);
  EXPECT_EQ(read_text(written[0]).find("log scale"), std::string::npos);
  fs::remove_all(dir);
}

TEST(Reporter, redteam_f25_an_obstacle_at_plots_is_a_write_error_naming_the_plot) {
  const fs::path dir = fs::temp_directory_path() / "cudalab_plot_obstacle";
  fs::remove_all(dir);
  std::ofstream(dir) << "not a folder\n";
  try {
    write_plots(fixed_results(), {}, dir);
    FAIL() << "no error";
  } catch (const write_error& e) {
    EXPECT_STREQ(
        e.what(),
        ("cannot write " + (dir / "a.svg").string() + ": " + dir.string() + " is there and is not a folder").c_str());
  }
  fs::remove(dir);
}

// fixed_results() with its sweep also in `other` (same stem: a.toml), titled "Other".
std::vector<variant_result> with_sweep_also_in(const std::string& other) {
  std::vector<variant_result> rs = fixed_results();
  for (const variant_result& r : fixed_results())
    if (r.lab_file == "labs/a.toml") {
      variant_result copy = r;
      copy.lab_file = other;
      copy.title = "Other";
      rs.push_back(copy);
    }
  return rs;
}

TEST(Reporter, redteam_f23_lab_files_of_one_stem_get_a_plot_each) {
  const fs::path dir = fs::temp_directory_path() / "cudalab_plot_same_stem";
  fs::remove_all(dir);
  const auto written = write_plots(with_sweep_also_in("other/a.toml"), {}, dir);
  ASSERT_EQ(written.size(), 2u);
  EXPECT_EQ(written[0].filename(), "a.svg");
  EXPECT_EQ(written[1].filename(), "a-2.svg");
  EXPECT_NE(read_text(written[0]).find(">labs/a.toml: against offset<"), std::string::npos);
  EXPECT_NE(read_text(written[1]).find(">other/a.toml: against offset<"), std::string::npos);
  EXPECT_NE(read_text(written[1]).find(">Other<"), std::string::npos);
  fs::remove_all(dir);
  // report.md links each lab file's section to its own plot.
  std::ostringstream out;
  auto md = make_markdown_reporter(out, "plots/");
  md->begin(fixed_context());
  for (const auto& r : with_sweep_also_in("other/a.toml")) md->add(r);
  md->end(fixed_context());
  const std::string text = out.str();
  const auto a = text.find("labs/a.toml"), other = text.find("other/a.toml");
  ASSERT_LT(a, other);
  EXPECT_LT(text.find("(plots/a.svg)", a), other) << text;
  EXPECT_NE(text.find("(plots/a-2.svg)", other), std::string::npos) << text;
}

TEST(Reporter, redteam_f23_plot_names_are_plain_and_never_taken_twice) {
  std::vector<variant_result> rs = with_sweep_also_in("my lab (1).toml");
  for (const char* file : {"a-2.toml", ".hidden.toml"})
    for (const auto& r : with_sweep_also_in(file))
      if (r.lab_file == file) rs.push_back(r);
  std::vector<std::string> names;
  for (const auto& [file, name] : plot_files(rs)) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"a.svg", "my_lab__1_.svg", "a-2.svg", "_hidden.svg"}));
  rs = with_sweep_also_in("x/a.toml");
  for (const auto& r : with_sweep_also_in("a-2.toml"))
    if (r.lab_file == "a-2.toml") rs.push_back(r);
  names.clear();
  for (const auto& [file, name] : plot_files(rs)) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"a.svg", "a-2.svg", "a-2-2.svg"}));
}

// The lines of `text` that start with `start`.
std::vector<std::string> lines_starting(const std::string& text, const std::string& start) {
  std::istringstream in(text);
  std::vector<std::string> found;
  for (std::string line; std::getline(in, line);)
    if (line.rfind(start, 0) == 0) found.push_back(line);
  return found;
}

TEST(Reporter, redteam_f38_markdown_headings_and_file_names_stay_on_their_line) {
  run_context context = fixed_context();
  context.command_line = "cudalab run `x`.toml --set lab.title=first\nsecond";
  variant_result r = fixed_results()[10];
  r.lab_file = "labs/we`ird\nname.toml";
  r.title = "first\nsecond";
  std::ostringstream out;
  auto md = make_markdown_reporter(out, "plots/");
  md->begin(context);
  md->add(r);
  md->end(context);
  const std::string text = out.str();
  // The heading: the file name as code (a backtick inside it fenced by two), the title on the same line.
  EXPECT_EQ(lines_starting(text, "## "),
            (std::vector<std::string>{"## `` labs/we`ird name.toml `` — first second", "## Verification"}))
      << text;
  EXPECT_EQ(
      lines_starting(text, "Run "),
      std::vector<std::string>{
          "Run 2026-11-22T12:00:00Z with cudalab 0.1.0: `` cudalab run `x`.toml --set lab.title=first second ``"});
  // The failure list names the file the same way.
  const auto failures = lines_starting(text.substr(text.find("## Verification")), "- ");
  ASSERT_EQ(failures.size(), 1u) << text;
  EXPECT_EQ(failures.front().rfind("- `` labs/we`ird name.toml `` crash", 0), 0u) << text;
}

// results.csv of `results`: its header fields, and each row's fields as written (quoted fields whole).
std::vector<std::vector<std::string>> csv_rows(const std::vector<variant_result>& results) {
  std::ostringstream out;
  auto csv = make_csv_reporter(out);
  csv->begin(fixed_context());
  for (const auto& r : results) csv->add(r);
  csv->end(fixed_context());
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (char c : line) {
      if (c == '"') quoted = !quoted;
      if (c == ',' && !quoted)
        fields.emplace_back();
      else
        fields.back() += c;
    }
    rows.push_back(fields);
  }
  return rows;
}

// The field of `row` in the column `name` of `header`.
std::string field(const std::vector<std::string>& header, const std::vector<std::string>& row,
                  const std::string& name) {
  const auto at = std::find(header.begin(), header.end(), name);
  return at == header.end() ? "<no column " + name + ">" : row.at(std::size_t(at - header.begin()));
}

TEST(Reporter, redteam_f39_csv_fields_never_start_a_formula) {
  variant_result r = fixed_results()[10];  // an error
  r.lab_file = "=HYPERLINK(\"http://x\")";
  r.plugin = "@SUM(A1)";
  r.variant = "+cmd";
  r.error = "-2+3";
  r.point = {{"offset", "-1"}, {"mode", "\tx"}};
  const auto rows = csv_rows({r});
  ASSERT_EQ(rows.size(), 2u);
  const auto& header = rows[0];
  EXPECT_EQ(field(header, rows[1], "lab_file"), "\"'=HYPERLINK(\"\"http://x\"\")\"");
  EXPECT_EQ(field(header, rows[1], "plugin"), "'@SUM(A1)");
  EXPECT_EQ(field(header, rows[1], "variant"), "'+cmd");
  EXPECT_EQ(field(header, rows[1], "error"), "'-2+3");
  EXPECT_EQ(field(header, rows[1], "param.mode"), "'\tx");
  EXPECT_EQ(field(header, rows[1], "param.offset"), "-1");  // a number stays a number
}

TEST(Reporter, redteam_f39_csv_has_an_empty_cell_where_json_has_null) {
  variant_result r = fixed_results()[9];  // verify_failed
  r.verification.max_abs_error = std::nan("");
  r.verification.max_rel_error = std::numeric_limits<double>::infinity();
  ASSERT_TRUE(nlohmann::json::parse(result_json(r))["verification"]["max_abs_error"].is_null());
  const auto rows = csv_rows({r});
  EXPECT_EQ(field(rows[0], rows[1], "max_abs_error"), "");
  EXPECT_EQ(field(rows[0], rows[1], "mismatches"), "3");
}

TEST(Reporter, redteam_f40_report_has_one_section_per_lab_file_in_any_order) {
  const auto rs = fixed_results();  // a.toml (9 results), then b.toml (4)
  std::ostringstream out;
  auto md = make_markdown_reporter(out, "plots/");
  md->begin(fixed_context());
  md->add(rs[0]);
  md->add(rs[9]);  // b.toml between two results of a.toml (an isolated run may interleave them)
  md->add(rs[1]);
  md->end(fixed_context());
  EXPECT_EQ(
      lines_starting(out.str(), "## "),
      (std::vector<std::string>{"## `labs/a.toml` — Offset copy", "## `labs/b.toml` — Offset copy", "## Verification"}))
      << out.str();
  EXPECT_EQ(lines_starting(out.str(), "| 0 | offset_read |").size(), 1u);  // in a.toml's section
}

TEST(Reporter, StatusNames) {
  EXPECT_STREQ(status_name(result_status::ok), "ok");
  EXPECT_STREQ(status_name(result_status::verify_failed), "verify_failed");
  EXPECT_STREQ(status_name(result_status::error), "error");
  EXPECT_STREQ(status_name(result_status::skipped), "skipped");
}

}  // namespace
}  // namespace cudalab::host
