// Helpers the sub-commands share: search path, profile, planning and a run read back, with errors turned
// into exit codes.
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

#include "commands.hpp"
#include "isolation/child_input.hpp"
#include "labfile/lab_file.hpp"
#include "plan/planning.hpp"
#include "results/result_set.hpp"

namespace cudalab::cli {

/// The plugin search path for these options.
std::vector<std::filesystem::path> search_path(const options& o);

/// Loads --config if given (or, in a child of an isolated run, the profile `given` holds). On error
/// prints it and sets `exit_code`.
std::optional<host::run_profile> load_profile(const options& o, int& exit_code,
                                              const host::child_input* given = nullptr);

/// Parses and validates the lab files (their texts from `given` when set); `running` for `run`, whose
/// --submission slots add student variants (parse_submission_arg must have accepted them). On error
/// prints every problem to stderr, sets `exit_code` (bad lab file or plugin failure) and returns nothing.
std::optional<std::vector<host::planned_lab>> plan(const options& o, const host::run_profile* profile, int& exit_code,
                                                   const host::child_input* given = nullptr, bool running = false);

/// The run at `path` (a results folder or its results file) read back; on error prints it and sets
/// `exit_code` (exit_bad_results).
std::optional<host::result_set> read_results(const std::string& path, int& exit_code);

}  // namespace cudalab::cli
