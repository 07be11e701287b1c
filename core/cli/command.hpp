// The sub-commands of the cudalab executable: each registers its own options on a CLI11 app of its own
// and maps them to a request of the core; main() composes them.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace cudalab::cli {

/// How cudalab was started: its argv, as given.
struct invocation {
  std::vector<std::string> argv;

  /// argv joined by spaces, for the results' context.
  std::string command_line() const;
  /// This executable: /proc/self/exe resolved, else argv[0] (children and re-runs start it).
  std::string program() const;
};

/// A sub-command as main() composes them: its app (main() asks it whether the command line named it)
/// and what runs it, with the options it parsed. Returns the process exit code (core/src/exit_codes.hpp).
struct command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

// Each adds its sub-command to `app` with its options (the file of the same name).
command add_list(CLI::App& app);
command add_describe(CLI::App& app);
command add_validate(CLI::App& app);
command add_explain(CLI::App& app);
command add_run(CLI::App& app, const invocation& how);
command add_device(CLI::App& app);
/// `assignment init` and `assignment starter`, under `assignment` (assignment.cpp).
std::vector<command> add_assignment(CLI::App& app);
command add_check(CLI::App& app, const invocation& how);
command add_grade(CLI::App& app, const invocation& how);
command add_new(CLI::App& app);
/// Writes the completion script of `app` itself, all its commands registered (completion.cpp).
command add_completion(CLI::App& app);
command add_compare(CLI::App& app);
command add_export(CLI::App& app);
command add_plot(CLI::App& app);
command add_report(CLI::App& app);

/// `validate` of an assignment file (one with an [assignment] table), its plugins on `plugin_paths`.
int validate_assignment(const std::vector<std::string>& plugin_paths, const std::string& file);

/// What `--version` prints (version.cpp), without a trailing newline.
std::string version_text();

/// The entries of cudalab's own children, which main() runs before it parses a command line (not for
/// people, not in --help): `cudalab __child` (a child of a run, its plan on stdin; child.cpp) and
/// `cudalab __plugin-probe FILE` (list's child loading one plugin). -1 when argv names neither.
int run_child_entry(int argc, char** argv);

}  // namespace cudalab::cli
