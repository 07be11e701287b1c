// Checks of command-line values that CLI11's own validators get wrong or word badly.
#pragma once

#include <CLI/CLI.hpp>

namespace cudalab::cli {

/// Accepts a finite number of seconds above 0 ("30", "0.5", "1e3"); refuses anything else - 0,
/// negatives, nan, inf, a unit ("5s"), words - in one sentence that names the value given.
CLI::Validator seconds_above_zero();

}  // namespace cudalab::cli
