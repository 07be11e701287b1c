// An assignment's sanitizer test: the test's lab file run by `cudalab run --isolate=none` under
// compute-sanitizer with the test's tool, against the built submission; its findings (each report's
// first line and where it happened) become the test's details. memcheck pads every allocation, so that
// a read one element past an input's end is an error even where the next allocation begins right there.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "assignment/test_scoring.hpp"
#include "process/child_process.hpp"
#include "process/sandbox.hpp"

namespace cudalab::host {

/// What a sanitizer test runs.
struct sanitizer_run {
  std::string program;  ///< this executable
  std::vector<std::filesystem::path> search_path;
  std::filesystem::path lab_file;  ///< the test's lab file
  std::string slot;
  std::string built;                     ///< the submission as built for the GPU (or its source)
  std::filesystem::path out;             ///< the run's results folder
  double timeout_s = 0;                  ///< the child's budget (the sanitizer slows kernels down many times)
  int max_details = 10;                  ///< findings kept, at most
  std::optional<child_limits> limits;    ///< the assignment's [limits], as the tests' children have them
  std::optional<child_sandbox> sandbox;  ///< the run in this sandbox when set, with copies of what it reads
};

/// Bytes of compute-sanitizer's padding after each allocation under memcheck (--padding): without it an
/// overrun that lands in the next allocation (an input of a whole number of 2 MiB pages, its neighbour
/// right behind it) is a valid access; with it, any overrun of up to this many bytes is an error.
inline constexpr unsigned sanitizer_padding_bytes = 64 * 1024;

/// compute-sanitizer's options for `tool` ("memcheck", "racecheck", ...), before the program it runs: the
/// tool, the exit code of a run with findings (exit_cuda_error), at most 10 reports, memcheck's padding
/// (sanitizer_padding_bytes), racecheck's hazards only.
std::vector<std::string> sanitizer_options(const std::string& tool);

/// Why no sanitizer test can run here: "compute-sanitizer (CUDA toolkit) was not found; looked in DIR, DIR,
/// ..." (toolkit_folders(): $PATH, beside nvcc, $CUDA_HOME/bin, /usr/local/cuda/bin); nullopt when it is
/// there. `grade` stops on it before grading anything (exit 5); `check` marks the tests `error`.
std::optional<std::string> sanitizer_missing();

/// Runs test `o.test` (kind sanitizer) as `s` says and scores it: all its points when the sanitizer
/// finds nothing and the run verifies; failed with the findings; timed_out or error when the run did
/// not end (what happened in the message). Without compute-sanitizer, error, not run: the message says
/// what is missing and where it was looked for (sanitizer_missing), never a silent 0.
void run_sanitizer_test(test_outcome& o, const sanitizer_run& s);

}  // namespace cudalab::host
