// One run's results in NVBench's JSON layout (JSON file version 1.0.0), so that NVBench's own tools -
// scripts/nvbench_compare.py above all - read them: a benchmark per lab file, a state per variant and
// point, cudalab's times as NVBench's cold GPU time summaries (docs/compare.md lists the fields).
#pragma once

#include <string>

#include "results/result_set.hpp"

namespace cudalab::host {

/// The NVBench JSON file version written (meta.version.json): the one nvbench_compare.py expects.
inline constexpr const char* nvbench_json_version = "1.0.0";

/// `run` as NVBench JSON, indented by 2. Devices from the run's context (every GPU of --devices); per
/// lab file a benchmark named by its file name, with the axes "variant" (a string axis) and the swept
/// parameters (int64 where every value is a whole number, float64 where every value is a number,
/// string otherwise); per result a state named "Device=D variant=V name=value ...", whose summaries
/// hold the times in seconds (mean, median, min, max, stdev, relative stdev = cv) and the bandwidth,
/// or a skipped state with the reason for a result that was not timed.
std::string nvbench_json(const result_set& run);

}  // namespace cudalab::host
