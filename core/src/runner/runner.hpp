// The runner: drives validated lab files through setup -> (poison, run, verify, time) -> teardown.
#pragma once

#include <atomic>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "plan/planning.hpp"
#include "results/reporter.hpp"
#include "results/result.hpp"
#include "results/run_context.hpp"

namespace cudalab::host {

class submission_codes;

/// How a run went, for the exit code.
struct run_summary {
  std::uint64_t results = 0;
  std::uint64_t verify_failures = 0;
  std::uint64_t errors = 0;       ///< results with status error
  std::uint64_t cuda_errors = 0;  ///< of those, caused by a failed CUDA call
  bool cuda_fatal = false;        ///< a sticky CUDA error ended the run early
  bool interrupted = false;       ///< `stop` was set (Ctrl-C)
  std::string fatal_message;
  std::vector<variant_result> all;  ///< every result, in the order reported

  /// Counts `r` by its status, reports it to `out` and keeps it.
  void record(variant_result r, reporter& out);
};

/// The share of the plans a child of an isolated run runs (the isolation layer builds it from the
/// child's options); by default, everything.
struct run_selection {
  std::uint64_t first_point = 0;                                         ///< only the points of each plan from this one
  std::uint64_t last_point = std::numeric_limits<std::uint64_t>::max();  ///< to this one
  std::string variant;       ///< only this variant, without the baseline ("": the variants to run)
  double baseline_gbps = 0;  ///< with `variant`: the baseline's GB/s at the point (0: unknown)
};

/// Options that are not part of a lab file.
struct run_options {
  std::vector<std::string> variant_filter;        ///< --variant: run only these (all when empty)
  const std::atomic<bool>* stop = nullptr;        ///< checked between variants and between timing samples
  run_selection only;                             ///< a child's share of the plans
  const submission_codes* submissions = nullptr;  ///< the loaded --submission code of student variants
};

/// Runs every plan on the device described by `context` and reports each result as soon as it
/// exists. For each point: setup; per variant: trace (model), poison, run, verify, then time it if
/// it verified and timing is on; teardown. A plugin exception or CUDA error is recorded against the
/// variant (or the point, if setup failed) and the run goes on; a sticky CUDA error stops it.
/// REQUIRES: reporter.begin() was called; the caller calls end().
run_summary run_plans(const std::vector<planned_lab>& plans, const run_context& context, reporter& out,
                      const run_options& options);

/// The exit code of a finished run (exit_codes.hpp), with a line on stderr saying why where it helps:
/// always for a CUDA error that stopped the run early; for an interruption or failed verifications
/// unless `quiet` (a child of an isolated run, whose parent says it).
int exit_code_of(const run_summary& summary, bool quiet);

/// A result of `pl` at `point` with what every variant there shares filled in (lab file, plugin,
/// title, point index and labels).
variant_result point_result(const planned_lab& pl, std::uint64_t point);

/// Fills gbps and the percentages of `r` from its traffic and time.
void compute_rates(variant_result& r, const run_context& context, double baseline_gbps);

}  // namespace cudalab::host
