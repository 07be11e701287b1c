// explain: the access model's predictions for every variant of a plan, without a GPU.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "model/access_model.hpp"
#include "planning.hpp"

namespace cudalab::host {

/// The prediction for one variant at one point.
struct explain_row {
  std::string lab_file;
  std::vector<std::pair<std::string, std::string>> point;
  std::string variant;
  bool traced = false;  ///< false for variants with nothing to model (library calls)
  access_stats stats;
};

/// Traces every variant at every point of the plan (CPU only).
std::vector<explain_row> explain_plan(const planned_lab& plan, const std::vector<std::string>& variant_filter);

/// Prints rows as an aligned table: requests, sectors/request and efficiency for global loads and
/// stores; wavefronts and conflicts per request for shared loads and stores.
void print_explain_table(std::ostream& out, const std::vector<explain_row>& rows);

/// Prints rows as a JSON array.
void print_explain_json(std::ostream& out, const std::vector<explain_row>& rows);

}  // namespace cudalab::host
