// The `run` use case: validated lab files verified, timed and reported on the GPU - in this process,
// or (isolated) in child processes - into a results folder; the answer is the process's exit code.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "labfile/run_profile.hpp"
#include "plan/planning.hpp"
#include "process/child_process.hpp"
#include "results/console_text.hpp"
#include "slots/submission.hpp"

namespace cudalab::host {

/// A `run`, as the command line asks for it.
struct run_request {
  std::vector<planned_lab> plans;                     ///< validated, in the order given
  run_profile profile;                                ///< --config (or the defaults); the options below override it
  std::vector<std::string> plugin_paths;              ///< --plugin-path (the children plan with them too)
  std::vector<std::string> sets;                      ///< --set (likewise)
  std::vector<std::string> variant_filter;            ///< --variant
  std::string out_dir;                                ///< --out; "": the profile's, else results/<date-time>
  bool force = false;                                 ///< --force: replace an earlier run's results in that folder
  std::optional<output_format> format;                ///< --format: what the console shows; nullopt: the profile's
  bool colour = true;                                 ///< false: --no-color (colours need a terminal anyway)
  bool progress = false;                              ///< --progress: the progress line even when stderr is no terminal
  std::size_t console_width = default_console_width;  ///< the table's width (console_width()); unlimited_width: --wide
  std::optional<isolation_mode> isolate;              ///< --isolate; nullopt: the profile's
  bool counters = false;      ///< --profile: the run in one child under Nsight Compute, each result with its counters
  double timeout_s = 0;       ///< --timeout; 0: the profile's
  std::vector<int> devices;   ///< --devices: one worker per GPU listed; empty: one GPU
  std::optional<int> device;  ///< --device N: only that GPU (REQUIRES: `devices` empty)
  std::vector<submission_arg> submissions;            ///< --submission SLOT=FILE: sources are built for the GPU first
  std::optional<std::filesystem::path> png_renderer;  ///< --png: PNG copies of the plots, rendered by this program
  std::string command_line;                           ///< for the results' context
  std::string argv0;                                  ///< this executable's argv[0], the children's if need be
};

/// What a course adds to a run of a student's code (assignment/test_run.hpp): how its submissions are
/// built, how long the whole run may take, and the limits and sandbox its children run under. A plain
/// `run` has none of it.
struct run_policy {
  build_policy build;                             ///< how the run's submissions are built
  double time_limit_s = 0;                        ///< an isolated run stops (as on Ctrl-C) after this long; 0: never
  std::optional<child_limits> children_limits;    ///< an isolated run's children run under these (none: as is)
  std::optional<child_sandbox> children_sandbox;  ///< and in this sandbox, where one can be made (a note if not)
  /// An isolated run's units run a launcher slot's host code in the submission's own process
  /// (isolation/submission_process.hpp: grade), not in the unit's child that times and checks it.
  bool launchers_apart = false;
};

/// Runs the request: opens the device (or has a child probe it), opens the results folder, runs every
/// plan in this process or, when isolated, every unit in a child of its own, writes the plots, and
/// says on stderr where the results are. --timeout alone (or the profile's) means isolate=file: a
/// watchdog needs a child to kill. --devices means isolate=file too (unless --isolate=variant): each
/// GPU's worker runs lab files, or in variant mode points, in children that see only that GPU; a lab
/// whose traffic crosses the host bus runs with nothing beside it. --device N runs on GPU N alone: in
/// this process, whose CUDA_VISIBLE_DEVICES is narrowed to that GPU before the first CUDA call (the
/// GPU probe), as a child of a --devices worker sees it; isolated, as --devices N. Either way the
/// context lists that one GPU and every result names it. Ctrl-C, SIGTERM, SIGHUP or SIGPIPE stops the run and
/// writes what was measured (process/stop_signals.hpp). A child (`as_child`) does its share instead
/// (child_protocol.hpp). With `counters` (--profile) the whole run is one child process under Nsight Compute's ncu
/// (profile/profiled_run.hpp), never isolated further, whose results are reported here at its end,
/// each with the counters of its own kernels; without ncu, or when ncu may not count, it says so once
/// and reports the results without counters. Returns the exit code.
int run_labs(const run_request& request, const run_policy& policy = {});

}  // namespace cudalab::host
