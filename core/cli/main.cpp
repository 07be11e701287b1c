// The cudalab executable: the sub-commands composed (each registers its own options), a command line
// parsed, the one it names run. cudalab's own children have entries of their own (child.cpp).
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <exception>

#include "command.hpp"
#include "exit_codes.hpp"
#include "help_format.hpp"
#include "option_checks.hpp"
#include "results/console_text.hpp"

int main(int argc, char** argv) {
  using namespace cudalab;
  if (const int code = cli::run_child_entry(argc, argv); code >= 0) return code;

  CLI::App app{
      "cudalab: learn and measure GPU memory-access patterns.\n"
      "Runs lab files (TOML) through lab plugins, verifies every variant, times it on the GPU and predicts its "
      "memory transactions on the CPU.",
      "cudalab"};
  // --help wrapped to the terminal; each subcommand takes the formatter when it is added.
  const std::size_t width = host::console_width();
  app.formatter(std::make_shared<cli::wrapped_help>(width));
  app.require_subcommand(1);
  app.set_version_flag("--version", [] { return cli::version_text(); });  // only when asked: it calls CUDA
  std::vector<std::string> codes;
  for (const host::exit_code_meaning& m : host::exit_code_meanings())
    codes.push_back(std::to_string(m.code) + " " + m.meaning);
  app.footer(cli::item_list("Exit codes:", codes, width));

  cli::invocation how;
  how.argv.assign(argv, argv + argc);
  // In the order --help lists them.
  std::vector<cli::command> commands = {cli::add_list(app), cli::add_describe(app), cli::add_validate(app),
                                        cli::add_explain(app), cli::add_run(app, how)};
  for (cli::command& c : cli::add_assignment(app)) commands.push_back(std::move(c));
  for (cli::command c : {cli::add_check(app, how), cli::add_grade(app, how), cli::add_device(app), cli::add_new(app),
                         cli::add_completion(app), cli::add_compare(app), cli::add_export(app), cli::add_plot(app),
                         cli::add_report(app)})
    commands.push_back(std::move(c));

  // A misspelt command gets a clearer answer than CLI11's "a subcommand is required".
  const auto& subcommands = app.get_subcommands({});
  if (argc > 1 && argv[1][0] != '-' && std::none_of(subcommands.begin(), subcommands.end(), [&](const CLI::App* c) {
        return c->get_name() == argv[1];
      })) {
    std::string names;
    for (const CLI::App* c : subcommands) names += (names.empty() ? "" : ", ") + c->get_name();
    fmt::print(stderr, "cudalab: unknown command '{}' - commands: {} (see --help)\n", argv[1], names);
    return host::exit_usage;
  }
  if (const auto mistake = cli::isolate_value_after_space(how.argv)) {
    fmt::print(stderr, "cudalab: {}\n", *mistake);
    return host::exit_usage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? host::exit_ok : host::exit_usage;
  }
  try {
    for (const cli::command& c : commands)
      if (c.app->parsed()) return c.run();
  } catch (const std::exception& e) {
    fmt::print(stderr, "cudalab: internal error: {}\n", e.what());
    return host::exit_internal;
  }
  return host::exit_usage;
}
