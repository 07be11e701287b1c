// What several sub-commands share: options registered the same way (the plugin path, the lab files with
// --config, --set and --variant, --wide), and planning with its errors turned into exit codes.
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "labfile/run_profile.hpp"
#include "plan/planning.hpp"
#include "results/result_set.hpp"

namespace cudalab::cli {

/// The options of a command that takes lab files: validate, explain, run.
struct lab_options {
  std::vector<std::string> plugin_paths;  ///< --plugin-path (repeatable, ':'-lists allowed)
  std::string config;                     ///< --config run profile
  std::vector<std::string> sets;          ///< --set key=value
  std::vector<std::string> variants;      ///< --variant NAME
  std::vector<std::string> files;         ///< the lab files
};

/// A repeatable option takes one value each time it is given: CLI11 would otherwise let it take every
/// word after it that is not an option, lab files included (`--plugin-path DIR a.toml b.toml`).
CLI::Option* one_value_each_time(CLI::Option* option);

/// An existing file, said in --help only by the option's own type name (CLI11 would add ":FILE").
CLI::Validator existing_file();

/// --plugin-path DIR, into `paths`.
void add_plugin_path(CLI::App& cmd, std::vector<std::string>& paths);

/// --plugin-path, --config, --set, --variant and the lab files.
void add_lab_options(CLI::App& cmd, lab_options& o);

/// --wide, of the commands that print tables.
void add_wide(CLI::App& cmd, bool& wide);

/// The plugin search path for `plugin_paths` (--plugin-path, then $CUDALAB_PLUGIN_PATH, then beside us).
std::vector<std::filesystem::path> search_path(const std::vector<std::string>& plugin_paths);

/// Loads the run profile `config` ("": the defaults), or, given its text, from that. On error prints it
/// and sets `exit_code`.
std::optional<host::run_profile> load_profile(const std::string& config, int& exit_code,
                                              const std::string* text = nullptr);

/// Parses and validates `request`'s lab files. On error prints every problem to stderr, sets
/// `exit_code` (bad lab file, plugin failure, a lab's own error) and returns nothing.
std::optional<std::vector<host::planned_lab>> plan(const host::plan_request& request, int& exit_code);

/// The plan request of a command's lab options (the plugins found on their search path).
host::plan_request plan_request_of(const lab_options& o, const host::run_profile* profile);

/// The run at `path` (a results folder or its results file) read back; on error prints it and sets
/// `exit_code` (exit_bad_results).
std::optional<host::result_set> read_results(const std::string& path, int& exit_code);

}  // namespace cudalab::cli
