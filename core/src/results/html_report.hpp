// report.html: a run on one self-contained page - its context, then per lab file its title, what to
// look for, the plot inline and a table of results that sorts by any column and filters by variant,
// with errors and notes under their rows. Written into every results folder, and again from a
// results folder by `cudalab report`.
#pragma once

#include <string>
#include <vector>

#include "results/result.hpp"
#include "results/run_context.hpp"

namespace cudalab::host {

/// The report of `results` run in `context`, as an HTML document (html_page.hpp): a heading with the
/// run's time, device and result counts (and a warning when a GPU ran throttled or results failed);
/// the context (command, profile, build, CUDA, each GPU with its ceilings and its clocks at the start
/// and end); a list of the lab files; then a section per lab file: its title and file, its leading
/// comment ("what to look for", the context's `about`), its parameters, sweep and [measure] settings,
/// its plot inline (draw_plots: the same picture as plots/NAME.svg) and a table with a row per result:
/// the swept values, the variant (in its plot colour), its status, the median time with its interval
/// (interval_of_median), and report.md's columns (columns.hpp: CV, GB/s, % of the baseline and of the
/// ceiling, the model's sectors and conflicts, and with counters what Nsight Compute measured and the
/// verdict), a failure's reason on a line under its row. Every text from the results is escaped.
std::string run_report_html(const run_context& context, const std::vector<variant_result>& results);

/// Notes written as plain text - a lab file's leading comment (`about`), a grader's feedback lines - as
/// HTML: paragraphs at blank lines, lines that start with "- " as list items (an item goes on over the
/// lines indented further than its "-"), `code` in backticks as <code>; every text escaped.
std::string notes_html(const std::string& text);

}  // namespace cudalab::host
