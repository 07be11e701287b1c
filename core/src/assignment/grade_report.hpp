// The canonical report of one graded submission (grade.json, schema_version 3): the assignment, the
// student, the submission and its build, the device, each test's status, points and metric, the
// integrity flags, the score and the leaderboard values, and a staff-only block. Written and read in
// one place (nlohmann to_json/from_json pairs); every LMS output is rendered from it (lms_outputs.hpp),
// always through student_copy(), so the staff block and hidden tests' inputs never reach a student, and
// what a student, a kit or a compiler wrote reaches a page with its control characters escaped.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "assignment/assignment_file.hpp"
#include "cudalab/device_info.hpp"
#include "results/run_context.hpp"
#include "slots/compile_diagnostic.hpp"

namespace cudalab::host {

/// Raised when a field is renamed or removed or changes meaning (adding fields keeps it). 3: the student's
/// id as a keyed hash (student.id_hmac), no longer its plain SHA-256 (id_sha256).
inline constexpr int grade_schema_version = 3;

/// What became of a test: passed (all its points' worth of checks), failed, error (it could not be
/// run: a crash, no result), timed_out (stopped by the unit timeout), held (points withheld for
/// review: an integrity flag), skipped (not run: out of time, a prerequisite, or not run by `check`).
enum class grade_status { passed, failed, error, timed_out, held, skipped };

/// "passed", "failed", "error", "timed_out", "held", "skipped".
const char* grade_status_name(grade_status s);

/// A performance test's measured value: the median over its points or rounds, a confidence interval
/// [low, high] where one was computed, and how many rounds were taken.
struct grade_metric {
  std::string name;  ///< pct_of_baseline or pct_of_ceiling
  double median = 0;
  std::optional<std::pair<double, double>> ci;
  int rounds = 1;
  /// The test's thresholds: the metric's value that earns no points and the one that earns all (the
  /// assignment's zero_at and full_at); none in reports written before they were recorded.
  std::optional<std::pair<double, double>> points_between = std::nullopt;
};

/// One test of the assignment as graded.
struct grade_test {
  std::string id;    ///< unique in the report: the assignment's test name
  std::string name;  ///< shown to the student
  std::string
      kind;  ///< correctness, performance, sanitizer (the assignment's kinds), or integrity (a check of its own)
  test_visibility visibility = test_visibility::visible;
  double points = 0, max_points = 0;
  grade_status status = grade_status::skipped;
  std::optional<grade_metric> metric;
  std::string message;      ///< one line, shown for hidden tests too: never their parameters
  std::string feedback_md;  ///< Markdown for the student: failing points, findings (dropped for hidden tests)
  std::string parameters;   ///< what it runs at ("n = [1, 3, 31]"), staff only for hidden tests
};

/// An integrity finding: which check, how bad (info, warning, blocking), what, and which test's results
/// raised it (a student sees what a hidden test's flag found only in words of the check: hidden_flag_message).
struct grade_flag {
  std::string check;      ///< "roofline", "census", ...
  std::string severity;   ///< info | warning | blocking
  std::string message;    ///< what was found, for the staff: sizes, bytes, kernels and speeds included
  std::string test = {};  ///< the test whose results raised it; "" for the submission as a whole (its build)
};

/// What a student reads of a flag that a hidden test raised: what `check` looks for, in words of the check
/// alone ("a hidden test changed its input"), never a size, a parameter, a byte count or a speed of the test.
std::string hidden_flag_message(const std::string& check);

/// A value for a leaderboard: Gradescope's leaderboard entries, the class leaderboard's rows.
struct leaderboard_value {
  std::string name;  ///< what it is ("% of baseline")
  std::string test;  ///< the test it comes from ("" : the submission)
  double value = 0;
  std::string order = "desc";  ///< desc: higher ranks higher; asc: lower (times)
  std::optional<std::pair<double, double>> ci;
};

/// A line of the student's submission that the compiler named.
struct source_line {
  int line = 0;      ///< 1-based
  std::string text;  ///< the line as submitted
};

/// The submission's build: how, and what the compiler and the policy said about the student's file,
/// each message typed (a denied header is data, not words to search for).
struct grade_build {
  bool ok = false;
  std::string command;                          ///< how it was built ("NVRTC for sm_90 -lineinfo")
  std::vector<compile_diagnostic> diagnostics;  ///< in order, as the build gave them
  double seconds = 0;
  /// The submission's lines its messages name, in order (none when they name none); "= {}" keeps aggregate
  /// initialisations that stop before it free of -Wmissing-field-initializers.
  std::vector<source_line> lines = {};

