// The exit code of a finished run (README.md: exit codes), with a line saying why where it helps.
#include "exit_codes.hpp"

#include <fmt/format.h>

#include "runner/runner.hpp"

namespace cudalab::host {

int exit_code_of(const run_summary& summary, bool quiet) {
  if (summary.interrupted) {
    if (!quiet) fmt::print(stderr, "cudalab: interrupted; the results measured so far are written\n");
    return exit_interrupted;
  }
  if (summary.cuda_fatal) {
    fmt::print(stderr, "cudalab: stopped early after a CUDA error that leaves the GPU unusable: {}\n",
               summary.fatal_message);
    return exit_cuda_error;
  }
  if (summary.cuda_errors > 0) return exit_cuda_error;
  if (summary.errors > 0) return exit_lab_error;
  if (summary.verify_failures > 0) {
    if (!quiet) fmt::print(stderr, "cudalab: {} variant(s) failed verification\n", summary.verify_failures);
    return exit_verify_failed;
  }
  return exit_ok;
}

}  // namespace cudalab::host
