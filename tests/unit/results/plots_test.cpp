// The plots: series styles, axes (the kind follows the sweep, a y range that shows small differences),
// the panels a sweep gets, min/max bars, facets beyond 20 series, a legend that fits, the bar chart of a
// single-point lab, PNG copies that never write through a planted symlink, and golden files of plots
// drawn from H100 runs kept under tests/fixtures/plots. Regenerate the golden files after a deliberate
// change with CUDALAB_UPDATE_GOLDEN=1.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

#include "golden.hpp"
#include "results/format.hpp"
#include "results/plot_axis.hpp"
#include "results/plot_images.hpp"
#include "results/plot_style.hpp"
#include "results/reporter.hpp"
#include "results/result_set.hpp"

namespace cudalab::host {
namespace {

namespace fs = std::filesystem;
const fs::path fixtures = fs::path(CUDALAB_SOURCE_DIR) / "tests" / "fixtures";

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A timed result of `variant` in labs/p.toml at the swept values `point`: `gbps` at the median, the
// repetitions spread from `spread` times faster to `spread` times slower.
variant_result timed(const std::string& variant, std::vector<std::pair<std::string, std::string>> point, double gbps,
                     double spread = 1.0, bool baseline = false) {
  variant_result r;
  r.lab_file = "labs/p.toml";
  r.title = "Plot test";
  r.point = std::move(point);
  r.variant = variant;
  r.is_baseline = baseline;
  r.time.timed = true;
  r.time.median_ms = 1;
  r.time.min_ms = 1 / spread;
  r.time.max_ms = spread;
  r.gbps = gbps;
  return r;
}

// The plots of `results` (with `labs` as the context's descriptions), each file's text.
std::vector<std::string> plots_of(const std::vector<variant_result>& results,
                                  const std::vector<lab_description>& labs = {}) {
  const fs::path dir = fs::temp_directory_path() / "cudalab_plots_test";
  fs::remove_all(dir);
  std::vector<std::string> texts;
  for (const fs::path& f : write_plots(results, labs, dir)) texts.push_back(read_text(f));
  fs::remove_all(dir);
  return texts;
}

// The SVG group with this id: from its opening tag to the next "</g>".
std::string group(const std::string& svg, const std::string& id) {
  const auto at = svg.find("<g id=\"" + id + "\">");
  if (at == std::string::npos) return "";
  return svg.substr(at, svg.find("</g>", at) - at);
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(PlotStyle, TwentyVariantsHaveTwentyColoursAndNoTwoLookAlike) {
  std::set<std::string> colours;
  std::set<std::pair<std::string, int>> looks;
  for (std::size_t i = 0; i < distinct_styles; ++i) {
    const series_style s = style_of(i);
    colours.insert(s.colour);
    looks.insert({s.colour, int(s.marker)});
  }
  EXPECT_EQ(colours.size(), distinct_styles);
  EXPECT_EQ(looks.size(), distinct_styles);
  // Neighbours differ in marker too, so that two lines crossing stay apart without colour.
  for (std::size_t i = 0; i + 1 < distinct_styles; ++i) EXPECT_NE(style_of(i).marker, style_of(i + 1).marker) << i;
  // A second parameter's values: solid first, then dash patterns no two alike.
  std::set<std::string> dashes;
  for (std::size_t k = 0; k < distinct_dashes; ++k) dashes.insert(dash_of(k));
  EXPECT_EQ(dashes.size(), distinct_dashes);
  EXPECT_STREQ(dash_of(0), "");
}

TEST(PlotAxis, TheXAxisFollowsHowTheSweepWasWritten) {
  EXPECT_EQ(sweep_x_axis({"2", "4", "8"}, "factor").kind(), axis_kind::log);        // narrow, but geometric
  EXPECT_EQ(sweep_x_axis({"1", "513", "1025"}, "step").kind(), axis_kind::linear);  // wide, but arithmetic
  EXPECT_EQ(sweep_x_axis({"1024", "1048576"}, "list").kind(), axis_kind::log);      // a list: a guess from the span
  EXPECT_EQ(sweep_x_axis({"1024", "1048576"}, "").kind(), axis_kind::log);
  EXPECT_EQ(sweep_x_axis({"0", "32"}, "list").kind(), axis_kind::linear);
  EXPECT_EQ(sweep_x_axis({"row", "column"}, "list").kind(), axis_kind::category);
  const sweep_x_axis x({"16", "1", "4"}, "factor");
  EXPECT_EQ(x.values(), (std::vector<std::string>{"1", "4", "16"}));  // left to right
  EXPECT_DOUBLE_EQ(x.fraction("1"), 0.0);
  EXPECT_DOUBLE_EQ(x.fraction("4"), 0.5);  // equal ratios take equal room
  EXPECT_DOUBLE_EQ(x.fraction("16"), 1.0);
  EXPECT_DOUBLE_EQ(sweep_x_axis({"7"}, "list").fraction("7"), 0.5);
}

TEST(PlotAxis, OnlyValuesWrittenWholeAsFiniteNumbersAreNumbers) {
  EXPECT_EQ(number_in("256"), 256.0);
  EXPECT_EQ(number_in("-3e2"), -300.0);
  EXPECT_EQ(number_in("0.5"), 0.5);
  for (const char* text : {"", "random", "true", "1 2", " 1", "inf", "nan", "12Ki"})
    EXPECT_FALSE(number_in(text).has_value()) << text;
}

// Two rates a rounding apart (the same fake time reached through different sums) once gave a tick step
// below the values' precision, and the tick loop never ended: a run that timed its results in no time hung
// while it drew its plots.
TEST(PlotAxis, ValuesARoundingApartGetAFewTicks) {
  const double hi = 4.096e12;
  const y_axis a = fit_y_axis(std::nextafter(hi, 0.0), hi);
  EXPECT_GE(a.ticks.size(), 3u);
  EXPECT_LE(a.ticks.size(), 12u);
  EXPECT_GE(a.hi, hi);
}

TEST(PlotAxis, TheYRangeShowsSmallDifferencesAndSaysSo) {
  const y_axis close = fit_y_axis(2900, 3000);  // a 3% difference at 3000 GB/s
  EXPECT_FALSE(close.from_zero);
  EXPECT_GT(close.lo, 2000);
  EXPECT_LE(close.lo, 2900);
  EXPECT_GE(close.hi, 3000);
  EXPECT_LT(close.hi, 3300);
  EXPECT_GT(close.fraction(3000) - close.fraction(2900), 0.3);  // a third of the panel, not a hair
  EXPECT_TRUE(fit_y_axis(100, 3000).from_zero);
  EXPECT_TRUE(fit_y_axis(2900, 3000, true).from_zero);
  EXPECT_EQ(fit_y_axis(2900, 3000, true).lo, 0);
  for (const y_axis& a : {close, fit_y_axis(0.2, 31.5), fit_y_axis(0, 0)}) {
    ASSERT_GE(a.ticks.size(), 3u);
    EXPECT_DOUBLE_EQ(a.ticks.front(), a.lo);
    EXPECT_NEAR(a.ticks.back(), a.hi, 1e-9);
    for (std::size_t i = 2; i < a.ticks.size(); ++i)
      EXPECT_NEAR(a.ticks[i] - a.ticks[i - 1], a.ticks[1] - a.ticks[0], 1e-9);
  }
  EXPECT_EQ(tick_text(2.5, 0.5), "2.5");
  EXPECT_EQ(tick_text(3000, 500), "3000");
  EXPECT_EQ(tick_text(0.75, 0.25), "0.75");
  EXPECT_EQ(size_text("268435456"), "256Mi");
  EXPECT_EQ(size_text("1000"), "1000");
}

TEST(Plots, TheAxisKindComesFromTheContextsSweepSpacing) {
  const std::vector<variant_result> rs = {timed("copy", {{"n", "2"}}, 10), timed("copy", {{"n", "8"}}, 20)};
  lab_description geometric;
  geometric.file = "labs/p.toml";
  geometric.sweep_spacing = {{"n", "factor"}};
  EXPECT_NE(plots_of(rs, {geometric}).at(0).find("n (log scale)"), std::string::npos);
  EXPECT_EQ(plots_of(rs).at(0).find("log scale"), std::string::npos);  // a list of 2 .. 8 is linear
}

// A zipped group ([[sweep.zip]]) is one axis: x is its first parameter whose values all differ, the others
// move with it and make neither dash patterns nor facets; the axes crossed with the group still do (fill, a
// category, makes facets).
TEST(Plots, AZippedGroupIsDrawnAsOneAxis) {
  std::vector<variant_result> rs;
  const std::vector<std::pair<std::string, std::string>> pairs = {{"1000", "32"}, {"4099", "128"}, {"65536", "256"}};
  for (const char* fill : {"random", "ramp"})
    for (const auto& [n, block] : pairs) rs.push_back(timed("copy", {{"fill", fill}, {"n", n}, {"block", block}}, 10));
  lab_description zipped;
  zipped.file = "labs/p.toml";
  zipped.sweep = {{"fill", {"random", "ramp"}}, {"n", {"1000", "4099", "65536"}}, {"block", {"32", "128", "256"}}};
  zipped.sweep_zip = {{"n", "block"}};
  const std::string svg = plots_of(rs, {zipped}).at(0);
  EXPECT_NE(svg.find("labs/p.toml: against n (with block) (log scale), a facet per fill"), std::string::npos) << svg;
  EXPECT_EQ(svg.find("a dash pattern per"), std::string::npos) << svg;  // block moves with n: no dashes
  const std::string legend = group(svg, "legend");
  EXPECT_EQ(count(legend, "<text"), 1u) << legend;  // copy, 3 points in each facet
  EXPECT_NE(svg.find("facet fill=ramp"), std::string::npos) << svg;
  EXPECT_NE(svg.find("copy@fill=ramp at n=4099 block=128: 10"), std::string::npos) << svg;
  // Without the context's groups the same results are a product: against block, a dash pattern per n.
  const std::string product = plots_of(rs).at(0);
  EXPECT_NE(product.find("labs/p.toml: against block"), std::string::npos);
  EXPECT_NE(product.find("a dash pattern per n"), std::string::npos);
  EXPECT_EQ(count(group(product, "legend"), "<text"), 4u);  // copy, and n's three values
  // A group whose every axis repeats a value has no axis to stand for it: drawn as a product too (the
  // context alone decides).
  zipped.sweep = {{"fill", {"random", "ramp"}}, {"n", {"1000", "1000", "4099"}}, {"block", {"32", "128", "128"}}};
  EXPECT_NE(plots_of(rs, {zipped}).at(0).find("labs/p.toml: against block"), std::string::npos);
}

TEST(Plots, ErrorBarsRunFromTheSlowestToTheFastestRepetition) {
  // 100 GB/s at the median, 50 at the slowest repetition (2x the time), 200 at the fastest.
  const std::string svg =
      plots_of({timed("copy", {{"n", "1"}}, 100, 2.0), timed("copy", {{"n", "2"}}, 100, 2.0)}).at(0);
  const std::string gbps = group(svg, "gbps");
  ASSERT_FALSE(gbps.empty()) << svg;
  // The axis runs 0 .. 250 over the panel's 240 px: a bar from 50 to 200 is 144 px long.
  const std::regex vertical("<line x1=\"([0-9.]+)\" y1=\"([0-9.]+)\" x2=\"\\1\" y2=\"([0-9.]+)\" stroke=\"#1f77b4\"/>");
  int bars = 0;
  for (std::sregex_iterator it(gbps.begin(), gbps.end(), vertical), end; it != end; ++it) {
    EXPECT_NEAR(std::stod((*it)[2]) - std::stod((*it)[3]), 144.0, 0.2);
    ++bars;
  }
  EXPECT_EQ(bars, 2);
  EXPECT_NE(gbps.find(">250<"), std::string::npos);
}

TEST(Plots, PanelsOfBaselineAndModelAppearWhenTheResultsHaveThem) {
  std::vector<variant_result> rs = {timed("memcpy", {{"n", "1"}}, 100, 1, true),
                                    timed("memcpy", {{"n", "2"}}, 100, 1, true), timed("copy", {{"n", "1"}}, 90),
                                    timed("copy", {{"n", "2"}}, 80)};
  const std::string plain = plots_of({rs[0], rs[1]}).at(0);
  EXPECT_FALSE(group(plain, "gbps").empty());
  EXPECT_TRUE(group(plain, "pct_of_baseline").empty());  // nothing to compare with the baseline
  EXPECT_TRUE(group(plain, "sectors_per_request").empty());
  rs[2].pct_of_baseline = 90;
  rs[3].pct_of_baseline = 80;
  rs[3].has_model = true;
  rs[3].model.global_load = {10, 50, 20, 1280};  // 5 sectors per request
  rs[2].has_model = true;
  rs[2].model.shared_load = {10, 320, 10};  // 32 wavefronts per request: a 32-way conflict
  const std::string full = plots_of(rs).at(0);
  const std::string pct = group(full, "pct_of_baseline"), sectors = group(full, "sectors_per_request");
  EXPECT_NE(pct.find("memcpy = 100, dashed"), std::string::npos) << full;
  EXPECT_NE(pct.find("stroke-dasharray=\"6 4\""), std::string::npos);
  EXPECT_NE(pct.find("the axis does not start at 0"), std::string::npos);   // 80 .. 100
  EXPECT_NE(sectors.find("copy at n=2: 5"), std::string::npos) << sectors;  // the marker's tooltip
  EXPECT_EQ(count(sectors, "<title>"), 1u);                                 // copy at n=1 has no model
}

// Issue 34: where a lab file says its lesson is traffic ([lab] lesson = "traffic"), the model's panels
// show the totals over each run too (the reuse a lab teaches is the traffic, not its ratios); elsewhere not.
TEST(Plots, TotalsPanelsWhereTheLabsLessonIsTraffic) {
  std::vector<variant_result> rs = {timed("copy", {{"n", "1"}}, 90), timed("copy", {{"n", "2"}}, 80)};
  rs[0].has_model = rs[1].has_model = true;
  rs[0].model.global_load = {10, 40, 10, 1280};
  rs[1].model.global_load = {20, 80, 20, 2560};
  rs[1].model.shared_load = {20, 640, 20};
  const std::string plain = plots_of(rs).at(0);
  EXPECT_FALSE(group(plain, "sectors_per_request").empty()) << plain;
  EXPECT_TRUE(group(plain, "sectors_total").empty()) << plain;
  lab_description traffic;
  traffic.file = "labs/p.toml";
  traffic.lesson = "traffic";
  const std::string svg = plots_of(rs, {traffic}).at(0);
  const std::string sectors = group(svg, "sectors_total"), wavefronts = group(svg, "wavefronts_total");
  EXPECT_NE(sectors.find("global sectors in total over each run"), std::string::npos) << svg;
  EXPECT_NE(sectors.find("copy at n=1: 40"), std::string::npos) << sectors;
  EXPECT_NE(sectors.find("copy at n=2: 80"), std::string::npos) << sectors;
  EXPECT_NE(wavefronts.find("copy at n=2: 640"), std::string::npos) << wavefronts;
  EXPECT_EQ(count(wavefronts, "<title>"), 1u);  // n=1 has no shared access
}

TEST(Plots, BeyondTwentySeriesTheSweepIsDrawnInFacetsWithALegendThatFits) {
  // 3 variants x 8 values of block: 24 series, more than can be told apart.
  std::vector<variant_result> rs;
  for (const char* v : {"copy_float", "copy_float4_with_a_rather_long_name", "grid_stride"})
    for (int block = 32; block <= 1024 * 4; block *= 2)
      for (const char* unroll : {"1", "2", "4"})
        rs.push_back(timed(v, {{"block", std::to_string(block)}, {"unroll", unroll}}, 100 + block / 32.0));
  const std::string svg = plots_of(rs).at(0);
  EXPECT_EQ(count(svg, "<g id=\"facet block="), 8u);
  EXPECT_NE(svg.find("<g id=\"facet block=4096\">"), std::string::npos);
  const std::string legend = group(svg, "legend");
  EXPECT_EQ(count(legend, "<text"), 3u);  // a series per variant, the same in every facet
  // Every legend entry ends inside the picture (7.8 px a character at most).
  const double width = std::stod(
      std::regex_replace(svg.substr(0, 200), std::regex(".*width=\"([0-9.]+)\".*", std::regex::extended), "$1"));
  const std::regex entry("<text x=\"([0-9.]+)\" y=\"[0-9.]+\">([^<]*)</text>");
  for (std::sregex_iterator it(legend.begin(), legend.end(), entry), end; it != end; ++it)
    EXPECT_LE(std::stod((*it)[1]) + 7.8 * double((*it)[2].length()), width) << (*it)[2];
  // A second parameter of at most 5 numbers is a dash pattern instead: one plot, the variant's colour in
  // every line, a dash pattern per value of block, the legend naming both.
  rs.resize(4 * 3);  // copy_float's first 4 blocks x 3 unrolls: 4 series
  const std::string few = plots_of(rs).at(0);
  EXPECT_EQ(few.find("facet"), std::string::npos);
  const std::string few_legend = group(few, "legend");
  EXPECT_NE(few_legend.find(">copy_float<"), std::string::npos) << few;
  EXPECT_NE(few_legend.find(">block=256<"), std::string::npos) << few;
  const std::string gbps = group(few, "gbps");
  EXPECT_EQ(count(gbps, "<polyline"), 4u);
  EXPECT_EQ(count(gbps, "\"#1f77b4\""), count(gbps, "<polyline") + count(gbps, "<circle"));  // one colour
  EXPECT_EQ(count(gbps, "stroke-dasharray"), 3u);  // block=32 solid, the other three dashed
}

// The histogram lab's shape: variants over bins, a facet per distribution (a parameter that is not a
// number) side by side on shared axes, each variant in one colour in every facet, % of the baseline on
// a log axis where it spans decades (1% to 1000% here).
TEST(Plots, ACategoricalParameterMakesFacetsSideBySideOnSharedLogAxes) {
  std::vector<variant_result> rs;
  const std::pair<const char*, double> distributions[] = {{"uniform", 1.0}, {"skewed", 0.01}, {"cyclic", 10.0}};
  for (const auto& [distribution, factor] : distributions)
    for (const char* bins : {"32", "256", "4096"}) {
      rs.push_back(timed("cub", {{"distribution", distribution}, {"bins", bins}}, 1000, 1.0, true));
      variant_result atomics = timed("global_atomics", {{"distribution", distribution}, {"bins", bins}}, 1000 * factor);
      atomics.pct_of_baseline = 100 * factor;
      rs.push_back(atomics);
      variant_result shared = timed("shared_privatized", {{"distribution", distribution}, {"bins", bins}}, 2000);
      shared.pct_of_baseline = 200;
      rs.push_back(shared);
    }
  const std::string svg = plots_of(rs).at(0);
  EXPECT_NE(svg.find("against bins (log scale), a facet per distribution"), std::string::npos) << svg;
  for (const char* d : {"uniform", "skewed", "cyclic"})
    EXPECT_NE(svg.find(std::string("<g id=\"facet distribution=") + d + "\">"), std::string::npos) << d;
  // Side by side: the three facets' GB/s panels start at three different x, at one y.
  const std::regex grid_line("<line x1=\"([0-9.]+)\" y1=\"([0-9.]+)\"");
  std::set<std::string> lefts, tops;
  for (const char* d : {"uniform", "skewed", "cyclic"}) {
    const std::string panel = group(svg, std::string("gbps distribution=") + d);
    std::smatch first;
    ASSERT_TRUE(std::regex_search(panel, first, grid_line)) << d;
    lefts.insert(first[1]);
    tops.insert(first[2]);
  }
  EXPECT_EQ(lefts.size(), 3u);
  EXPECT_EQ(tops.size(), 1u);
  // One colour per variant, the same in every facet; the legend lists each variant once, beside the panels.
  const std::string legend = group(svg, "legend");
  EXPECT_EQ(count(legend, "<text"), 3u);
  EXPECT_EQ(count(svg, "stroke=\"#d62728\" stroke-width=\"1.5\" points="), 6u);  // global_atomics: 2 panels x 3
  const std::regex legend_line("<line x1=\"([0-9.]+)\"");
  std::smatch first_entry;
  ASSERT_TRUE(std::regex_search(legend, first_entry, legend_line));
  double rightmost_panel = 0;
  const std::regex panel_line("<line x1=\"[0-9.]+\" y1=\"[0-9.]+\" x2=\"([0-9.]+)\" y2=\"[0-9.]+\" stroke=\"#444\"/>");
  for (std::sregex_iterator it(svg.begin(), svg.end(), panel_line), end; it != end; ++it)
    rightmost_panel = std::max(rightmost_panel, std::stod((*it)[1]));
  EXPECT_GT(std::stod(first_entry[1]), rightmost_panel);
  // % of the baseline from 1 to 200: a log axis from 1 to 1000, its heading says so.
  const std::string pct = group(svg, "pct_of_baseline distribution=uniform");
  EXPECT_NE(pct.find("log scale"), std::string::npos) << pct;
  for (const char* tick : {">1<", ">10<", ">100<", ">1000<"}) EXPECT_NE(pct.find(tick), std::string::npos) << tick;
}

TEST(Plots, TextThatXmlCannotHoldIsReplacedNotWrittenRaw) {
  // A title with a control character and a byte that is not UTF-8, a variant name with markup.
  variant_result r = timed("a<b>&\"c\"", {}, 100);
  r.title = std::string("bell \x07 and \xff byte");
  const std::string svg = plots_of({r}).at(0);
  for (const char c : svg) EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 && c != '\n') << int(c);
  EXPECT_EQ(svg.find('\xff' + std::string(" byte")), std::string::npos);
  EXPECT_NE(svg.find("bell \xEF\xBF\xBD and \xEF\xBF\xBD byte"), std::string::npos) << svg;
  EXPECT_NE(svg.find("a&lt;b&gt;&amp;&quot;c&quot;"), std::string::npos);
}

TEST(Plots, ASinglePointLabGetsABarChart) {
  std::vector<variant_result> rs = {timed("cub", {}, 3000, 1.01, true), timed("naive", {}, 400, 1.2)};
  rs[1].pct_of_baseline = 13.3;
  const std::string svg = plots_of(rs).at(0);
  const std::string bars = group(svg, "bars");
  EXPECT_EQ(count(bars, "<rect"), 2u);
  EXPECT_NE(bars.find(">cub (baseline)<"), std::string::npos);
  EXPECT_NE(bars.find(">400 GB/s, 13.3% of baseline<"), std::string::npos) << bars;
  EXPECT_NE(svg.find(">0<"), std::string::npos);  // bars start at 0
}

// A result of run --profile: nothing timed, the model's `predicted` and Nsight Compute's `counted`
// global sectors per request of `variant` at `point`.
variant_result counted(const std::string& variant, std::vector<std::pair<std::string, std::string>> point,
                       std::uint64_t predicted, std::uint64_t counted) {
  variant_result r = timed(variant, std::move(point), 0);
  r.time = {};
  r.has_model = true;
  r.model.global_load = {10, 10 * predicted, 10, 320};
  r.has_measured = true;
  r.measured.kernels = 1;
  r.measured.global_load = {10, 10 * counted};
  return r;
}

TEST(Plots, ARunWithCountersDrawsThemBesideThePredictions) {
  // A sweep: no GB/s panel (nothing timed), the sectors panel with a ring per counted value.
  const std::string sweep = plots_of({counted("copy", {{"n", "1"}}, 4, 4), counted("copy", {{"n", "2"}}, 4, 5)}).at(0);
  EXPECT_TRUE(group(sweep, "gbps").empty());
  const std::string sectors = group(sweep, "sectors_per_request");
  EXPECT_NE(sectors.find("rings: counted by Nsight Compute"), std::string::npos) << sectors;
  EXPECT_EQ(count(sectors, "r=\"6\" fill=\"none\""), 2u);  // the rings
  EXPECT_NE(sectors.find("copy at n=2: 5 counted"), std::string::npos) << sectors;
  // One point: a filled bar for the model's and an outlined one for the counted value, per variant.
  const std::string one = plots_of({counted("copy", {}, 4, 4), counted("strided", {}, 8, 32)}).at(0);
  const std::string bars = group(one, "sectors_per_request");
  EXPECT_EQ(count(bars, "<rect"), 4u);
  EXPECT_EQ(count(bars, "fill=\"none\""), 2u);
  EXPECT_NE(bars.find(">8.00 predicted, 32.00 counted<"), std::string::npos) << bars;
  EXPECT_TRUE(group(one, "wavefronts_per_request").empty());  // no shared accesses either way
}

// Plots drawn from the results of two H100 runs (context.json and results.json as `cudalab run`
// wrote them): labs/reduction.toml (one point: bars) and labs/reduction_sizes.toml (n by factor 4).
TEST(Plots, PlotsOfH100RunsMatchGolden) {
  for (const char* run : {"h100-reduction", "h100-reduction_sizes"}) {
    const result_set set = read_result_set(fixtures / "plots" / run);
    const auto texts = plots_of(set.results, set.context.labs);
    ASSERT_EQ(texts.size(), 1u) << run;
    testing::expect_golden_file(fixtures / "golden" / (std::string(run) + ".svg"), texts[0]);
  }
}

// --png in a plots folder others can write: a symlink planted at the name the PNG used to be rendered to
// (".NAME.png.tmp-<pid>") or at NAME.png itself is never written through; the PNG is written beside the
// SVG all the same. The renderer is a stand-in that writes its --output as rsvg-convert would.
TEST(PlotImages, redteam26_f12_png_copies_never_write_through_a_planted_symlink) {
  const fs::path dir = fs::temp_directory_path() / ("cudalab_plot_images_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "plots");
  const fs::path renderer = dir / "fake-rsvg-convert";
  std::ofstream(renderer) << "#!/bin/sh\nwhile [ $# -gt 1 ]; do [ \"$1\" = --output ] && out=$2; shift; done\n"
                             "printf 'PNG of %s' \"$1\" > \"$out\"\n";
  fs::permissions(renderer, fs::perms::owner_all);
  const fs::path victim = dir / "victim.txt", other_victim = dir / "other_victim.txt";
  std::ofstream(victim) << "precious";
  std::ofstream(other_victim) << "precious too";
  const fs::path svg = dir / "plots" / "lab.svg";
  std::ofstream(svg) << "<svg/>";
  fs::create_symlink(victim, dir / "plots" / (".lab.png.tmp-" + std::to_string(::getpid())));
  fs::create_symlink(other_victim, dir / "plots" / "lab.png");
  std::vector<std::string> failures;
  const std::vector<fs::path> written = write_png_copies(renderer, {svg}, failures);
  EXPECT_TRUE(failures.empty()) << (failures.empty() ? "" : failures.front());
  ASSERT_EQ(written.size(), 1u);
  const auto text = [](const fs::path& p) {
    std::ifstream in(p);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  EXPECT_EQ(text(victim), "precious");
  EXPECT_EQ(text(other_victim), "precious too");
  EXPECT_FALSE(fs::is_symlink(dir / "plots" / "lab.png"));
  EXPECT_EQ(text(dir / "plots" / "lab.png"), "PNG of " + svg.string());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace cudalab::host
