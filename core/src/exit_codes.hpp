// The exit codes of the cudalab executable, one per kind of failure (documented in README.md).
#pragma once

namespace cudalab::host {

enum exit_code : int {
  exit_ok = 0,
  exit_internal = 1,        ///< a bug in cudalab or an unexpected exception
  exit_usage = 2,           ///< bad command line (unknown option, missing argument)
  exit_bad_lab_file = 3,    ///< a lab file, profile or --set override is invalid
  exit_plugin = 4,          ///< a plugin could not be found or loaded
  exit_no_gpu = 5,          ///< no usable GPU (no driver, no device, stub library)
  exit_verify_failed = 6,   ///< at least one variant computed a wrong result
  exit_cuda_error = 7,      ///< a CUDA call failed (the run may have stopped early)
  exit_lab_error = 8,       ///< a lab raised an error in setup/run/verify (not a CUDA failure)
  exit_interrupted = 130,   ///< Ctrl-C: what was measured is written
};

}  // namespace cudalab::host
