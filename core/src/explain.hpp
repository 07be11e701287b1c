// The `explain` use case: the access model's predictions for every variant of validated lab files,
// on the CPU, with the model device standing in for a GPU.
#pragma once

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "cudalab/access_stats.hpp"
#include "cudalab/device_info.hpp"
#include "plan/planning.hpp"

namespace cudalab::host {

/// The prediction for one variant at one point.
struct explain_row {
  std::string lab_file;
  std::vector<std::pair<std::string, std::string>> point;
  std::string variant;
  bool traced = false;  ///< false for variants with nothing to model (library calls)
  access_stats stats;
};

/// Traces every variant to run at every point of the plan on `device` (CPU only). Throws
/// lab_call_error when the lab's trace() throws (naming the lab, the variant and the point).
std::vector<explain_row> explain_plan(const planned_lab& plan, const std::vector<std::string>& variant_filter,
                                      const device_info& device);

/// Prints rows as aligned tables, each lab file's on its own and fitting in `width` columns
/// (console_width(); unlimited_width: --wide, everything on one line):
/// - a lab file swept over one axis: one table, a line per variant and quantity it has (global
///   sectors per request of loads, stores, atomics; bank conflicts per request of shared loads,
///   stores, atomics), a column per swept value, in panels of as many values as fit;
/// - otherwise a block per point, a row per variant: requests, sectors/request and efficiency of
///   global loads and stores, wavefronts and conflicts per request of shared loads and stores, and
///   (when a row has them) the same of atomics; the least important columns dropped first where
///   they do not all fit; a sampled trace's counts on a line of its own under its row.
/// With `totals` (--totals) the totals are shown too, first: in the blocks, requests, sectors and
/// wavefronts as columns ranked above every ratio; in the one-axis table, a line per total.
void print_explain_table(std::ostream& out, const std::vector<explain_row>& rows, std::size_t width,
                         bool totals = false);

/// Prints rows as a JSON array (the model objects of results.json).
void print_explain_json(std::ostream& out, const std::vector<explain_row>& rows);

}  // namespace cudalab::host
