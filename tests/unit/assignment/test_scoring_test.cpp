// A performance test scored over rounds: the gate, the median, the interval, the roofline hold, a result
// wrong after timing; and the baseline's drift over the rounds. What a hidden test's message says (the
// census's findings, the roofline, the thresholds) names none of its inputs.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "assignment/test_scoring.hpp"

namespace cudalab::host {
namespace {

variant_result timed(double pct, double gbps = 2000) {
  variant_result r;
  r.variant = "student:reduce_sum";
  r.point = {{"n", "268435456"}};
  r.status = result_status::ok;
  r.verification.passed = true;
  r.time.timed = true;
  r.gbps = gbps;
  r.pct_of_baseline = pct;
  r.bytes.bytes_read = 1u << 30;
  r.bytes.path = memory_path::device;
  return r;
}

struct perf_fixture : ::testing::Test {
  perf_fixture() {
    test.name = "roof";
    test.kind = test_kind::performance;
    test.points = 40;
    test.zero_at = 30;
    test.full_at = 70;
    test.requires = {"sizes"};
    file.roofline_margin = 1.05;
    context.measured.d2d_copy_gbps = 3000;
    outcome.test = &test;
  }
  assignment_test test;
  assignment_file file;
  run_context context;
  test_outcome outcome;
  std::map<std::string, bool> passed{{"sizes", true}};
};

TEST_F(perf_fixture, MedianOfRoundsWithItsInterval) {
  score_performance(outcome, {{timed(48)}, {timed(50)}, {timed(52)}}, context, passed, file);
  EXPECT_EQ(outcome.status, grade_status::passed);
  ASSERT_TRUE(outcome.metric);
  EXPECT_DOUBLE_EQ(*outcome.metric, 50);
  EXPECT_DOUBLE_EQ(outcome.score, 20);  // halfway from 30 to 70
  ASSERT_TRUE(outcome.ci);
  EXPECT_LT(outcome.ci->first, 50);
  EXPECT_GT(outcome.ci->second, 50);
  EXPECT_EQ(outcome.round_metrics.size(), 3u);
}

TEST_F(perf_fixture, NothingWithoutItsGate) {
  passed["sizes"] = false;
  score_performance(outcome, {{timed(90)}}, context, passed, file);
  EXPECT_EQ(outcome.status, grade_status::skipped);
  EXPECT_EQ(outcome.score, 0);
  EXPECT_EQ(outcome.message, "it requires 'sizes' to pass first");
}

TEST_F(perf_fixture, AboveTheRooflineIsHeldWithABlockingFlag) {
  score_performance(outcome, {{timed(90)}, {timed(9000, 85000)}}, context, passed, file);
  EXPECT_EQ(outcome.status, grade_status::held);
  EXPECT_EQ(outcome.score, 0);
  ASSERT_EQ(outcome.flags.size(), 1u);
  EXPECT_EQ(outcome.flags[0].check, "roofline");
  EXPECT_EQ(outcome.flags[0].severity, "blocking");
}

TEST_F(perf_fixture, WrongAfterTimingCostsThePoints) {
  variant_result r = timed(90);
  r.status = result_status::verify_failed;
  r.verification.passed = false;
  r.verification.note = "wrong after timing";
  score_performance(outcome, {{timed(90)}, {r}}, context, passed, file);
  EXPECT_EQ(outcome.status, grade_status::failed);
  EXPECT_EQ(outcome.score, 0);
  ASSERT_FALSE(outcome.details.empty());
  EXPECT_NE(outcome.details[0].find("after timing"), std::string::npos);
}

// Outcomes as data (review 2026-11-26-aesthetics F1): what a result's failure is decides, never the words
// of its message - a timeout worded otherwise is still a timeout, and a message that happens to say
// "timed out after" is not one.
TEST_F(perf_fixture, aesthetics_f1_a_timeout_is_known_by_its_failure_not_its_words) {
  variant_result hung = timed(90);
  hung.status = result_status::error;
  hung.failure = result_failure::timed_out;
  hung.error = "the watchdog stopped it";
  score_performance(outcome, {{hung}}, context, passed, file);
  EXPECT_EQ(outcome.status, grade_status::timed_out);
  EXPECT_EQ(outcome.failures.count(result_failure::timed_out), 1u);

  variant_result crashed = timed(90);
  crashed.status = result_status::error;
  crashed.failure = result_failure::crashed;
  crashed.error = "it printed 'timed out after 5 s' and then crashed";
  score_performance(outcome, {{crashed}}, context, passed, file);
  EXPECT_EQ(outcome.status, grade_status::failed);

  test_outcome c;
  c.test = outcome.test;
  score_correctness(c, {hung}, 3);
  EXPECT_EQ(c.status, grade_status::timed_out);
  score_correctness(c, {crashed}, 3);
  EXPECT_EQ(c.status, grade_status::failed);
}

TEST_F(perf_fixture, aesthetics_f1_wrong_after_timing_is_recorded_as_data) {
  variant_result r = timed(90);
  r.status = result_status::verify_failed;
  r.verification.passed = false;
  r.failure = result_failure::wrong_after_timing;
  r.verification.note = "the words of this note do not matter";
  score_performance(outcome, {{r}}, context, passed, file);
  EXPECT_EQ(outcome.failures.count(result_failure::wrong_after_timing), 1u);
}

TEST_F(perf_fixture, ScoringAgainForgetsTheLastScore) {
  score_performance(outcome, {{timed(9000, 85000)}}, context, passed, file);
  ASSERT_EQ(outcome.flags.size(), 1u);
  score_performance(outcome, {{timed(60)}}, context, passed, file);
  EXPECT_TRUE(outcome.flags.empty());
  EXPECT_EQ(outcome.status, grade_status::passed);
}

// A hidden test's size, and the bytes of a host copy at it: what its message must never say.
constexpr const char* hidden_n = "7654321";
constexpr std::uint64_t hidden_copy_bytes = 4ull * 7654321;

TEST_F(perf_fixture, redteam26_f10_a_hidden_tests_message_names_none_of_its_inputs) {
  // Thresholds: only the staff know where a hidden test's points start and end.
  test.visibility = test_visibility::hidden;
  test.zero_at = 31;
  test.full_at = 73;
  score_performance(outcome, {{timed(48)}, {timed(50)}}, context, passed, file);
  EXPECT_EQ(outcome.message.find("31"), std::string::npos) << outcome.message;
  EXPECT_EQ(outcome.message.find("73"), std::string::npos) << outcome.message;
  EXPECT_NE(outcome.summary.find("all at 73"), std::string::npos) << "the grader's console keeps them";
  // The roofline: which ceiling (L2 or DRAM) says how large the working set is.
  score_performance(outcome, {{timed(9000, 85000)}}, context, passed, file);
  ASSERT_EQ(outcome.status, grade_status::held);
  EXPECT_EQ(outcome.message, hidden_flag_message("roofline"));
  ASSERT_EQ(outcome.flags.size(), 1u);
  EXPECT_EQ(outcome.flags[0].test, "roof");
  EXPECT_NE(outcome.flags[0].message.find("85000"), std::string::npos) << "the staff's flag keeps the speed";
}

TEST(JudgeCensus, redteam26_f10_a_hidden_tests_census_finding_names_none_of_its_inputs) {
  assignment_test hidden;
  hidden.name = "hidden-sizes";
  hidden.kind = test_kind::correctness;
  hidden.visibility = test_visibility::hidden;
  test_outcome o;
  o.test = &hidden;
  o.status = grade_status::passed;
  variant_result r;
  r.point = {{"n", hidden_n}};
  r.bytes.path = memory_path::device;
  r.census.taken = true;
  census_kernel k;
  k.name = "reduce_kernel";
  r.census.kernels = {k, k};
  r.census.kernel_count = 2;
  census_copy copy;
  copy.kind = "D2H";
  copy.bytes = hidden_copy_bytes;
  r.census.copies = {copy};
  r.census.copy_count = 1;
  judge_census(o, {r}, census_policy{});
  ASSERT_EQ(o.status, grade_status::failed);
  ASSERT_FALSE(o.flags.empty());
  const std::string bytes = std::to_string(hidden_copy_bytes);
  EXPECT_EQ(o.flags[0].check, "census.host_copies");
  EXPECT_EQ(o.flags[0].test, "hidden-sizes");
  EXPECT_NE(o.flags[0].message.find(bytes), std::string::npos) << "the staff's flag says what was copied";
  EXPECT_EQ(o.message.find(bytes), std::string::npos) << o.message;
  EXPECT_EQ(o.message, "integrity: " + hidden_flag_message("census.host_copies"));
  // A visible test's message says what the census saw, as before.
  hidden.visibility = test_visibility::visible;
  test_outcome seen;
  seen.test = &hidden;
  judge_census(seen, {r}, census_policy{});
  EXPECT_NE(seen.message.find(bytes), std::string::npos) << seen.message;
}

// A launcher timed in the submission's own process whose samples ended paced by the host: its time holds the
// host's round trips (on the H100 most graded results once had a hold timeout, and went host-paced after it).
TEST(FlagHostPaced, ALaunchersTimingPacedByTheHostIsFlagged) {
  assignment_test perf;
  perf.name = "overlap";
  perf.kind = test_kind::performance;
  test_outcome o;
  o.test = &perf;
  variant_result held, paced, in_process;
  for (variant_result* r : {&held, &paced, &in_process}) r->time.timed = true;
  held.time.handshake_ms = paced.time.handshake_ms = 0.29;
  held.time.held = true;
  paced.time.hold_timeouts = 2;  // two in a row: host-paced from then on
  flag_host_paced(o, {held, in_process});
  EXPECT_TRUE(o.flags.empty()) << "held to the end, or timed in the harness's own process: nothing to say";
  flag_host_paced(o, {held, paced, in_process});
  ASSERT_EQ(o.flags.size(), 1u);
  EXPECT_EQ(o.flags[0].check, "host_paced");
  EXPECT_EQ(o.flags[0].severity, "warning");
  EXPECT_EQ(o.flags[0].test, "overlap");
  EXPECT_NE(o.flags[0].message.find("1 of 2 timed result(s)"), std::string::npos) << o.flags[0].message;
  EXPECT_NE(o.flags[0].message.find("(2 held sample(s)"), std::string::npos) << o.flags[0].message;
}

TEST(FlagPersistingL2, WhatWasFoundIsSaid) {
  assignment_test perf;
  perf.name = "bandwidth";
  test_outcome o;
  o.test = &perf;
  variant_result clean, left;
  flag_persisting_l2(o, {clean});
  EXPECT_TRUE(o.flags.empty());
  left.time.persisting_l2_found = 3;
  left.time.persisting_l2_note = "a persisting-L2 set-aside of 4194304 bytes";
  flag_persisting_l2(o, {clean, left});
  ASSERT_EQ(o.flags.size(), 1u);
  EXPECT_EQ(o.flags[0].check, "persisting_l2");
  EXPECT_NE(o.flags[0].message.find("4194304 bytes set for 3 timed sample(s)"), std::string::npos)
      << o.flags[0].message;
}

TEST(BaselineDrift, FastestOverSlowest) {
  test_outcome o;
  EXPECT_EQ(baseline_drift(o), 0);
  o.round_baseline_gbps = {3000, 3060, 3030};
  EXPECT_NEAR(baseline_drift(o), 0.02, 1e-12);
}

}  // namespace
}  // namespace cudalab::host
