// Isolated runs: each lab file, or each variant at each point, in a child process of its own whose
// results come back over a pipe; a crash, a sticky CUDA error or a timeout costs only that unit. With
// several workers (--devices), jobs run side by side, one per GPU, and are reported in plan order.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "process/child_process.hpp"
#include "results/reporter.hpp"
#include "runner/runner.hpp"

namespace cudalab::host {

/// One child process's share of an isolated run.
struct isolation_unit {
  const planned_lab* lab = nullptr;
  bool one_variant = false;  ///< variant mode: only `variant` at `point`
  std::uint64_t point = 0;   ///< its first point (variant mode: its only one)
  /// Its last point: a lab file's job over several workers may be a part of its points, point to
  /// last_point (job_split.hpp); a whole lab file's ends at its last point.
  std::uint64_t last_point = 0;
  std::string variant;
  /// The results it should produce, in order: (point index, variant name).
  std::vector<std::pair<std::uint64_t, std::string>> expected;
  /// Its job: the units of one job run one after the other on one worker - a lab file (over several
  /// workers, a part of its points), or in variant mode the variants of one point (so that each is
  /// compared with a baseline timed on the same GPU).
  std::size_t job = 0;
  /// Its job moves bytes over the host bus (memory_path::host_bus) at some point: it runs alone, as
  /// every GPU of the host shares that bus.
  bool host_bus = false;
  /// The GPU time its results are planned to take, seconds: per result, the warm-up and the
  /// repetitions at their minimum time (what the lab file's [measure] asks for).
  double planned_s = 0;
};

/// The units of `plans` for `mode` (file or variant), with the variants `variants_to_run` picks, in
/// order, their jobs numbered from 0. In file mode over several `workers`, a long lab file is cut into
/// parts of contiguous points as split_points says (job_split.hpp), each a unit and a job of its own;
/// with one worker each lab file is one unit.
std::vector<isolation_unit> isolation_units(const std::vector<planned_lab>& plans, isolation_mode mode,
                                            const std::vector<std::string>& variant_filter, std::size_t workers = 1);

/// Whether `unit` runs only a part of its lab file's points (a child told which).
bool is_part_of_file(const isolation_unit& unit);

/// One worker of an isolated run: it runs one job at a time, its children on a GPU of its own.
struct isolation_worker {
  int device = -1;  ///< the CUDA ordinal its results are marked with (-1: the run names no devices)
  std::vector<std::pair<std::string, std::string>> environment;  ///< set for its children (CUDA_VISIBLE_DEVICES)
};

/// How to start and watch the children.
struct isolated_run_options {
  /// The command line of the child that runs `unit` on worker `worker`; it writes results.jsonl lines
  /// to fd 3 (the context line first, which is ignored here). `baseline_gbps` is the GB/s of the
  /// baseline at the unit's point when it is already known (variant mode), else 0.
  std::function<std::vector<std::string>(const isolation_unit& unit, double baseline_gbps, std::size_t worker)> command;
  std::vector<isolation_worker> workers;  ///< empty: one worker, the children in this environment
  /// What the child that runs `unit` on worker `worker` reads on stdin (unset: nothing); `baseline_gbps`
  /// as for `command`.
  std::function<std::string(const isolation_unit& unit, double baseline_gbps, std::size_t worker)> input;
  std::string program;                                     ///< the file each child executes ("": the command's argv[0])
  double timeout_s = 0;                                    ///< per child; 0: no watchdog
  std::optional<child_limits> limits;                      ///< each child's resource limits (none: as is)
  std::optional<child_sandbox> sandbox;                    ///< each child's sandbox, where one can be made
  const std::atomic<bool>* stop = nullptr;                 ///< Ctrl-C: kill the child, stop
  std::function<void(const std::string&)> on_output_line;  ///< each line a child prints
  /// When set, gets each job that started (in plan order: its lab file, points, GPU, whether it ran
  /// alone, when it started and how long it took) and when the last one ended; its probe_s is left as
  /// it is.
  run_schedule* schedule = nullptr;
  /// What the schedule's times count from: when the run started.
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
};

/// Runs every unit in a child and reports each result it sends - only those its unit expects, once
/// each; anything else is said on stderr and left out. The workers run the jobs side by side
/// (job_scheduler.hpp: host-bus jobs alone); results reach `out` in the order of the units, each as
/// it arrives when all earlier jobs are done, else when they are; `arrived` (when set) is told of
/// each as it arrives. When a child dies
/// (signal), times out, or ends before sending all its results, the first missing result becomes
/// an error saying what happened with the child's last output lines, and the rest of its results
/// become skipped ("not run"). A child that exits with code 7 (CUDA error) counts its errors as
/// CUDA errors. The run goes on with the next unit; only `stop` ends it early.
/// REQUIRES: out.begin() was called; the caller calls end().
run_summary run_isolated(const std::vector<isolation_unit>& units, reporter& out, const isolated_run_options& options,
                         const std::function<void(const variant_result&)>& arrived = nullptr);

}  // namespace cudalab::host
