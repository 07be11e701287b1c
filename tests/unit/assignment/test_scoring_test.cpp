// What `grade` computes besides running things: the rounds' t-interval and when it is settled, a
// performance test scored over rounds (the gate, the median, the interval, the roofline hold, a
// result wrong after timing), the baseline drift, pseudonyms, and a class's gradebook and leaderboard
// (who is ranked, bands of overlapping intervals, rows under review).
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "assignment/class_results.hpp"
#include "assignment/confidence.hpp"
#include "assignment/pseudonyms.hpp"
#include "assignment/test_scoring.hpp"

namespace cudalab::host {
namespace {

TEST(Confidence, TIntervalOfThreeRounds) {
  // mean 2, standard deviation 1, t(0.975, 2) = 4.302653: half-width 4.302653 / sqrt(3) = 2.48414.
  const auto ci = t_interval({1, 2, 3});
  ASSERT_TRUE(ci);
  EXPECT_NEAR(ci->first, 2 - 2.48414, 1e-4);
  EXPECT_NEAR(ci->second, 2 + 2.48414, 1e-4);
  EXPECT_FALSE(t_interval({5}));
  const auto same = t_interval({7, 7, 7});
  ASSERT_TRUE(same);
  EXPECT_EQ(same->first, 7);
  EXPECT_EQ(same->second, 7);
}

TEST(Confidence, StraddlesOnlyAThresholdInside) {
  EXPECT_TRUE(straddles({25, 35}, 30, 70));
  EXPECT_TRUE(straddles({65, 75}, 30, 70));
  EXPECT_FALSE(straddles({40, 60}, 30, 70));
  EXPECT_FALSE(straddles({71, 90}, 30, 70));
}

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

TEST_F(perf_fixture, ScoringAgainForgetsTheLastScore) {
  score_performance(outcome, {{timed(9000, 85000)}}, context, passed, file);
  ASSERT_EQ(outcome.flags.size(), 1u);
  score_performance(outcome, {{timed(60)}}, context, passed, file);
  EXPECT_TRUE(outcome.flags.empty());
  EXPECT_EQ(outcome.status, grade_status::passed);
}

TEST(BaselineDrift, FastestOverSlowest) {
  test_outcome o;
  EXPECT_EQ(baseline_drift(o), 0);
  o.round_baseline_gbps = {3000, 3060, 3030};
  EXPECT_NEAR(baseline_drift(o), 0.02, 1e-12);
}

TEST(Pseudonyms, StableAndDifferentPerStudentAndAssignment) {
  const std::string secret(32, 'k');
  const std::string p = pseudonym(secret, "hw3", "alice");
  EXPECT_EQ(p, pseudonym(secret, "hw3", "alice"));
  EXPECT_NE(p, pseudonym(secret, "hw4", "alice"));
  EXPECT_NE(p, pseudonym(std::string(32, 'x'), "hw3", "alice"));
  std::set<std::string> names;
  for (int i = 0; i < 200; ++i) names.insert(pseudonym(secret, "hw3", "student" + std::to_string(i)));
  EXPECT_EQ(names.size(), 200u);
  for (const std::string& n : names) {
    EXPECT_EQ(std::count(n.begin(), n.end(), '-'), 2) << n;
    EXPECT_EQ(n.find("student"), std::string::npos) << n;
  }
}

grade_report graded(const std::string& pseudo, double value, std::pair<double, double> ci, bool correct = true,
                    grade_status perf = grade_status::passed) {
  grade_report r;
  r.student.pseudonym = pseudo;
  r.score = correct ? 60 : 0;
  r.max_score = 100;
  r.submission.sha256 = "abc";
  r.graded_at = "2026-11-24T10:00:00Z";
  grade_test sizes;
  sizes.id = sizes.name = "sizes";
  sizes.kind = "correctness";
  sizes.points = correct ? 20 : 0;
  sizes.status = correct ? grade_status::passed : grade_status::failed;
  grade_test roof;
  roof.id = roof.name = "roof, fast";
  roof.kind = "performance";
  roof.points = 40;
  roof.status = perf;
  r.tests = {sizes, roof};
  if (perf == grade_status::held) r.flags.push_back({"roofline", "blocking", "too fast"});
  r.leaderboard.push_back({"% of baseline", "roof, fast", value, "desc", ci});
  return r;
}

TEST(ClassResults, GradebookHasAColumnPerTestAndQuotesText) {
  const std::vector<class_entry> entries = {{"alice", graded("brisk-otter-01", 80, {78, 82})},
                                            {"=bob", graded("calm-yak-02", 50, {49, 51}, false)}};
  const std::string csv = gradebook_csv(entries);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "student_id,pseudonym,score,max_score,sizes,\"roof, fast\",flags,submission_sha256,graded_at");
  EXPECT_NE(csv.find("\nalice,brisk-otter-01,60,100,20,40,,abc,2026-11-24T10:00:00Z\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n'=bob,calm-yak-02,0,100,0,40,,abc,"), std::string::npos) << csv;
}

TEST(ClassResults, LeaderboardRanksCorrectOnesInBandsAndListsHeldOnes) {
  const std::vector<class_entry> entries = {{"a", graded("a-a-01", 70, {69, 71})},
                                            {"b", graded("b-b-02", 90, {85, 95})},
                                            {"c", graded("c-c-03", 88, {87, 89})},
                                            {"d", graded("d-d-04", 99, {99, 99}, false)},
                                            {"e", graded("e-e-05", 500, {400, 600}, true, grade_status::held)}};
  const std::vector<leaderboard_row> rows = class_leaderboard(entries);
  ASSERT_EQ(rows.size(), 4u) << "d fails a correctness test: not on the board";
  EXPECT_EQ(rows[0].pseudonym, "b-b-02");
  EXPECT_EQ(rows[1].pseudonym, "c-c-03");
  EXPECT_EQ(rows[2].pseudonym, "a-a-01");
  EXPECT_EQ(rows[0].band, 1);
  EXPECT_EQ(rows[1].band, 1) << "88 +- 1 overlaps 90 +- 5";
  EXPECT_EQ(rows[2].band, 2);
  EXPECT_EQ(rows[0].rank, 1);
  EXPECT_EQ(rows[2].rank, 3);
  EXPECT_EQ(rows[3].pseudonym, "e-e-05");
  EXPECT_EQ(rows[3].status, "under_review");
  EXPECT_EQ(rows[3].rank, 0);
  const std::string md = leaderboard_markdown("HW", rows);
  EXPECT_NE(md.find("| 1 | 1 | b-b-02 | 90.0 % of baseline | 85.0-95.0 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| - | - | e-e-05 | under review |"), std::string::npos) << md;
  EXPECT_EQ(md.find("d-d-04"), std::string::npos);
  EXPECT_NE(leaderboard_json("hw", rows).find("\"status\": \"under_review\""), std::string::npos);
}

}  // namespace
}  // namespace cudalab::host
