// Where a run's results go: a folder created fresh, so that no run's results are lost or mixed with
// another's.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace cudalab::host {

/// The results folder cannot be used: it holds something else, is not a folder, cannot be created.
class folder_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Creates a run's results folder and returns it:
/// - `dir` named (--out, a profile's [output] dir): created with its parents where missing. A folder
///   already there must be empty, or with `force` hold only what a run wrote (results.*, report.md,
///   plots/ of SVGs, and their temporary files), which is removed first.
/// - `dir` empty: results/<date-time>Z, the time in UTC (Z, as in ISO 8601): results/20261123-183613Z,
///   always a new folder: -2, -3, ... is added to a name that is taken (a run started in the same second).
/// Throws folder_error saying why.
std::filesystem::path create_results_folder(const std::string& dir, bool force);

}  // namespace cudalab::host