  /// True when the assignment's policy refused something the submission uses (a header, a library).
  bool denied() const;
  /// The diagnostics as the build log a student reads, one "file:line: severity: message" a line.
  std::string log() const;
};

/// Which GPU graded a submission: what tells two cards of one host, or of a cluster, apart.
struct graded_gpu {
  int index = -1;               ///< the GPU of `grade --device N` (a --devices worker's); -1: the grader named none
  std::string visible_devices;  ///< CUDA_VISIBLE_DEVICES as the grading saw it ("" unset: a Slurm task's own)
  std::string pci_bus_id;       ///< "0000:19:00.0", as the CUDA runtime reads it
  std::string host;             ///< the machine's name (a cluster's node)
};

/// One graded submission.
struct grade_report {
  std::string command = "grade";  ///< what wrote it: grade, or check (the visible tests, on the student's GPU)
  /// False while grading goes on (grade.json is rewritten after every stage, so a grader killed midway
  /// leaves what it had scored); true once every test was scored. A report without it was complete.
  bool complete = true;
  std::string cudalab_version;
  std::string graded_at;           ///< ISO 8601, UTC
  double seconds = 0;              ///< the whole grading, wall clock
  bool sandboxed = false;          ///< the submission's code (its builds, tests, sanitizer runs) ran in the sandbox
  std::string secret_fingerprint;  ///< of the staff secret it was graded with (report_signature.hpp); "" for check
  std::string inputs_digest;       ///< of the assignment, its lab file and cudalab's version ("" for check)
  std::string signature;           ///< the grader's HMAC over the rest and the student's id ("" for check)
  struct {
    std::string id, title;
    double points = 0;
    std::string digest;  ///< SHA-256 of the assignment file's text
  } assignment;
  struct {
    std::string id_hmac;    ///< the student's id as a keyed hash (student_id_hmac); "": not known, as in `check`
    std::string pseudonym;  ///< the leaderboard's name for them
  } student;
  struct {
    std::string sha256;              ///< of the submitted file
    std::vector<std::string> files;  ///< their names
    grade_build build;
  } submission;
  std::optional<device_info> device;  ///< none when nothing ran on a GPU
  std::optional<graded_gpu> gpu;      ///< which card that was; none when nothing ran on a GPU
  std::optional<ceilings> measured;   ///< "ceilings" in the JSON, as results' context writes them
  std::vector<grade_test> tests;
  std::vector<grade_flag> flags;
  double score = 0, max_score = 0;
  std::vector<leaderboard_value> leaderboard;
  struct {
    std::vector<std::string> seed_digests;   ///< SHA-256 of each hidden test's seeds
    std::vector<std::string> input_digests;  ///< of the inputs they drew
  } staff;
};

/// grade.json is not a grade report of this schema: "grade.json: tests[2].status: 'pass' is not ...".
class grade_report_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void to_json(nlohmann::ordered_json& j, const grade_report& r);
void from_json(const nlohmann::ordered_json& j, grade_report& r);

/// The report as grade.json's text (indented, UTF-8: bytes that are not become U+FFFD).
std::string grade_report_json(const grade_report& r);

/// The report whose grade_report_json() is `text`. Throws grade_report_error, also for a newer schema.
grade_report parse_grade_report(const std::string& text);

/// Writes grade_report_json(r) as `path`, whole or not at all (write_file_atomically). Throws write_error.
void write_grade_report(const std::filesystem::path& path, const grade_report& r);

/// What a student may see of `r`: the staff block emptied; each hidden test's parameters, feedback_md and
/// thresholds dropped (its name, kind, points, status and message stay), and each flag a hidden test raised
/// in words of its check alone (hidden_flag_message); every text (names, messages, feedback, the build's
/// messages and lines, the title) with its control characters escaped (printable, text_lines::kept), so
/// that no page or console shows a student's escape sequence raw. Every render starts here.
grade_report student_copy(const grade_report& r);

}  // namespace cudalab::host
