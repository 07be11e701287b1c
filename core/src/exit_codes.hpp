// The exit codes of the cudalab executable, one per kind of failure, each with the words `--help` and
// README.md give it.
#pragma once

#include <vector>

namespace cudalab::host {

enum exit_code : int {
  exit_ok = 0,
  exit_internal = 1,       ///< a bug in cudalab or an unexpected exception
  exit_usage = 2,          ///< bad command line (unknown option, missing argument)
  exit_bad_lab_file = 3,   ///< a lab file, profile or --set override is invalid
  exit_bad_results = 3,    ///< compare, export, plot, report: results that cannot be read as cudalab results
  exit_plugin = 4,         ///< a plugin could not be found or loaded
  exit_no_gpu = 5,         ///< no usable GPU (no driver, no device, stub library); grade: or no compute-sanitizer
  exit_verify_failed = 6,  ///< at least one variant computed a wrong result
  exit_cuda_error = 7,     ///< a CUDA call failed (the run may have stopped early)
  exit_lab_error = 8,      ///< a lab raised an error in setup/run/verify (not a CUDA failure)
  exit_write_error = 9,    ///< a file of the results folder could not be written (disk full, read-only, ...)
  exit_submission = 10,    ///< a submission does not build, or breaks the assignment's build policy
  exit_regression = 11,    ///< compare: at least one result got slower beyond the threshold and the noise
  exit_not_graded = 12,    ///< grade: a class's batch left students without a finished grade.json
  exit_no_sandbox = 13,    ///< grade: no sandbox can be made here for the students' code (--no-sandbox overrides)
  exit_interrupted = 130,  ///< Ctrl-C: what was measured is written
};

/// An exit code and what it means, in a few words (the `--help` footer's line).
struct exit_code_meaning {
  int code;
  const char* meaning;
};

/// Every exit code with its meaning, in the order --help lists them (by code, then the second meaning of 3);
/// the --help footer is made from it.
const std::vector<exit_code_meaning>& exit_code_meanings();

/// The meaning of `code` (its first, for 3), or "" for a code cudalab does not exit with.
const char* meaning_of_exit_code(int code);

}  // namespace cudalab::host
