// The grade report (grade.json) and its renders: the JSON round trip and what the reader refuses,
// what a student's copy drops, golden files for every render of one report with visible, hidden,
// failed, timed-out and held tests, a flag and a leaderboard; Gradescope's documented fields and
// words, JUnit XML read back (and xmllint's verdict where it is installed), PrairieLearn's score range
// and size limit; what no render may show (a hidden test's inputs through its flags, raw escape sequences).
// Regenerate the golden files with CUDALAB_UPDATE_GOLDEN=1.
#include <gtest/gtest.h>
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "assignment/grade_report.hpp"
#include "assignment/lms_outputs.hpp"
#include "golden.hpp"

namespace cudalab::host {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path golden_dir = fs::path(CUDALAB_SOURCE_DIR) / "tests" / "fixtures" / "golden" / "grade";

// Texts that only staff may see: none of them may appear in a render.
const char* const staff_only[] = {"STAFF-SEED-DIGEST", "STAFF-INPUT-DIGEST", "HIDDEN-PARAMETERS", "HIDDEN-FEEDBACK"};

grade_test make_test(const std::string& name, const std::string& kind, double points, double max_points,
                     grade_status status, const std::string& message) {
  grade_test t;
  t.id = name;
  t.name = name;
  t.kind = kind;
  t.points = points;
  t.max_points = max_points;
  t.status = status;
  t.message = message;
  return t;
}

// One report with something of everything a render has to show or hide.
grade_report sample_report() {
  grade_report r;
  r.command = "grade";
  r.cudalab_version = "0.9.0";
  r.graded_at = "2026-11-25T10:00:00Z";
  r.seconds = 141.6;
  r.assignment = {"hw3-reduce", "Reduction at the DRAM roof", 100, std::string(64, 'a')};
  r.student = {std::string(64, 'b'), "swift-otter"};
  r.submission.sha256 = std::string(64, 'c');
  r.submission.files = {"reduce.cu"};
  r.submission.build = {true, "nvcc 12.6 for sm_90 -lineinfo", {}, 3.25};
  device_info d;
  d.name = "NVIDIA H100 80GB HBM3";
  d.cc_major = 9;
  d.sm_count = 132;
  d.global_memory_bytes = 85'000'000'000;
  d.l2_cache_bytes = 52'428'800;
  d.shared_memory_per_block_optin_bytes = 232'448;
  d.max_threads_per_block = 1024;
  d.max_threads_per_sm = 2048;
  d.memory_bus_width_bits = 5120;
  d.memory_clock_khz = 2'619'000;
  r.device = d;
  r.gpu = graded_gpu{1, "1", "0000:19:00.0", "gpu-node-07"};
  r.measured = ceilings{3004.5, 55.1, 54.8, 101.2};

  grade_test small = make_test("small-int", "correctness", 10, 10, grade_status::passed, "8 of 8 points verified");
  small.parameters = "n = [1, 3, 31, 33]";
  grade_test odd = make_test("odd-sizes", "correctness", 6, 10, grade_status::failed, "3 of 5 points verified");
  odd.parameters = "n = [7, 4099]";
  odd.feedback_md = "- n=4099: 3 of 4099 elements wrong, first [4096] got -1, expected 17 <see> & \"quotes\"\n";
  grade_test hidden = make_test("hidden-sizes", "correctness", 24, 30, grade_status::failed, "8 of 10 points passed");
  hidden.visibility = test_visibility::hidden;
  hidden.parameters = "HIDDEN-PARAMETERS n = [1234567]";
  hidden.feedback_md = "HIDDEN-FEEDBACK n=1234567 wrong";
  grade_test hang =
      make_test("hidden-huge", "correctness", 0, 5, grade_status::timed_out, "stopped after 20 s (unit_timeout_s)");
  hang.visibility = test_visibility::hidden;
  hang.parameters = "HIDDEN-PARAMETERS n = 2^30";
  grade_test roof =
      make_test("roof", "performance", 0, 40, grade_status::held, "4100 GB/s is above 1.05 x the measured ceiling");
  roof.parameters = "n = \"256Mi\"";
  roof.metric = grade_metric{"pct_of_baseline", 73.4, std::make_pair(72.1, 74.6), 3};
  grade_test crash = make_test("memcheck", "sanitizer", 0, 5, grade_status::error, "the run crashed (signal 11)");
  crash.feedback_md = "Invalid __global__ write of size 4 bytes\nat reduce+0x70 in reduce.cu:42\n";
  grade_test skip =
      make_test("racecheck", "sanitizer", 0, 0, grade_status::skipped, "the correctness tests must pass first");
  r.tests = {small, odd, hidden, hang, roof, crash, skip};
  r.flags = {{"roofline", "blocking", "4100 GB/s is above 1.05 x the measured D2D ceiling (3004 GB/s)"}};
  r.score = 40;
  r.max_score = 100;
  r.leaderboard = {{"% of baseline", "roof", 73.4, "desc", std::make_pair(72.1, 74.6)},
                   {"ms at 256Mi", "roof", 0.481, "asc", std::nullopt}};
  r.staff.seed_digests = {"STAFF-SEED-DIGEST-1", "STAFF-SEED-DIGEST-2"};
  r.staff.input_digests = {"STAFF-INPUT-DIGEST-1"};
  return r;
}

grade_report build_failure_report() {
  grade_report r = sample_report();
  r.submission.build = {false,
                        "nvcc 12.6 for sm_90 -lineinfo",
                        {{"reduce.cu", 42, diagnostic_severity::error, "expected ';' after expression"},
                         {"reduce.cu", 50, diagnostic_severity::error, "expected '}'"}},
                        1.5};
  r.device.reset();
  r.gpu.reset();
  r.measured.reset();
  for (grade_test& t : r.tests) {
    t.points = 0;
    t.status = grade_status::skipped;
    t.message = "the submission does not build";
    t.metric.reset();
    if (t.visibility == test_visibility::visible) t.feedback_md.clear();
  }
  r.flags.clear();
  r.leaderboard.clear();
  r.score = 0;
  return r;
}

void expect_no_staff_text(const std::string& render, const std::string& what) {
  for (const char* s : staff_only) EXPECT_EQ(render.find(s), std::string::npos) << what << " shows " << s;
}

TEST(GradeReport, RoundTripsThroughItsJson) {
  const grade_report r = sample_report();
  const std::string text = grade_report_json(r);
  EXPECT_EQ(grade_report_json(parse_grade_report(text)), text);
  const grade_report back = parse_grade_report(text);
  ASSERT_EQ(back.tests.size(), r.tests.size());
  EXPECT_EQ(back.tests[2].visibility, test_visibility::hidden);
  EXPECT_EQ(back.tests[3].status, grade_status::timed_out);
  ASSERT_TRUE(back.tests[4].metric && back.tests[4].metric->ci);
  EXPECT_DOUBLE_EQ(back.tests[4].metric->ci->second, 74.6);
  EXPECT_FALSE(back.leaderboard[1].ci);
  ASSERT_TRUE(back.device);
  EXPECT_EQ(back.device->name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(back.staff.seed_digests.size(), 2u);
}

// grade.json says while grading goes on that it is not complete (a batch grades such a student again);
// a report written before the field existed was written at the end, complete.
TEST(GradeReport, CompleteRoundTripsAndOldReportsWereComplete) {
  grade_report r = sample_report();
  r.complete = false;
  EXPECT_FALSE(parse_grade_report(grade_report_json(r)).complete);
  std::string old = grade_report_json(sample_report());
  const std::string field = "  \"complete\": true,\n";
  ASSERT_NE(old.find(field), std::string::npos);
  old.erase(old.find(field), field.size());
  EXPECT_TRUE(parse_grade_report(old).complete);
}

// Which card graded it (issue 32): the grader's number for it, what CUDA_VISIBLE_DEVICES showed, its PCI
// bus id and the machine; a report written before it was recorded has none.
TEST(GradeReport, TheGpuRoundTripsAndOldReportsHaveNone) {
  const grade_report back = parse_grade_report(grade_report_json(sample_report()));
  ASSERT_TRUE(back.gpu);
  EXPECT_EQ(back.gpu->index, 1);
  EXPECT_EQ(back.gpu->visible_devices, "1");
  EXPECT_EQ(back.gpu->pci_bus_id, "0000:19:00.0");
  EXPECT_EQ(back.gpu->host, "gpu-node-07");
  json old = json::parse(grade_report_json(sample_report()));
  old.erase("gpu");
  EXPECT_FALSE(parse_grade_report(old.dump()).gpu);
}

TEST(GradeReport, NoDeviceIsNull) {
  const grade_report r = build_failure_report();
  const json j = json::parse(grade_report_json(r));
  EXPECT_TRUE(j.at("device").is_null());
  EXPECT_TRUE(j.at("ceilings").is_null());
  EXPECT_TRUE(j.at("gpu").is_null());
  EXPECT_FALSE(parse_grade_report(grade_report_json(r)).device);
}

TEST(GradeReport, GoldenFile) {
  testing::expect_golden_file(golden_dir / "grade.json", grade_report_json(sample_report()));
}

TEST(GradeReport, RefusesUnknownWordsAndNewerSchemas) {
  json j = json::parse(grade_report_json(sample_report()));
  json bad_status = j;
  bad_status["tests"][0]["status"] = "pass";
  EXPECT_THROW(parse_grade_report(bad_status.dump()), grade_report_error);
  json bad_kind = j;
  bad_kind["tests"][0]["kind"] = "speed";
  EXPECT_THROW(parse_grade_report(bad_kind.dump()), grade_report_error);
  json newer = j;
  newer["schema_version"] = grade_schema_version + 1;
  EXPECT_THROW(parse_grade_report(newer.dump()), grade_report_error);
  json missing = j;
  missing.erase("score");
  EXPECT_THROW(parse_grade_report(missing.dump()), grade_report_error);
  EXPECT_THROW(parse_grade_report("{"), grade_report_error);
}

TEST(GradeReport, StudentCopyDropsStaffAndHiddenDetails) {
  const grade_report s = student_copy(sample_report());
  EXPECT_TRUE(s.staff.seed_digests.empty());
  EXPECT_TRUE(s.staff.input_digests.empty());
  EXPECT_TRUE(s.tests[2].parameters.empty());
  EXPECT_TRUE(s.tests[2].feedback_md.empty());
  EXPECT_EQ(s.tests[2].message, "8 of 10 points passed");  // the status line stays
  EXPECT_EQ(s.tests[1].parameters, "n = [7, 4099]");       // visible tests keep theirs
  EXPECT_FALSE(s.tests[1].feedback_md.empty());
}

TEST(LmsOutputs, NoRenderShowsStaffTextOrHiddenParameters) {
  for (const grade_report& r : {sample_report(), build_failure_report()}) {
    expect_no_staff_text(gradescope_results(r), "gradescope");
    expect_no_staff_text(prairielearn_results(r), "prairielearn");
    expect_no_staff_text(junit_xml(r), "junit");
    expect_no_staff_text(feedback_markdown(r), "feedback.md");
    expect_no_staff_text(feedback_html(r), "feedback.html");
  }
}

TEST(LmsOutputs, GoldenFiles) {
  const grade_report r = sample_report();
  testing::expect_golden_file(golden_dir / "gradescope_results.json", gradescope_results(r));
  testing::expect_golden_file(golden_dir / "prairielearn_results.json", prairielearn_results(r));
  testing::expect_golden_file(golden_dir / "junit.xml", junit_xml(r));
  testing::expect_golden_file(golden_dir / "feedback.md", feedback_markdown(r));
  const grade_report failed = build_failure_report();
  testing::expect_golden_file(golden_dir / "prairielearn_build_failed.json", prairielearn_results(failed));
  testing::expect_golden_file(golden_dir / "feedback_build_failed.md", feedback_markdown(failed));
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(GradeReport, ThresholdsAndTheStudentsLinesRoundTripAndHiddenThresholdsStayStaffOnly) {
  grade_report r = sample_report();
  r.tests[4].metric->points_between = std::make_pair(30.0, 70.0);
  r.submission.build.lines = {{42, "  x = y;"}};
  grade_test hidden_perf = r.tests[4];
  hidden_perf.id = hidden_perf.name = "hidden-perf";
  hidden_perf.visibility = test_visibility::hidden;
  r.tests.push_back(hidden_perf);
  const grade_report back = parse_grade_report(grade_report_json(r));
  EXPECT_EQ(grade_report_json(back), grade_report_json(r));
  ASSERT_TRUE(back.tests[4].metric->points_between);
  EXPECT_DOUBLE_EQ(back.tests[4].metric->points_between->second, 70);
  ASSERT_EQ(back.submission.build.lines.size(), 1u);
  EXPECT_EQ(back.submission.build.lines[0].text, "  x = y;");
  const grade_report s = student_copy(r);
  EXPECT_TRUE(s.tests[4].metric->points_between);       // a visible test's thresholds are the student's to see
  EXPECT_FALSE(s.tests.back().metric->points_between);  // a hidden one's are not
  // Reports written before either field read as before.
  EXPECT_EQ(grade_report_json(sample_report()).find("points_between"), std::string::npos);
  EXPECT_EQ(grade_report_json(sample_report()).find("\"lines\""), std::string::npos);
}

TEST(LmsOutputs, FeedbackHtmlShowsEachTestTheThresholdsAndTheStudentsLinesAsText) {
  grade_report r = sample_report();
  r.tests[4].metric->points_between = std::make_pair(30.0, 70.0);
  r.submission.files = {"<img src=x onerror=alert(1)>.cu"};
  const std::string html = feedback_html(r);
  expect_no_staff_text(html, "feedback.html");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(html.find("<img src=x"), std::string::npos);
  EXPECT_NE(html.find("<code>&lt;img src=x onerror=alert(1)&gt;.cu</code>"), std::string::npos);
  // The tests' table, a row each, and a section each saying what it checked and why it came out so.
  EXPECT_NE(html.find("<table id=\"tests\" class=\"sortable\">"), std::string::npos);
  EXPECT_EQ(count(html, "<tbody"), r.tests.size());
  EXPECT_EQ(count(html, "<section class=\"test\""), r.tests.size());
  EXPECT_NE(html.find("What it checked:</span> a correctness test, at n = [7, 4099]"), std::string::npos);
  EXPECT_NE(html.find("a hidden test, graded by the course: its inputs are not shown"), std::string::npos);
  EXPECT_NE(html.find("expected 17 &lt;see&gt; &amp; &quot;quotes&quot;"), std::string::npos);  // its feedback, as text
  // The performance test's median against its thresholds, drawn.
  EXPECT_NE(html.find("<g id=\"perf5-thresholds\">"), std::string::npos);
  EXPECT_NE(html.find(">0 points at 30<"), std::string::npos);
  EXPECT_NE(html.find(">all points at 70<"), std::string::npos);
  EXPECT_NE(html.find("your median: 73.4"), std::string::npos);
  EXPECT_NE(html.find("<strong>roofline</strong> <span class=\"bad\">(blocking)</span>"), std::string::npos);
  // A build that fails: its messages, each with the student's line it names.
  grade_report failed = build_failure_report();
  failed.submission.build.lines = {{42, "  total += <x>;"}};
  const std::string build = feedback_html(failed);
  expect_no_staff_text(build, "feedback.html of a failed build");
  EXPECT_NE(build.find("reduce.cu:42: error: expected &#39;;&#39; after expression\n<span class=\"muted\">    42 | "
                       "</span><mark>  total += &lt;x&gt;;</mark>\nreduce.cu:50: error"),
            std::string::npos)
      << build;
  EXPECT_NE(build.find("The submission does not build"), std::string::npos);
}

// The fields and words of gradescope/autograder_samples docs/specs.md and docs/leaderboards.md.
TEST(LmsOutputs, GradescopeHasOnlyDocumentedFieldsAndWords) {
  const std::set<std::string> top = {
      "score",      "execution_time",    "output",     "output_format", "test_output_format", "test_name_format",
      "visibility", "stdout_visibility", "extra_data", "tests",         "leaderboard"};
  const std::set<std::string> test_fields = {"score",  "max_score",     "status", "name",       "name_format", "number",
                                             "output", "output_format", "tags",   "visibility", "extra_data"};
  const std::set<std::string> visibility = {"hidden", "after_due_date", "after_published", "visible"};
  const std::set<std::string> formats = {"text", "html", "simple_format", "md", "ansi"};
  for (const std::string hidden : {"after_due_date", "hidden", "after_published"}) {
    const json j = json::parse(gradescope_results(sample_report(), {hidden}));
    for (const auto& [k, v] : j.items()) EXPECT_TRUE(top.count(k)) << "undocumented field " << k;
    EXPECT_TRUE(j.at("score").is_number());
    EXPECT_DOUBLE_EQ(j.at("score").get<double>(), 40);
    EXPECT_TRUE(j.at("execution_time").is_number_integer());
    EXPECT_TRUE(formats.count(j.at("output_format").get<std::string>()));
    EXPECT_TRUE(formats.count(j.at("test_output_format").get<std::string>()));
    EXPECT_TRUE(visibility.count(j.at("stdout_visibility").get<std::string>()));
    ASSERT_TRUE(j.at("tests").is_array());
    double sum = 0;
    int hidden_seen = 0;
    for (const json& t : j.at("tests")) {
      for (const auto& [k, v] : t.items()) EXPECT_TRUE(test_fields.count(k)) << "undocumented test field " << k;
      EXPECT_TRUE(t.at("name").is_string());
      const std::string status = t.at("status").get<std::string>();
      EXPECT_TRUE(status == "passed" || status == "failed") << status;
      const std::string v = t.at("visibility").get<std::string>();
      EXPECT_TRUE(visibility.count(v)) << v;
      hidden_seen += v == hidden;
      if (t.contains("score")) {
        EXPECT_TRUE(t.at("score").is_number());
        EXPECT_TRUE(t.at("max_score").is_number());
        EXPECT_LE(t.at("score").get<double>(), t.at("max_score").get<double>());
        sum += t.at("score").get<double>();
      }
      if (t.contains("number")) {
        EXPECT_TRUE(t.at("number").is_string());
      }
      if (t.contains("tags")) {
        for (const json& tag : t.at("tags")) EXPECT_TRUE(tag.is_string());
      }
    }
    EXPECT_EQ(hidden_seen, 2);
    EXPECT_DOUBLE_EQ(sum, 40);  // the tests add up to the score Gradescope shows
    for (const json& l : j.at("leaderboard")) {
      EXPECT_TRUE(l.at("name").is_string());
      EXPECT_TRUE(l.at("value").is_number() || l.at("value").is_string());
      if (l.contains("order")) {
        EXPECT_TRUE(l.at("order") == "asc" || l.at("order") == "desc");
      }
    }
  }
  EXPECT_THROW(gradescope_results(sample_report(), {"after_deadline"}), std::invalid_argument);
}

TEST(LmsOutputs, GradescopeBuildFailureIsAVisibleFailedTest) {
  const json j = json::parse(gradescope_results(build_failure_report()));
  const json& build = j.at("tests").at(0);
  EXPECT_EQ(build.at("name"), "Build");
  EXPECT_EQ(build.at("status"), "failed");
  EXPECT_EQ(build.at("visibility"), "visible");
  EXPECT_NE(build.at("output").get<std::string>().find("reduce.cu:42: error"), std::string::npos);
  EXPECT_DOUBLE_EQ(j.at("score").get<double>(), 0);
}

// A build log that holds a fence of its own (#pragma message lines with real newlines) stays inside the
// "Build" test's code block: the fence is longer than any backtick run in the log, so no fake "Score"
// heading or link is rendered by Gradescope.
TEST(LmsOutputs, redteam26_f28_gradescope_build_log_cannot_close_its_fence) {
  grade_report r = build_failure_report();
  r.submission.build.diagnostics.push_back({"reduce.cu", 7, diagnostic_severity::error,
                                            "```\n\n# Score: 100/100 - every test passed\n\n[Regrade](http://x)\n"
                                            "``````\n"});
  const std::string log = r.submission.build.log();
  const json j = json::parse(gradescope_results(r));
  const std::string out = j.at("tests").at(0).at("output");
  std::size_t longest = 0, run = 0;
  for (const char c : log) longest = std::max(longest, run = c == '`' ? run + 1 : 0);
  ASSERT_EQ(out.rfind(r.submission.build.command + "\n\n", 0), 0u) << out;
  const std::size_t open = r.submission.build.command.size() + 2;
  const std::size_t fence = out.find_first_not_of('`', open) - open;
  EXPECT_GT(fence, longest) << out;
  EXPECT_EQ(out.substr(open + fence, 5 + log.size()), "text\n" + log) << out;
  const std::string close = std::string(fence, '`');
  EXPECT_EQ(out.find(close, open + fence), out.size() - fence - 1) << out;  // the closing fence, then "\n"
}

TEST(LmsOutputs, PrairieLearnScoreIsAFractionAndHiddenTestsAreOneEntry) {
  const json j = json::parse(prairielearn_results(sample_report()));
  EXPECT_EQ(j.at("gradable"), true);
  EXPECT_DOUBLE_EQ(j.at("score").get<double>(), 0.4);
  int hidden_entries = 0;
  for (const json& t : j.at("tests")) {
    for (const char* k : {"name", "description", "points", "max_points", "message", "output"})
      EXPECT_TRUE(t.contains(k)) << k;
    EXPECT_NE(t.at("name"), "hidden-sizes");
    if (t.at("name") == "Hidden tests") {
      ++hidden_entries;
      EXPECT_DOUBLE_EQ(t.at("points").get<double>(), 24);
      EXPECT_DOUBLE_EQ(t.at("max_points").get<double>(), 35);
      EXPECT_EQ(t.at("message"), "0 of 2 passed");
    }
  }
  EXPECT_EQ(hidden_entries, 1);
  // Above the maximum, or a negative score, still gives a score in [0, 1].
  grade_report over = sample_report();
  over.score = 130;
  EXPECT_DOUBLE_EQ(json::parse(prairielearn_results(over)).at("score").get<double>(), 1.0);
  over.score = -5;
  EXPECT_DOUBLE_EQ(json::parse(prairielearn_results(over)).at("score").get<double>(), 0.0);
}

TEST(LmsOutputs, PrairieLearnBuildFailureIsNotGradable) {
  const json j = json::parse(prairielearn_results(build_failure_report()));
  EXPECT_EQ(j.at("gradable"), false);
  EXPECT_FALSE(j.contains("score"));
  ASSERT_EQ(j.at("format_errors").size(), 2u);
  EXPECT_EQ(j.at("format_errors")[0], "reduce.cu:42: error: expected ';' after expression");
}

TEST(LmsOutputs, PrairieLearnStaysUnderOneMegabyte) {
  grade_report r = sample_report();
  for (int i = 0; i < 40; ++i) {
    grade_test t =
        make_test("flood-" + std::to_string(i), "sanitizer", 0, 0, grade_status::failed, std::string(20'000, 'm'));
    t.feedback_md = std::string(200'000, 'x');
    r.tests.push_back(t);
  }
  const std::string text = prairielearn_results(r);
  EXPECT_LT(text.size(), prairielearn_max_bytes);
  const json j = json::parse(text);
  EXPECT_DOUBLE_EQ(j.at("score").get<double>(), 0.4);  // the score survives the cuts
  r.submission.build = {false, "nvcc", {{"reduce.cu", 1, diagnostic_severity::error, std::string(3'000'000, 'e')}}, 1};
  EXPECT_LT(prairielearn_results(r).size(), prairielearn_max_bytes);
}

// JUnit XML read back with Boost.PropertyTree (RapidXML underneath: unbalanced tags and bad entities
// are errors), then counted.
TEST(LmsOutputs, JunitXmlReadsBackWithItsCounts) {
  grade_report r = sample_report();
  r.tests[1].message = "control \x01\x1b[31m and bad UTF-8 \xff and <tags> & \"quotes\"";
  const std::string xml = junit_xml(r);
  std::istringstream in(xml);
  boost::property_tree::ptree tree;
  ASSERT_NO_THROW(boost::property_tree::read_xml(in, tree)) << xml;
  const auto& suites = tree.get_child("testsuites");
  EXPECT_EQ(suites.get<std::string>("<xmlattr>.name"), "hw3-reduce");
  EXPECT_EQ(suites.get<int>("<xmlattr>.tests"), 8);     // the build and 7 tests
  EXPECT_EQ(suites.get<int>("<xmlattr>.failures"), 3);  // odd-sizes, hidden-sizes, roof (held)
  EXPECT_EQ(suites.get<int>("<xmlattr>.errors"), 2);    // hidden-huge (timed out), memcheck
  EXPECT_EQ(suites.get<int>("<xmlattr>.skipped"), 1);   // racecheck
  std::vector<std::string> names;
  int cases = 0;
  for (const auto& [tag, suite] : suites) {
    if (tag != "testsuite") continue;
    names.push_back(suite.get<std::string>("<xmlattr>.name"));
    for (const auto& [ctag, c] : suite) {
      if (ctag != "testcase") continue;
      ++cases;
      if (c.get<std::string>("<xmlattr>.name") == "odd-sizes") {
        bool points = false;
        for (const auto& [ptag, p] : c.get_child("properties"))
          if (p.get<std::string>("<xmlattr>.name") == "points") points = p.get<std::string>("<xmlattr>.value") == "6";
        EXPECT_TRUE(points);
        const std::string message = c.get<std::string>("failure.<xmlattr>.message");
        EXPECT_NE(message.find("<tags> & \"quotes\""), std::string::npos) << message;
        EXPECT_EQ(message.find('\x01'), std::string::npos);
        EXPECT_EQ(message.find('\x1b'), std::string::npos);
      }
    }
  }
  EXPECT_EQ(cases, 8);
  EXPECT_EQ(names, (std::vector<std::string>{"hw3-reduce.build", "hw3-reduce.correctness", "hw3-reduce.performance",
                                             "hw3-reduce.sanitizer"}));
}

// xmllint (Debian libxml2-utils, in cmake/install-deps.sh) checks what RapidXML lets through: the
// characters XML 1.0 forbids, UTF-8, attribute syntax.
TEST(LmsOutputs, JunitXmlIsWellFormedForXmllint) {
  const char* xmllint = CUDALAB_XMLLINT;
  if (std::string(xmllint).empty()) GTEST_SKIP() << "xmllint not found when cudalab was configured";
  grade_report r = sample_report();
  r.tests[1].message = "control \x01\x1b[31m and bad UTF-8 \xff\xfe and <tags> & \"quotes\" ]]>";
  r.submission.build.diagnostics = {{"student.cu", 3, diagnostic_severity::error,
                                     "a\x02"
                                     "b"}};
  const fs::path file = fs::temp_directory_path() / ("cudalab_junit_" + std::to_string(::getpid()) + ".xml");
  std::ofstream(file) << junit_xml(r);
  const int code = std::system((std::string(xmllint) + " --noout " + file.string()).c_str());
  fs::remove(file);
  EXPECT_EQ(code, 0);
}

TEST(LmsOutputs, FeedbackHoldsTheScoreTable) {
  const std::string md = feedback_markdown(sample_report());
  EXPECT_NE(md.find("**Score: 40 / 100**"), std::string::npos);
  EXPECT_NE(md.find("| test | kind | points | result |"), std::string::npos);
  EXPECT_NE(md.find("| hidden-sizes (hidden) | correctness | 24 / 30 | FAILED: 8 of 10 points passed |"),
            std::string::npos);
  EXPECT_NE(md.find("| roof | performance | 0 / 40 | HELD for review: "), std::string::npos);
  EXPECT_NE(md.find("95% CI 72.1-74.6, 3 rounds"), std::string::npos);
}

// Outcomes as data (review 2026-11-26-aesthetics F1): a build is denied when a diagnostic's severity says so,
// whatever the words of any message; the diagnostics, typed, come back from grade.json.
TEST(GradeReport, aesthetics_f1_a_denied_build_is_known_by_severity_and_round_trips) {
  grade_report r = sample_report();
  r.submission.build.ok = false;
  r.submission.build.diagnostics = {{"reduce.cu", 3, diagnostic_severity::error, "x: denied: y"}};
  EXPECT_FALSE(r.submission.build.denied());
  r.submission.build.diagnostics.push_back({"reduce.cu", 2, diagnostic_severity::denied, "#include <cub/cub.cuh>"});
  EXPECT_TRUE(r.submission.build.denied());
  const grade_report back = parse_grade_report(grade_report_json(r));
  ASSERT_EQ(back.submission.build.diagnostics.size(), 2u);
  EXPECT_EQ(back.submission.build.diagnostics[1].severity, diagnostic_severity::denied);
  EXPECT_EQ(back.submission.build.diagnostics[1].line, 2);
  EXPECT_TRUE(back.submission.build.denied());
  EXPECT_EQ(back.submission.build.log(),
            "reduce.cu:3: error: x: denied: y\nreduce.cu:2: denied: #include <cub/cub.cuh>\n");
}

// Every render a student reads, as text.
std::vector<std::pair<std::string, std::string>> renders_of(const grade_report& r) {
  return {{"gradescope", gradescope_results(r)},
          {"prairielearn", prairielearn_results(r)},
          {"junit", junit_xml(r)},
          {"feedback.md", feedback_markdown(r)},
          {"feedback.html", feedback_html(r)}};
}

// A hidden test's inputs reach the student through no flag (review 2026-11-26-redteam F10): what the
// integrity checks found at a hidden size - the point's n, a copy's bytes, a speed - stays in the staff's
// grade.json; the student reads what the check found in its words alone. A visible test's flags say it all.
TEST(LmsOutputs, redteam26_f10_no_render_shows_a_hidden_tests_inputs_through_its_flags) {
  grade_report r = sample_report();
  r.flags = {
      {"input_integrity", "blocking", "n=1234567: the registered input 'in' changed", "hidden-sizes"},
      {"census.host_copies", "blocking",
       "hidden-sizes: 1 copy between host and device while the submission ran (D2H of 4938268 bytes on "
       "stream 7)",
       "hidden-sizes"},
      {"census.kernels", "blocking", "hidden-huge: 31 kernels ran, more than the 30 the assignment allows",
       "hidden-huge"},
      {"roofline", "blocking", "hidden-huge: 9123 GB/s is above 1.05 x the measured L2 copy ceiling", "hidden-huge"},
      {"census.stream", "blocking", "odd-sizes: 1 kernel (k on stream 9) ran on a stream 4099", "odd-sizes"}};
  const grade_report s = student_copy(r);
  EXPECT_EQ(s.flags[0].message, "a hidden test changed its input: the points where it did fail");
  EXPECT_EQ(s.flags[1].message, hidden_flag_message("census.host_copies"));
  EXPECT_EQ(s.flags[4].message, r.flags[4].message);                                         // a visible test's
  EXPECT_EQ(r.flags[0].message, parse_grade_report(grade_report_json(r)).flags[0].message);  // the staff's, whole
  for (const auto& [what, text] : renders_of(r)) {
    for (const char* hidden : {"1234567", "4938268", "9123", "31 kernels", "L2 copy"})
      EXPECT_EQ(text.find(hidden), std::string::npos) << what << " shows " << hidden;
    if (what != "junit") {  // JUnit XML has no place for flags
      EXPECT_NE(text.find("a hidden test changed its input"), std::string::npos) << what;
    }
  }
  EXPECT_NE(feedback_markdown(r).find("ran on a stream 4099"), std::string::npos);
}

// Escape sequences a student wrote (a #pragma message, a child's output in a failure line, a kit's title)
// are shown escaped in every render, never as the bytes a terminal or a page would obey (F29).
TEST(LmsOutputs, redteam26_f29_no_render_holds_a_raw_escape_sequence) {
  grade_report r = build_failure_report();
  r.assignment.title = "Reduce \x1b]0;pwned\x07";
  r.submission.build.diagnostics = {{"reduce.cu", 1, diagnostic_severity::remark,
                                     "#pragma message: \x1b[31mRED\x1b[8mHIDDEN\x9b"
                                     "2J"},
                                    {"reduce.cu", 9, diagnostic_severity::error, "expected a ';'"}};
  r.submission.build.lines = {{1, "#pragma message(\"\x1b[31m\")"}};
  r.tests[1].feedback_md = "- `n=7: the child printed \x1b[2Jcleared\x7f`\n";
  r.tests[1].message = "the child printed \x1b[8m";
  r.flags = {{"census", "info",
              "the kernel census could not be taken: \xc2\x9b"
              "2J",
              ""}};
  for (const auto& [what, text] : renders_of(r)) {
    EXPECT_EQ(text.find('\x1b'), std::string::npos) << what << " holds a raw ESC";
    EXPECT_EQ(text.find("\xc2\x9b"), std::string::npos) << what << " holds a raw C1 CSI";
    EXPECT_EQ(text.find('\x7f'), std::string::npos) << what << " holds a raw DEL";
    EXPECT_EQ(text.find('\x07'), std::string::npos) << what << " holds a raw BEL";
  }
  const std::string md = feedback_markdown(r);
  EXPECT_NE(md.find("\\x1b[31mRED"), std::string::npos) << md;
  EXPECT_NE(md.find("\\x1b[2Jcleared\\x7f"), std::string::npos) << md;
  EXPECT_NE(md.find("\\xc2\\x9b2J"), std::string::npos) << md;
  EXPECT_NE(md.find("Reduce \\x1b]0;pwned\\x07"), std::string::npos) << md;
  EXPECT_NE(feedback_html(r).find("\\x1b[31mRED"), std::string::npos);
}

// grade.json names its student by a keyed hash (F9): schema 3's id_hmac round-trips; schema 2's plain
// SHA-256 of the id, which a class list turns back into the name, is not read.
TEST(GradeReport, redteam26_f09_the_student_is_named_by_a_keyed_hash) {
  const grade_report back = parse_grade_report(grade_report_json(sample_report()));
  EXPECT_EQ(back.student.id_hmac, std::string(64, 'b'));
  json j = json::parse(grade_report_json(sample_report()));
  EXPECT_FALSE(j.at("student").contains("id_sha256"));
  json old = j;
  old["schema_version"] = 2;
  old["student"] = {{"id_sha256", std::string(64, 'e')}, {"pseudonym", "swift-otter"}};
  const grade_report two = parse_grade_report(old.dump());
  EXPECT_EQ(two.student.id_hmac, "");
  EXPECT_EQ(two.student.pseudonym, "swift-otter");
}

}  // namespace
}  // namespace cudalab::host
