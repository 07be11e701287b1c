// Assignment files, the assignment's data model: TOML that extends a lab file with a slot a student
// fills, the tests a submission is checked and graded with, its build policy and limits. Parsed and
// checked by assignment_file.cpp and test_table.cpp (CPU only, through labfile/toml_reader.hpp), with
// every problem located "file:line:column" and a did-you-mean for misspelt keys and names; the tests
// become lab files of their own (test_lab_text.cpp) that `check` and `grade` run, their random axes
// drawn by random_axes.cpp.
//
//   [assignment]  id, title, lab (a lab file, relative to this file), slot, points, description
//   [submission]  file (default: the slot's file name), max_bytes
//   [build]       flags, deny_headers, allow_libraries, compile_timeout_s
//   [limits]      unit_timeout_s (per child, like run --timeout), total_timeout_s; for the children that run
//                 the submission: max_processes, max_file_bytes, cpu_time_s (process/child_process's child_limits)
//   [[test]]      name, kind (correctness | performance | sanitizer), visibility (visible | hidden),
//                 points, description, params, sweep, random; correctness: partial; performance:
//                 metric (pct_of_baseline | pct_of_ceiling), zero_at, full_at, requires, rounds,
//                 max_rounds; sanitizer: tool
//   [anti_cheat]  roofline_margin; the kernel census: census, kernels = { min, max, deny }, stream, host_copies
//   [feedback]    max_failures
//   [[hidden]]    name, kind, points, description: in a starter kit's public copy, the hidden tests
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cudalab/lab.hpp"
#include "labfile/lab_file.hpp"
#include "labfile/problems.hpp"

