// The renders of a grade report (grade_report.hpp) for where students and courses read it: Gradescope's
// results.json, PrairieLearn's external grading results.json, JUnit XML (CI systems, GitHub Classroom),
// feedback.md and feedback.html. Each renders student_copy(report): none shows the staff block, or a
// hidden test's parameters or feedback; a hidden test shows its name, kind, points, status and message.
#pragma once

#include <cstddef>
#include <string>

#include "assignment/grade_report.hpp"

namespace cudalab::host {

/// Gradescope's words for when a student sees a test (docs/specs.md, "Controlling Test Case Visibility").
struct gradescope_options {
  /// What a hidden test becomes: after_due_date by default, since tests marked `hidden` also hide the
  /// submission's total score from students (docs/specs.md). REQUIRES: hidden, after_due_date,
  /// after_published or visible.
  std::string hidden_visibility = "after_due_date";
};

/// Gradescope's results.json (gradescope/autograder_samples docs/specs.md, "Output format"): score,
/// execution_time, output (Markdown), output_format and test_output_format "md", stdout_visibility
/// "hidden", tests[] {name, number, score, max_score, status passed|failed, output, tags, visibility,
/// extra_data}, leaderboard[] {name, value, order} (docs/leaderboards.md), extra_data. Throws
/// std::invalid_argument for a hidden_visibility Gradescope does not know.
std::string gradescope_results(const grade_report& report, const gradescope_options& options = {});

/// PrairieLearn's results.json has to stay under this size (docs/externalGrading.md, "Grading results").
inline constexpr std::size_t prairielearn_max_bytes = 1000 * 1000;

/// PrairieLearn's external grading results.json (PrairieLearn docs/externalGrading.md): gradable, score
/// in [0, 1], message, output, tests[] {name, description, points, max_points, message, output}; the
/// hidden tests as one entry without parameters; a submission that does not build: gradable false with
/// format_errors (the compiler's lines), which costs the student no attempt. Outputs are cut so the
/// file stays under prairielearn_max_bytes.
std::string prairielearn_results(const grade_report& report);

/// JUnit XML (the common format of testmoapp/junitxml): <testsuites name=ID> with one <testsuite> per
/// test kind, a <testcase classname="ID.KIND" name=TEST> per test with <failure>, <error> or
/// <skipped>, and <properties> carrying points, max_points and status. XML 1.0: text escaped, and
/// characters XML cannot hold (control characters, bytes that are not UTF-8) become U+FFFD.
std::string junit_xml(const grade_report& report);

/// feedback.md for the student: the score, a table of the tests (points, status, message), each
/// visible test's feedback, the integrity flags, the build's log when it failed, and the device.
std::string feedback_markdown(const grade_report& report);

/// feedback.html for the student (html_page.hpp): the score, the submission, its build and the device;
/// a table of the tests, then each test with what it checked (a visible test's parameters; a hidden one
/// says only that it is hidden), its result and why, a performance test's median and interval drawn
/// against its thresholds (points_between), its feedback; the integrity flags; the build's messages,
/// each with the student's line it names. Every text escaped.
std::string feedback_html(const grade_report& report);

namespace detail {

/// Points as the renders print them: at most two decimals, no trailing zeros ("12.5", "30").
std::string points_text(double points);

/// A test's result in a line for students: its status in words, its message, and a performance
/// test's median with the CI and rounds ("FAILED: 3 of 5 points verified").
std::string result_line(const grade_test& t);

/// The device in a line ("NVIDIA H100 80GB HBM3 (D2D copy 3004 GB/s)"), "" when nothing ran on one.
std::string device_line(const grade_report& r);

}  // namespace detail

}  // namespace cudalab::host
