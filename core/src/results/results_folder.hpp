// A run's results folder: context.json, results.jsonl (streamed), results.json, results.csv, report.md, the
// sweep plots and report.html, with the console's reporter beside them; and the run's context before the device.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "labfile/run_profile.hpp"
#include "results/reporter.hpp"
#include "results/result.hpp"
#include "results/run_context.hpp"

namespace cudalab::host {

/// A run's context before the device is known: cudalab's version, the start time (UTC), the command
/// line and the profile file ("" for the built-in defaults).
run_context new_context(const std::string& command_line, const std::string& profile_file);

class folder_files;

/// The results folder of a run and the reporters writing into it and to the console.
struct results_folder {
  std::filesystem::path dir;
  /// The folder's files (results.jsonl as each result arrives; results.json, results.csv, report.md,
  /// the plots and report.html at end(), each rendered in memory, then written whole), then the console's.
  reporter_set reporters;
  const folder_files* files = nullptr;  ///< the folder's files' reporter, owned by `reporters`

  /// After reporters.end(), which wrote the files: says on stderr which files could not be written
  /// and why, and how many results are where. False when a file could not be written.
  bool finish() const;
};

/// Creates the results folder `dir` (create_results_folder: "" for results/<date-time>Z, `force` to
/// replace an earlier run's results), results.jsonl in it, and the reporters: the console's in
/// `console` format, coloured when `colour` allows it, the format is the table, stdout is a terminal
/// and NO_COLOR is unset. Throws folder_error when the folder cannot be created or used, write_error
/// when results.jsonl cannot be created in it. The table fits in `width` columns (console_width(), or
/// unlimited_width for --wide).
std::unique_ptr<results_folder> open_results_folder(const std::string& dir, bool force, output_format console,
                                                    bool colour, std::size_t width);

}  // namespace cudalab::host