namespace cudalab::host {

/// What a test checks; test_kind_names() gives the names assignment files write.
enum class test_kind { correctness, performance, sanitizer };
enum class test_visibility { visible, hidden };

/// "correctness", "performance", "sanitizer": the names of test_kind's enumerators, in their order.
const std::vector<std::string>& test_kind_names();

/// The name of `k` (test_kind_names()).
const char* test_kind_name(test_kind k);

/// A [[test]].random axis: `count` values drawn from `choices`, or from [from, to] on a log or linear scale.
struct random_axis {
  std::string name;
  int count = 1;
  std::vector<std::int64_t> choices;  ///< empty: drawn from [from, to]
  std::int64_t from = 1, to = 1;
  bool log_scale = true;
};

/// One [[test]].
struct assignment_test {
  std::string name;
  source_location where;  ///< its [[test]] header
  test_kind kind = test_kind::correctness;
  test_visibility visibility = test_visibility::visible;
  double points = 0;
  std::string description;  ///< what the starter kit says of a hidden test ("" : made from the rest)
  bool partial = false;     ///< correctness: points in proportion to the points that pass
  std::vector<std::string>
  requires;                                ///< performance: tests that must pass first (else 0 points)
  std::string metric = "pct_of_baseline";  ///< performance: pct_of_baseline or pct_of_ceiling
  double zero_at = 0, full_at = 100;       ///< performance: the metric's value for no and for all points
  int rounds = 3;  ///< performance, when graded: baseline and student timed in this many children, one after another
  int max_rounds =
      6;             ///< performance, when graded: more rounds while the metric's interval straddles zero_at or full_at
  std::string tool;  ///< sanitizer: memcheck, racecheck, synccheck or initcheck
  /// Its [params] and [sweep] as TOML text ("n = 1000"), in the order written, for its lab file.
  std::vector<std::string> params, sweep;
  std::vector<random_axis> random;  ///< its random axes, as written
  /// The random axes drawn with the file's own seed (from the assignment's and test's names), as sweep
  /// lines: what `check` and the starter kit run. `grade` draws hidden tests again per student.
  std::vector<std::string> drawn;
  std::string random_text;  ///< the random axes in words, for the kit's description of hidden tests
  /// Its sweep as `check` and the kit run it: the sweep written, then the axes drawn.
  std::vector<std::string> sweep_lines() const {
    std::vector<std::string> all = sweep;
    all.insert(all.end(), drawn.begin(), drawn.end());
    return all;
  }
};

/// Sweep lines ("n = [12, 4099]") with `axes`' values drawn from `seed`: sorted, without repeats.
std::vector<std::string> draw_random_axes(const std::vector<random_axis>& axes, std::uint64_t seed);

/// The seed a test's random axes are drawn with by default: from the assignment's id and the test's name.
std::uint64_t default_draw_seed(const std::string& assignment_id, const std::string& test);

/// How one test's lab file is drawn for one student (grade's hidden tests): its random axes drawn with
/// `axes_seed`, and the lab's inputs with `input_seed` ([measure] seed).
struct test_draw {
  std::uint64_t axes_seed = 0;
  std::uint64_t input_seed = 0;
};

/// A test the starter kit only describes ([[hidden]] in a kit's public copy): graded, not run by check.
struct hidden_test {
  std::string name;
  std::string kind;
  double points = 0;
  std::string description;
};

/// [anti_cheat]'s kernel census: whether the tests take one, and what it may hold (assignment/census_checks).
struct census_policy {
  bool enabled = true;                       ///< census: correctness and performance tests take one
  std::uint64_t min_kernels = 1;             ///< kernels.min: fewer kernels ran (a CPU fallback, a copy)
  std::optional<std::uint64_t> max_kernels;  ///< kernels.max: more kernels ran (none: no limit)
  std::vector<std::string> deny = {"*cub::*", "*thrust::*", "*cublas*", "*cutlass*"};  ///< kernels.deny: globs
  std::string stream = "session";    ///< session: every kernel and copy on the session stream; joined: other
                                     ///< streams too, when their work ends before the session stream's; any
  std::string host_copies = "deny";  ///< deny: no host<->device copy in a device-path lab's run; allow
};

/// An assignment file, checked.
struct assignment_file {
  std::filesystem::path path;
  std::string text;
  std::string id, title, description;
  std::filesystem::path lab;  ///< the lab file, resolved against the assignment's folder
  std::string lab_as_written;
  source_location lab_where;
  std::string slot;
  source_location slot_where;
  double points = 0;
  std::string submission_file;  ///< "" : the slot's file name
  std::uint64_t max_bytes = 256 * 1024;
  std::vector<std::string> flags, deny_headers, allow_libraries;
  double compile_timeout_s = 120;
  double unit_timeout_s = 30, total_timeout_s = 900;
  std::uint64_t max_processes = 0;   ///< [limits]: RLIMIT_NPROC of the children that run the submission; 0: none
  std::uint64_t max_file_bytes = 0;  ///< [limits]: RLIMIT_FSIZE of those children; 0: none
  std::uint64_t cpu_time_s = 0;      ///< [limits]: RLIMIT_CPU of those children, seconds; 0: none
  double roofline_margin = 1.05;
  census_policy census;
  int max_failures = 5;
  std::vector<assignment_test> tests;
  std::vector<hidden_test> hidden;  ///< a kit's [[hidden]]: tests graded elsewhere, described only
};

/// True for an assignment id: lower-case letters, digits, '-' and '_', at least one (it names folders).
bool is_assignment_id(const std::string& id);

/// Parses the assignment file at `path`: syntax, keys (unknown ones with the nearest name), types and
/// ranges, unique test names, requires, zero_at < full_at, the points adding up. Throws lab_file_error
/// with every problem. What needs the lab's plugin (the slot, the tests' parameter names and values)
/// is checked by planning each test's lab file (assignment/assignment.hpp).
assignment_file parse_assignment(const std::filesystem::path& path);

/// The lab file of test `t`: the assignment's lab file (`base`) with `variant` only (and its baseline),
/// its [params] overridden by the test's, the test's sweep and drawn random axes (the lab file's own
/// sweeps dropped), for correctness and sanitizer tests timing off, for performance tests
/// measure.verify_after_timing on, and measure.census as [anti_cheat] census says for correctness and
/// performance tests (off for sanitizer tests: CUPTI and compute-sanitizer do not share a process).
/// With `draw`, the random axes and the inputs' seed are drawn as it says (else t.drawn and the lab
/// file's seed). A lab file any cudalab command can run.
std::string test_lab_text(const assignment_file& a, const assignment_test& t, const lab_file& base,
                          const std::string& variant, const std::optional<test_draw>& draw = std::nullopt);

/// Whether test `t`'s lab file is drawn for the student (test_draw, from the staff secret) - under `grade`
/// (`grading`) only, as `check` has no secret: a hidden test (its random axes and inputs), and a performance
/// test without random axes (its inputs alone: its points stay the visible ones). A submission that makes a
/// public seed's input again, or keeps its answer, then times honestly or fails verification.
bool draws_for_student(const assignment_test& t, bool grading);

/// True when the TOML file at `path` has an [assignment] table (validate tells the two apart by it).
bool is_assignment_file(const std::filesystem::path& path);

}  // namespace cudalab::host
