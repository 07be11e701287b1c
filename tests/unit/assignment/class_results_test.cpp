// A class's gradebook and leaderboard: who is ranked, bands of overlapping intervals, rows under review;
// nothing on the leaderboard that follows the order students were graded in; ids a spreadsheet would change.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "assignment/class_results.hpp"

namespace cudalab::host {
namespace {

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
            "student_id,pseudonym,score,max_score,sizes,\"roof, fast\",flags,submission_sha256,graded_at,gpu,status");
  EXPECT_NE(csv.find("\nalice,brisk-otter-01,60,100,20,40,,abc,2026-11-24T10:00:00Z,,graded\n"), std::string::npos)
      << csv;
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

// The leaderboard cannot be read back to names (review 2026-11-26-redteam F9): a batch grades students in
// the order of their ids, so with the class list and one's own row, any order of rows that follows it
// (ties kept in input order, the rows under review) or a time per row names everyone. Ties and the rows
// under review go by pseudonym, whatever the order the entries come in, and no row carries a time.
TEST(ClassResults, redteam26_f09_the_leaderboard_follows_no_grading_order) {
  std::vector<class_entry> entries;  // ada ... eve, as a batch grades them; their pseudonyms in no such order
  const char* const names[][2] = {
      {"ada", "tidy-newt-03"}, {"bob", "bold-lynx-9a"}, {"cyd", "warm-ibex-11"}, {"dee", "calm-mink-7f"}};
  for (const auto& [id, pseudo] : names) {
    entries.push_back({id, graded(pseudo, 75, {74, 76})});
    entries.back().report.graded_at = std::string("2026-11-26T10:0") + char('0' + entries.size()) + ":00Z";
  }
  entries.push_back({"eve", graded("zesty-yak-00", 500, {400, 600}, true, grade_status::held)});
  entries.push_back({"fay", graded("agile-seal-5c", 500, {400, 600}, true, grade_status::held)});
  const std::vector<leaderboard_row> rows = class_leaderboard(entries);
  std::vector<std::string> order;
  for (const leaderboard_row& row : rows) order.push_back(row.pseudonym);
  EXPECT_EQ(order, (std::vector<std::string>{"bold-lynx-9a", "calm-mink-7f", "tidy-newt-03", "warm-ibex-11",
                                             "agile-seal-5c", "zesty-yak-00"}));
  std::reverse(entries.begin(), entries.end());
  std::vector<std::string> reversed;
  for (const leaderboard_row& row : class_leaderboard(entries)) reversed.push_back(row.pseudonym);
  EXPECT_EQ(reversed, order) << "the input's order shows through";
  const std::string json = leaderboard_json("hw", rows), md = leaderboard_markdown("HW", rows);
  for (const std::string& text : {json, md}) {
    EXPECT_EQ(text.find("graded_at"), std::string::npos) << text;
    EXPECT_EQ(text.find("2026-11-26"), std::string::npos) << text;
  }
}

// An id of digits a spreadsheet would read as another number - 00123 as 123, 20 digits rounded - stays text
// in the gradebook, behind a ' as a formula is (F30); other ids are as they are.
TEST(ClassResults, redteam26_f30_ids_a_spreadsheet_would_change_stay_text) {
  const std::vector<class_entry> entries = {{"00123", graded("brisk-otter-01", 80, {78, 82})},
                                            {"12345678901234567890", graded("calm-yak-02", 50, {49, 51})},
                                            {"12345", graded("deft-seal-03", 50, {49, 51})},
                                            {"0", graded("eager-ibex-04", 50, {49, 51})},
                                            {"0a7", graded("fancy-lynx-05", 50, {49, 51})}};
  const std::string csv = gradebook_csv(entries);
  EXPECT_NE(csv.find("\n'00123,brisk-otter-01,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n'12345678901234567890,calm-yak-02,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n12345,deft-seal-03,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n0,eager-ibex-04,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n0a7,fancy-lynx-05,"), std::string::npos) << csv;
  std::vector<class_entry> missing = {{"007", grade_report{}, "no grade.json"}};
  EXPECT_NE(gradebook_csv(missing).find("\n'007,"), std::string::npos) << "a not-graded row's id too";
}

}  // namespace
}  // namespace cudalab::host
