// Isolated runs: each lab file, or each variant at each point, in a child process of its own whose
// results come back over a pipe; a crash, a sticky CUDA error or a timeout costs only that unit.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "results/reporter.hpp"
#include "runner/runner.hpp"

namespace cudalab::host {

/// One child process's share of an isolated run.
struct isolation_unit {
  const planned_lab* lab = nullptr;
  bool one_variant = false;  ///< variant mode: only `variant` at `point`
  std::uint64_t point = 0;
  std::string variant;
  /// The results it should produce, in order: (point index, variant name).
  std::vector<std::pair<std::uint64_t, std::string>> expected;
};

/// The units of `plans` for `mode` (file or variant), with the variants `variants_to_run` picks.
std::vector<isolation_unit> isolation_units(const std::vector<planned_lab>& plans, isolation_mode mode,
                                            const std::vector<std::string>& variant_filter);

/// How to start and watch the children.
struct isolated_run_options {
  /// The command line of the child that runs `unit`; it writes results.jsonl lines to fd 3 (the
  /// context line first, which is ignored here). `baseline_gbps` is the GB/s of the baseline at the
  /// unit's point when it is already known (variant mode), else 0.
  std::function<std::vector<std::string>(const isolation_unit& unit, double baseline_gbps)> command;
  /// What the child that runs `unit` reads on stdin (unset: nothing).
  std::function<std::string(const isolation_unit& unit)> input;
  std::string program;                                     ///< the file each child executes ("": the command's argv[0])
  double timeout_s = 0;                                    ///< per child; 0: no watchdog
  const std::atomic<bool>* stop = nullptr;                 ///< Ctrl-C: kill the child, stop
  std::function<void(const std::string&)> on_output_line;  ///< each line a child prints
};

/// Runs every unit in a child and reports each result it sends as it arrives - only those its unit
/// expects, once each; anything else is said on stderr and left out. When a child dies
/// (signal), times out, or ends before sending all its results, the first missing result becomes
/// an error saying what happened with the child's last output lines, and the rest of its results
/// become skipped ("not run"). A child that exits with code 7 (CUDA error) counts its errors as
/// CUDA errors. The run goes on with the next unit; only `stop` ends it early.
/// REQUIRES: out.begin() was called; the caller calls end().
run_summary run_isolated(const std::vector<isolation_unit>& units, reporter& out, const isolated_run_options& options);

}  // namespace cudalab::host
