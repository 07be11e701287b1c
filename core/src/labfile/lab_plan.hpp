// A validated lab file, ready to run: its parameters, its sweep's axes and the points they expand to.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "cudalab/param.hpp"
#include "labfile/run_profile.hpp"

namespace cudalab::host {

/// How a sweep axis was written: a list of values, an arithmetic {from, to, step} range or a geometric
/// {from, to, factor} one. Plots follow it: a linear axis for a step range, a logarithmic one for a factor.
enum class sweep_spacing { list, step, factor };

/// "list", "step", "factor": the names context.json uses.
const char* spacing_name(sweep_spacing s);

/// One swept parameter and its values, in the order written.
struct sweep_axis {
  std::string name;
  std::vector<param_value> values;
  sweep_spacing spacing = sweep_spacing::list;
};

/// A validated lab file, ready to run: every value typed and in range.
struct lab_plan {
  std::filesystem::path file;
  std::string plugin;
  std::string title;
  std::vector<std::string> variants;  ///< to run, in the order given (all of the spec's if unset)
  std::string baseline;               ///< "" when none
  params base;                        ///< every declared parameter: default < [params] < --set
  std::vector<sweep_axis> sweep;      ///< [sweep] axes, in the order written
  measure_settings measure;           ///< defaults < lab [measure] < profile < --set measure.*

  /// The number of points (product of the axis lengths; 1 with no sweep).
  std::uint64_t point_count() const;
  /// Point i (0 <= i < point_count()): base with each axis set to its value; the last axis varies fastest.
  params point(std::uint64_t i) const;
  /// The swept values of point i as ("name", "value") pairs, in axis order.
  std::vector<std::pair<std::string, std::string>> point_labels(std::uint64_t i) const;
};

}  // namespace cudalab::host
