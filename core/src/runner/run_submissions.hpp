// The submissions of a run (--submission SLOT=FILE): each given slot resolved to the lab that has it,
// sources built for the run's GPU into the results folder, and the built files loaded where the lab
// runs (this process, or each child of an isolated run).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "cudalab/device_info.hpp"
#include "plan/planning.hpp"
#include "slots/submission.hpp"

namespace cudalab::host {

/// Builds every source among `given` for `device` under `policy` into `folder`, printing each
/// diagnostic on stderr ("reduce.cu:12: error: ..."). Returns the submissions as built files (built
/// ones kept as given) in `built`, and exit_ok, or exit_submission when one does not build.
int build_run_submissions(const std::vector<planned_lab>& plans, const std::vector<submission_arg>& given,
                          const device_info& device, const build_policy& policy, const std::filesystem::path& folder,
                          std::vector<submission_arg>& built);

/// Loads the built submissions `built` for the labs of `plans` that have their slots (after the GPU is
/// opened), with `load` (default: into this process). A submission that cannot be loaded is recorded in `codes` with
/// why, and its student variant fails with that message.
void load_run_submissions(const std::vector<planned_lab>& plans, const std::vector<submission_arg>& built,
                          submission_codes& codes, const submission_codes::loader& load = {});

}  // namespace cudalab::host
