// The parent/child protocol of an isolated run (`run --isolate`): each child is `cudalab __child`,
// told everything on its stdin (child_plan.hpp), and what a child does.
//
// Isolation and CUDA. A process that has initialised CUDA must not fork a child that goes on to use
// CUDA, and a sticky error (illegal address) poisons the context of the process that made it. So with
// --isolate the parent never calls the CUDA runtime at all: it parses and validates the lab files and
// loads the plugins (CPU only: their specs), then starts children with posix_spawn - fork and exec in
// one step, nothing run in between - of this same executable as `cudalab __child`, with its plan on
// stdin: the texts of the profile and lab files as the parent read them, the options it repeats and
// its share, so that a file edited during the run changes nothing:
//   1. one "probe" child probes the GPU, reads its properties, checks every point's memory needs and
//      measures the ceilings, sending an empty line after each step (the watchdog restarts on it), and
//      sends the run's context (context_json) on fd 3; if it fails, its message and exit code are the
//      run's (no GPU: 5, too big: 3);
//   2. one "unit" child per unit (lab file, a part of its points, or variant at a point) runs just that,
//      with the ceilings passed in, and sends results.jsonl lines (result_json) on fd 3 as each result
//      exists.
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

#include "isolation/child_plan.hpp"
#include "isolation/isolated_run.hpp"
#include "labfile/run_profile.hpp"
#include "plan/planning.hpp"
#include "results/run_context.hpp"
#include "runner/runner.hpp"

namespace cudalab::host {

/// The file every child executes: the one this process was started from, even after it was deleted
/// or replaced on disk (a rebuild during a long run), so that no child ever runs other code.
inline constexpr const char* child_program = "/proc/self/exe";

/// A child's command line: this executable, child_entry and its role's name (its plan comes on stdin).
/// `argv0` is the parent's argv[0], the children's name if /proc/self/exe cannot be read.
std::vector<std::string> child_argv(const std::string& argv0, child_role role);

/// What the child running `unit` is told: `base` (the run's planning sources, child_plan.hpp) with the
/// unit's lab file, its share, the ceilings the probe measured and the baseline's GB/s at its point
/// when known (else 0).
child_plan unit_child_plan(const child_plan& base, const isolation_unit& unit, const ceilings& measured,
                           double baseline_gbps);

/// What run --profile's child is told (profile/profiled_run.hpp): `base` with every lab file, the whole
/// run into `out_dir`, on GPU `device` alone when given.
child_plan profiled_child_plan(const child_plan& base, const std::vector<planned_lab>& plans,
                               const std::string& out_dir, std::optional<int> device);

/// Runs the probe child over `plans` (`base` says what it plans from): it probes the GPU, checks memory
/// and measures the ceilings, and sends the context (`probed`: its device and ceilings count). Its
/// output is printed as it comes. The watchdog kills it after `timeout_s` (0: none) without the
/// context, like any unit's child. `worker` says which GPU it sees (its environment). Returns an exit
/// code: the child's own when it failed (no GPU, too big), 5 when it timed out (the GPU does not
/// answer), 1 when it crashed, 130 when `stop` was set.
int probe_in_child(const std::vector<planned_lab>& plans, const child_plan& base, double timeout_s,
                   const std::atomic<bool>* stop, run_context& probed, const isolation_worker& worker = {});

/// A probe or unit child, planned from its plan: the context line, then (unless a probe) its unit's
/// results, on the results descriptor (3), running the built submissions in their student variants.
/// `context` has no device yet. Returns the exit code a run of the unit alone would have (quietly: the
/// parent says what happened).
int run_as_child(const std::vector<planned_lab>& plans, const measure_settings& timing, run_context context,
                 const child_plan& plan);

}  // namespace cudalab::host
