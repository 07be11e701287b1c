// The plots of a run drawn in memory: one SVG per lab file with a timed (or counted) result, each
// variant in the same colour and marker in every plot of the run. results_folder writes them as files
// (write_plots, reporter.hpp); the HTML report puts them inline.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "results/result.hpp"
#include "results/run_context.hpp"

namespace cudalab::host {

/// One lab file's plot.
struct plot_drawing {
  std::string lab_file;   ///< as the results name it
  std::string file_name;  ///< its file's name in plots/ (plot_files)
  std::string svg;        ///< the whole SVG document
};

/// Each variant of `results` and the style it has in every plot of the run (an index for style_of):
/// given in the order the variants first appear, lab file by lab file, each the lowest index no other
/// variant of the same lab file has, so that the variants of one lab file differ (up to
/// distinct_styles of them) and a variant in several lab files keeps its colour.
std::map<std::string, std::size_t> variant_styles(const std::vector<variant_result>& results);

/// The plots of `results` (as write_plots describes them), in plot_files' order. `labs` (the run
/// context's) say how each sweep axis was written. With `unique_ids`, the SVG groups' ids of plot i
/// start "plot<i>-", so that several plots can share one HTML document.
std::vector<plot_drawing> draw_plots(const std::vector<variant_result>& results,
                                     const std::vector<lab_description>& labs, bool unique_ids = false);

}  // namespace cudalab::host
