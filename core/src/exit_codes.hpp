// The exit codes of the cudalab executable, one per kind of failure (documented in README.md), and
// the exit code of a finished run.
#pragma once

namespace cudalab::host {

enum exit_code : int {
  exit_ok = 0,
  exit_internal = 1,       ///< a bug in cudalab or an unexpected exception
  exit_usage = 2,          ///< bad command line (unknown option, missing argument)
  exit_bad_lab_file = 3,   ///< a lab file, profile or --set override is invalid
  exit_bad_results = 3,    ///< compare, export: a results folder or file that cannot be read as cudalab results
  exit_plugin = 4,         ///< a plugin could not be found or loaded
  exit_no_gpu = 5,         ///< no usable GPU (no driver, no device, stub library)
  exit_verify_failed = 6,  ///< at least one variant computed a wrong result
  exit_cuda_error = 7,     ///< a CUDA call failed (the run may have stopped early)
  exit_lab_error = 8,      ///< a lab raised an error in setup/run/verify (not a CUDA failure)
  exit_write_error = 9,    ///< a file of the results folder could not be written (disk full, read-only, ...)
  exit_submission = 10,    ///< a submission does not build, or breaks the assignment's build policy
  exit_regression = 11,    ///< compare: at least one result got slower beyond the threshold and the noise
  exit_interrupted = 130,  ///< Ctrl-C: what was measured is written
};

struct run_summary;

/// The exit code of a finished run, with a line on stderr saying why where it helps: always for a
/// CUDA error that stopped the run early; for an interruption or failed verifications unless `quiet`
/// (a child of an isolated run, whose parent says it).
int exit_code_of(const run_summary& summary, bool quiet);

}  // namespace cudalab::host
