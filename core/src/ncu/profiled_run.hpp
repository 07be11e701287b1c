// `cudalab run --profile`: the whole run in one child process of this executable, started by Nsight
// Compute's ncu, which counts the memory traffic of each variant's own kernels (those launched inside
// its NVTX range); the child's results, with each one's counters, for the parent to report.
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "isolation/child_protocol.hpp"
#include "ncu/ncu_counters.hpp"
#include "plan/planning.hpp"
#include "results/result_set.hpp"

namespace cudalab::host {

/// What the profiled child produced.
struct profiled_run {
  std::optional<result_set> results;       ///< its results and context; nullopt when it left none
  int child_exit = 0;                      ///< its exit code as ncu (or, without counters, the child) ended
  bool interrupted = false;                ///< `stop` was set: the child was killed
  std::vector<std::string> last_output;    ///< its last lines of output, for when it left no results
  std::optional<counted_kernels> counted;  ///< the counters by result; nullopt when ncu counted nothing
  std::string counters;            ///< for the context: "Nsight Compute 2025.3.1.0 (/usr/local/cuda/bin/ncu)", or
                                   ///< "none: " and why
  std::vector<std::string> notes;  ///< to say on stderr once: why there are no counters, kernels outside ranges
  std::string raw_csv;             ///< ncu's raw page ("" without counters), kept in the results folder as ncu.csv
  std::string report;              ///< ncu's report file's bytes ("" without counters), kept as ncu.ncu-rep
};

/// Runs `plans` in one child (`argv0 __child`, its plan in a file: profiled_child_plan, the texts they
/// were planned from, `base` what else it plans from) in a
/// work folder of its own under $TMPDIR (removed after), under ncu when there is one (find_ncu). When
/// ncu is missing, the child runs without it; when ncu ends without the child having said anything
/// (an option this ncu does not know, a metric it cannot collect), the child runs again without it.
/// Either way, and when ncu may not read the counters (ERR_NVGPUCTRPERM), `notes` says why there are
/// no counters. `on_line` is told each line the child writes to stderr that starts "cudalab: note:" or
/// "cudalab: warning:" (what a run says on its own), as it comes. `stop` kills the child.
profiled_run run_profiled(const std::vector<planned_lab>& plans, const child_plan& base, const std::string& argv0,
                          std::optional<int> device, const std::atomic<bool>* stop,
                          const std::function<void(const std::string&)>& on_line);

/// Gives each result that ran (status ok or verify_failed) its counters from `counted`: its kernels'
/// sums, or zeros when ncu counted no kernel of it (a variant that launches none, a memcpy).
void attach_counters(std::vector<variant_result>& results, const counted_kernels& counted);

}  // namespace cudalab::host
