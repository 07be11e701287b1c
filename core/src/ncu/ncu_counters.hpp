// The counters `run --profile` asks Nsight Compute for, and each result's share of them: the sum over
// the kernels launched inside its NVTX range (runner/nvtx_range.hpp).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ncu/ncu_csv.hpp"
#include "results/measured.hpp"
#include "runner/nvtx_range.hpp"

namespace cudalab::host {

/// The metrics passed to ncu's --metrics, each a .sum over the launch (docs/model.md maps them to the
/// model's quantities).
const std::vector<std::string>& counter_metrics();

/// `counter_metrics()` joined by commas, as --metrics takes them.
std::string counter_metrics_list();

/// The counters of one kernel launch (a metric ncu did not report counts 0; the wavefronts the
/// addresses need fall back to the data stage's, and the shared requests - SASS's instructions with
/// an active lane - to the hardware's `..._pred_on_any` count, when ncu did not report them).
measured_counters counters_of(const ncu_kernel& kernel);

/// The kernels of a profiled run by result.
struct counted_kernels {
  std::map<range_key, measured_counters> by_result;  ///< the sum over each result's kernels
  std::size_t outside = 0;                           ///< kernels in no variant's range (ncu's filter should leave none)
};

/// Sums `kernels` by the variant range each ran in (find_range_name of its NVTX columns).
counted_kernels count_by_result(const std::vector<ncu_kernel>& kernels);

}  // namespace cudalab::host
