// The parent/child protocol of an isolated run (`run --isolate`): the hidden --internal-* options,
// the command lines of the children, how the ceilings travel, and what a child does.
//
// Isolation and CUDA. A process that has initialised CUDA must not fork a child that goes on to use
// CUDA, and a sticky error (illegal address) poisons the context of the process that made it. So with
// --isolate the parent never calls the CUDA runtime at all: it parses and validates the lab files and
// loads the plugins (CPU only: their specs), then starts children with posix_spawn - fork and exec in
// one step, nothing run in between - of this same executable with hidden --internal-* options, and
// on stdin the texts of the profile and lab files as the parent read them (child_input.hpp), which the
// child plans from instead of the files, so that a file edited during the run changes nothing:
//   1. one "context" child probes the GPU, reads its properties, checks every point's memory needs and
//      measures the ceilings, sending an empty line after each step (the watchdog restarts on it), and
//      sends the run's context (context_json) on fd 3; if it fails, its message and exit code are the
//      run's (no GPU: 5, too big: 3);
//   2. one child per unit (lab file, a part of its points, or variant at a point) runs just that, with
//      the ceilings passed in, and sends results.jsonl lines (result_json) on fd 3 as each result exists.
// The parent parses them back (results/json.hpp), feeds its own reporters, and records a child that
// died, timed out or stopped early as error/skipped results (isolated_run.hpp). Each child is its own
// process group: the watchdog kills the whole group, and Ctrl-C reaches only the parent, which kills
// the child, writes what was measured and exits 130 (SIGTERM, SIGHUP and SIGPIPE likewise). A child
// dies with its parent however the parent ends (die_with_parent), SIGKILL included.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isolation/isolated_run.hpp"
#include "labfile/run_profile.hpp"
#include "plan/planning.hpp"
#include "results/run_context.hpp"
#include "runner/runner.hpp"
#include "slots/submission.hpp"

namespace cudalab::host {

/// The names of a child's hidden options (`run` registers them; the children's command lines use them).
namespace child_flag {
inline constexpr const char* result_fd = "--internal-child-fd";
inline constexpr const char* context_only = "--internal-context-only";
inline constexpr const char* ceilings = "--internal-ceilings";
inline constexpr const char* first_point = "--internal-first-point";
inline constexpr const char* last_point = "--internal-last-point";
inline constexpr const char* variant = "--internal-variant";
inline constexpr const char* baseline_gbps = "--internal-baseline-gbps";
inline constexpr const char* parent_pid = "--internal-parent-pid";
inline constexpr const char* input_file = "--internal-input";
}  // namespace child_flag

/// The file every child executes: the one this process was started from, even after it was deleted
/// or replaced on disk (a rebuild during a long run), so that no child ever runs other code.
inline constexpr const char* child_program = "/proc/self/exe";

/// A child's hidden options, as parsed from its command line.
struct child_options {
  int result_fd = -1;             ///< write results.jsonl lines here; -1: not a child
  bool context_only = false;      ///< probe the GPU, send the context, stop
  std::string ceilings;           ///< "d2d,h2d,d2h,bidir" (GB/s): measured already ("": measure them)
  std::int64_t first_point = -1;  ///< only the points from this one (-1: from the first)
  std::int64_t last_point = -1;   ///< only the points up to this one (-1: to the last)
  std::string variant;            ///< only this variant, without the baseline
  double baseline_gbps = 0;       ///< the baseline's GB/s at that point
  long parent_pid = 0;            ///< the parent's process id: the child dies with it (die_with_parent)
  std::string input_file;         ///< `run --profile`'s child: plan from the texts in this file (not a child's stdin)
};

/// What every child repeats from the parent's command line, besides its lab file(s).
struct child_command {
  std::string argv0;                      ///< the parent's argv[0]: the children's, if /proc/self/exe cannot be read
  std::vector<std::string> plugin_paths;  ///< --plugin-path
  std::vector<std::string> sets;          ///< --set
  std::vector<std::string> variants;      ///< --variant
  std::vector<std::string> submissions;   ///< --submission SLOT=FILE (built files, once built)
  std::string profile_file;               ///< --config ("": none); with its text, on a child's stdin
  std::string profile_text;               ///< the text the profile was read from
};

/// What the child running `unit` reads on stdin (child_input.hpp): the texts the profile and its lab
/// file's plan were made from, so that it plans exactly what the parent did, whatever happens to the
/// files meanwhile.
std::string unit_child_input(const child_command& command, const isolation_unit& unit);

/// The ceilings as a child's --internal-ceilings value, and back (nullopt for anything else).
std::string ceilings_text(const ceilings& c);
std::optional<ceilings> parse_ceilings(const std::string& text);

/// The command line of a child that runs `unit` (with the ceilings measured by the probe, and the
/// baseline's GB/s at the unit's point when known, else 0).
std::vector<std::string> unit_child_argv(const child_command& command, const isolation_unit& unit,
                                         const ceilings& measured, double baseline_gbps);

/// The child of `run --profile` (profile/profiled_run.hpp), which ncu starts and watches: the whole
/// run in that one process (--isolate=none), planned from the texts in `input_file` (what
/// profiled_child_input gives, written there: ncu passes no stdin or results pipe on), its results
/// folder `out_dir`; `device` (--device N) narrows it to that GPU.
std::vector<std::string> profiled_child_argv(const child_command& command, const std::vector<planned_lab>& plans,
                                             const std::string& input_file, const std::string& out_dir,
                                             std::optional<int> device);

/// What the child of `run --profile` plans from: the profile's text and every lab file's.
std::string profiled_child_input(const child_command& command, const std::vector<planned_lab>& plans);

/// Runs the context child over `plans`: it probes the GPU, checks memory and measures the ceilings,
/// and sends the context (`probed`: its device and ceilings count). Its output is printed as it comes.
/// The watchdog kills it after `timeout_s` (0: none) without the context, like any unit's child.
/// `worker` says which GPU it sees (its environment). Returns an exit code: the child's own when it
/// failed (no GPU, too big), 5 when it timed out (the GPU does not answer), 1 when it crashed, 130
/// when `stop` was set.
int probe_in_child(const std::vector<planned_lab>& plans, const child_command& command, double timeout_s,
                   const std::atomic<bool>* stop, run_context& probed, const isolation_worker& worker = {});

/// What a child runs of the plans: the point and variant its options name.
run_selection selection_of(const child_options& child);

/// A child of an isolated run: the context line, then (unless context only) its unit's results, on
/// the results descriptor, running the built `submissions` in their student variants. `context` has
/// no device yet. Returns the exit code a run of the unit alone would have (quietly: the parent says
/// what happened).
int run_as_child(const std::vector<planned_lab>& plans, const measure_settings& timing,
                 const std::vector<std::string>& variant_filter, run_context context, const child_options& child,
                 const std::vector<submission_arg>& submissions);

}  // namespace cudalab::host
