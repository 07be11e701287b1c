// `cudalab completion bash`: a bash completion script written from the CLI11 app's own commands and
// options, so that it cannot drift from them.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "command.hpp"

namespace cudalab::cli {

/// The bash completion script for `app` (registered for the command `cudalab`, which bash also uses
/// for a path ending in /cudalab): at each level its subcommands, and its options (those hidden from
/// --help left out); values by the type name an option shows in --help - DIR: folders, FILE: files,
/// TOML: *.toml files (and folders to go into), PLUGIN: the plugins on the search path (--plugin-path,
/// $CUDALAB_PLUGIN_PATH, the folder beside the executable) or a file, a set of choices (CLI11's
/// IsMember: "{table,json}"): those words, after a space or an '='. REQUIRES: every option of `app`
/// that takes a value and is shown in --help was given one of those type names or has no completion.
std::string bash_completion(const CLI::App& app);

}  // namespace cudalab::cli
