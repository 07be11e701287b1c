// Reporters: turn results into the console table, JSON lines (streamed), results.json, results.csv,
// a Markdown report and SVG plots of sweeps. Modelled on Google Benchmark's reporter interface.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "results/result.hpp"
#include "results/run_context.hpp"

namespace cudalab::host {

/// Receives a run: its context once, then each result as soon as it exists, then the end.
class reporter {
 public:
  virtual ~reporter() = default;
  virtual void begin(const run_context& context) = 0;
  virtual void add(const variant_result& result) = 0;
  /// Called once after the last result (also after an interrupted or failed run), with the context as
  /// the run ended: begin's, with what only the end knows (each GPU's end sample and throttling).
  virtual void end(const run_context& context) = 0;
};

/// Console table: one block per lab file and point; columns variant, status, then result_columns()'
/// console columns (median time, CV, GB/s, % of baseline, ceiling and peak, predicted sectors per
/// request and bank conflicts) as many as fit in `width` columns (console_width(); unlimited_width:
/// all), the least important (highest `rank`) dropped first. Rows never wrap: a variant name too long
/// for its column gets a line of its own above its row; a failure's text goes on lines of its own
/// under the row, indented and wrapped to `width`. `colour` adds ANSI colours (terminals only). At the
/// end of an isolated run over named GPUs, a line per GPU: how long its jobs took of the run's time
/// ("GPU 0: busy 270.1 s of 282.5 s, 12 jobs").
std::unique_ptr<reporter> make_table_reporter(std::ostream& out, bool colour, std::size_t width);

/// One JSON object per line per result, flushed at once (the crash-safe stream: results.jsonl, whose
/// every line is a result). With `context_line`, the first line is the context ({"context": ...}):
/// the parent/child protocol of an isolated run; a results folder writes context.json instead.
std::unique_ptr<reporter> make_jsonl_reporter(std::ostream& out, bool context_line);

/// A single JSON document {"context": ..., "results": [...]} written at end(), with end's context.
std::unique_ptr<reporter> make_json_reporter(std::ostream& out);

/// CSV with a header row; swept parameters become columns named param.<name>.
std::unique_ptr<reporter> make_csv_reporter(std::ostream& out);

/// A Markdown report: device and ceilings, each GPU's state at the start and end (NVML) with its
/// throttling warning, then per lab file a table per point or, for sweeps, one table with the swept
/// values as columns; each lab file's plot linked as `plot_prefix` + its file name (plot_files;
/// "plots/" in a results folder), no links when `plot_prefix` is empty.
std::unique_ptr<reporter> make_markdown_reporter(std::ostream& out, std::string plot_prefix);

/// Writes one SVG plot per lab file with a timed result into `dir`, named as plot_files says, made when
/// there is one, each file written whole (safe_file.hpp); returns the files written. A sweep is drawn
/// against its last swept parameter whose values are numbers (a logarithmic axis for a {from, to,
/// factor} range, as `labs`, the run context's, say; a guess from the values for results without one),
/// in panels: GB/s with bars from the slowest to the fastest repetition, % of the baseline (both on a
/// log axis where they span decades), and the global sectors and shared wavefronts per request the
/// model predicts, each panel shown when a result has its value. Each variant has one colour and
/// marker in every plot of the run; a second swept parameter of at most distinct_dashes numbers is a
/// dash pattern; any other swept parameter gives facets side by side on shared axes; the legend sits
/// beside the panels (plots.hpp). A lab file of a single point gets a bar chart of its variants.
/// Throws write_error at the first file that cannot be written.
/// Called at the end of a run by the results folder, where the Markdown report links them.
std::vector<std::filesystem::path> write_plots(const std::vector<variant_result>& results,
                                               const std::vector<lab_description>& labs,
                                               const std::filesystem::path& dir);

/// Fans a run out to several reporters.
class reporter_set final : public reporter {
 public:
  void add_reporter(std::unique_ptr<reporter> r) { reporters_.push_back(std::move(r)); }
  void begin(const run_context& c) override {
    for (auto& r : reporters_) r->begin(c);
  }
  void add(const variant_result& res) override {
    for (auto& r : reporters_) r->add(res);
  }
  void end(const run_context& c) override {
    for (auto& r : reporters_) r->end(c);
  }

 private:
  std::vector<std::unique_ptr<reporter>> reporters_;
};

}  // namespace cudalab::host
