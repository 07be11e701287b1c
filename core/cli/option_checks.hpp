// Checks of command-line values that CLI11's own validators get wrong or word badly.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace cudalab::cli {

/// Accepts a finite number of seconds above 0 ("30", "0.5", "1e3"); refuses anything else - 0,
/// negatives, nan, inf, a unit ("5s"), words - in one sentence that names the value given.
CLI::Validator seconds_above_zero();

/// When `args` (argv) give --isolate followed by one of its values as the next word ("--isolate
/// variant"), which CLI11 would take as a lab file: the message saying to write --isolate=variant.
std::optional<std::string> isolate_value_after_space(const std::vector<std::string>& args);

}  // namespace cudalab::cli
