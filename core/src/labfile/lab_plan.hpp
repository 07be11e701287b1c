// A validated lab file, ready to run: its parameters, its sweep's axes (crossed, or zipped in groups that
// move together) and the points they expand to.
#pragma once

#include <cstddef>
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
  /// 0: an axis of its own, crossed with the others. Otherwise the zipped group ([[sweep.zip]], numbered
  /// from 1 in the order written) it moves with: a group's axes stand next to each other in
  /// lab_plan::sweep and have as many values each, the group's i-th point taking each one's i-th value.
  int zip = 0;
};

/// One dimension of a sweep: the axes sweep[first, last) of a plan, one axis of its own or a zipped
/// group's; its points are as many as each of its axes has values.
struct sweep_dimension {
  std::size_t first = 0, last = 0;
};

/// A validated lab file, ready to run: every value typed and in range.
struct lab_plan {
  std::filesystem::path file;
  std::string plugin;
  std::string title;
  std::vector<std::string> variants;  ///< to run, in the order given (all of the spec's if unset)
  std::string baseline;               ///< "" when none
  params base;                        ///< every declared parameter: default < [params] < --set
  std::vector<sweep_axis> sweep;      ///< [sweep] axes and zipped groups' axes, in the order written
  measure_settings measure;           ///< defaults < lab [measure] < profile < --set measure.*

  /// The sweep's dimensions, in order: each axis of its own, and each zipped group as one.
  std::vector<sweep_dimension> dimensions() const;
  /// The number of points: the product of the dimensions' lengths (1 with no sweep).
  std::uint64_t point_count() const;
  /// Point i (0 <= i < point_count()): base with each axis set to its value; the last dimension varies
  /// fastest, and a zipped group's axes take their values together.
  params point(std::uint64_t i) const;
  /// The swept values of point i as ("name", "value") pairs, in axis order (a zipped group's each).
  std::vector<std::pair<std::string, std::string>> point_labels(std::uint64_t i) const;
};

}  // namespace cudalab::host
