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

/// Accepts a finite percentage of at least 0, with or without a '%' ("5", "2.5", "10%"), and keeps the
/// number; refuses anything else - negatives, nan, inf, words - in one sentence naming the value.
CLI::Validator percentage();

/// The GPUs of --devices: "0,1" (CUDA ordinals, from 0, comma-separated, a GPU listed twice allowed);
/// nullopt for anything else - nothing, an empty entry, a sign, a word, a number past 1023.
std::optional<std::vector<int>> parse_device_list(const std::string& text);

/// Accepts what parse_device_list accepts; refuses anything else in one sentence naming the value.
CLI::Validator device_list();

/// Accepts one GPU for --device: a CUDA ordinal from 0 to 1023 in digits ("1"); refuses anything else
/// ("-1", "0,1", "gpu1") in one sentence naming the value. Says nothing in --help (the type name does).
CLI::Validator device_ordinal();

/// When `args` (argv) give --isolate followed by one of its values as the next word ("--isolate
/// variant"), which CLI11 would take as a lab file: the message saying to write --isolate=variant.
std::optional<std::string> isolate_value_after_space(const std::vector<std::string>& args);

}  // namespace cudalab::cli
