// Helpers the sub-commands share: search path, profile, planning with errors turned into exit codes.
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

#include "commands.hpp"
#include "labfile/lab_file.hpp"
#include "planning.hpp"

namespace cudalab::cli {

/// The plugin search path for these options.
std::vector<std::filesystem::path> search_path(const options& o);

/// Loads --config if given. On error prints it and sets `exit_code`.
std::optional<host::run_profile> load_profile(const options& o, int& exit_code);

/// Parses and validates the lab files. On error prints every problem to stderr, sets `exit_code`
/// (bad lab file or plugin failure) and returns nothing.
std::optional<std::vector<host::planned_lab>> plan(const options& o, const host::run_profile* profile, int& exit_code);

}  // namespace cudalab::cli
