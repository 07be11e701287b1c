// `grade --submissions DIR --devices 0,1,...`: a class graded side by side, one worker per GPU listed.
// Each student is graded whole on one card - build, baseline and rounds - by a child `cudalab grade` of
// that student alone with `--device N` (so CUDA shows it that GPU only, as `run --devices` shows its
// children theirs: isolation/gpu_workers.hpp); a student's crash or hang costs that child only. Scores
// stay independent of the card drawn: a performance test's rounds time the baseline beside the student
// on the same card, and before any student the cards' DRAM copy ceilings are measured (`cudalab device
// --format json --device N`, a child each) and the batch refused when they differ by more than the
// rounds allow the baseline to drift (max_baseline_drift).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "assignment/grade_jobs.hpp"

namespace cudalab::host {

/// One card of a batch as its probe measured it.
struct probed_card {
  int ordinal = 0;  ///< as --devices names it
  std::string name;
  std::string pci_bus_id;
  double d2d_copy_gbps = 0;  ///< its DRAM copy ceiling, GB/s
};

/// Why `cards` cannot grade one class fairly: their DRAM copy ceilings differ by more than `tolerance`
/// (a fraction of the slowest card's), the sentence naming the fastest and the slowest; nullopt when
/// they agree (one card always does).
std::optional<std::string> ceilings_disagree(const std::vector<probed_card>& cards, double tolerance);

/// Runs `jobs` on a worker per GPU of request.devices, each job a child (job_argv) on the worker's
/// GPU, after the ceilings' check above. Prints each child's lines prefixed with its GPU and student.
/// Jobs go to whichever worker is free (isolation's run_jobs). A child that finds no GPU (exit 5) stops
/// the batch, as a one-GPU batch stops; any other failure leaves that student for the merge to report.
/// Returns exit_ok when the jobs were run (graded or not), exit_no_gpu when a GPU listed does not
/// exist, cannot be probed, the cards disagree or one stops answering, exit_interrupted on Ctrl-C.
int grade_on_devices(const grade_request& request, const std::vector<grade_job>& jobs);

}  // namespace cudalab::host
