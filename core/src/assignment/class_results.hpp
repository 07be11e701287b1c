// What a class's grading adds up to, from each student's grade report: gradebook.csv for the LMS, the
// class leaderboard (leaderboard.json and leaderboard.md) under pseudonyms, and the staff's page of the
// class (class.html, by pseudonym; class-staff.html, with names). Only submissions that
// pass every correctness test and raise no blocking integrity flag are ranked; held ones are listed
// as under review; entries whose confidence intervals overlap share a rank band, so noise never
// decides between them.
#pragma once

#include <string>
#include <vector>

#include "assignment/grade_report.hpp"

namespace cudalab::host {

/// One student's graded submission.
struct class_entry {
  std::string student;  ///< as the batch names them (the submission's file or folder name)
  grade_report report;
  /// Why the student has no finished report (a task killed, a crashed worker): the gradebook's row then
  /// says so and scores nothing; "" when graded.
  std::string not_graded = {};
};

/// Whether `r` is held for review: a test held, or a blocking integrity flag. The leaderboard lists it as
/// under review, unranked; the class's pages list it as held.
bool held_for_review(const grade_report& r);

/// gradebook.csv: student_id, pseudonym, score, max_score, one column of points per test (the
/// assignment's tests, in order), flags (their checks, ';'-separated), submission_sha256, graded_at,
/// gpu (the card that graded it: "GPU 1 NAME (PCI BUS ID) on HOST"), status ("graded", or "not graded:
/// WHY" for an entry with not_graded, whose points are empty). One row per entry, in the order given;
/// fields quoted as results.csv quotes them (csv_field), and a student id of digits that a spreadsheet
/// would read as another number (00123, or more than 15 digits) kept as text behind a ' ('00123).
std::string gradebook_csv(const std::vector<class_entry>& entries);

/// One row of the class leaderboard.
struct leaderboard_row {
  int rank = 0;  ///< 1 for the best; 0 when not ranked (under review)
  int band = 0;  ///< rows whose intervals overlap share a band (1, 2, ...); 0 when not ranked
  std::string pseudonym;
  std::string test;  ///< the performance test it ranks by
  std::string name;  ///< what the value is ("% of baseline")
  double value = 0;
  std::optional<std::pair<double, double>> ci;
  std::string device;
  std::string status;  ///< ok, or under_review (a held test or a blocking flag)
};

/// The leaderboard of `entries` by their first leaderboard value: ranked rows best first, then the
/// rows under review. Entries that fail a correctness test, have no value or were not graded are left out.
/// Nothing in it follows the order of `entries` (a batch grades students in the order of their ids): rows
/// of one value, and the rows under review, go by pseudonym, and no row says when it was graded.
std::vector<leaderboard_row> class_leaderboard(const std::vector<class_entry>& entries);

/// leaderboard.json: {"assignment", "rows": [{rank, band, pseudonym, test, name, value, ci, device,
/// status}]}.
std::string leaderboard_json(const std::string& assignment_id, const std::vector<leaderboard_row>& rows);

/// leaderboard.md: a table of the rows (rank, band, pseudonym, value with its interval, device).
std::string leaderboard_markdown(const std::string& title, const std::vector<leaderboard_row>& rows);

/// The class on one HTML page (html_page.hpp) for its staff: the score distribution (a histogram of
/// tenths of the points), pass rates per test, each performance test's spread (every student's median
/// and interval against the reference, 100, and the test's thresholds), the integrity flags and the
/// students held for review, each linked to the student's row in a table of every student's points per
/// test. Students go by pseudonym; only with `staff` does it name them (pseudonym and id) and link each
/// one's feedback.html (ID/feedback.html beside the page). Every text escaped.
std::string class_html(const std::string& title, const std::vector<class_entry>& entries, bool staff);

}  // namespace cudalab::host
