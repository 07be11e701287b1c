// `cudalab list`: every plugin on the search path, with its title and variants. Each plugin is loaded
// in a child process (plugin_probe.hpp): one whose initialiser crashes or hangs is skipped, not fatal.
#include <fmt/format.h>

#include <memory>

#include "command.hpp"
#include "common.hpp"
#include "exit_codes.hpp"
#include "option_checks.hpp"
#include "plugin/loader.hpp"
#include "plugin/plugin_probe.hpp"
#include "results/console_text.hpp"

namespace cudalab::cli {

namespace {

// How long `list` lets one plugin take to load, unless --timeout says.
constexpr double list_timeout_s = 10;

struct list_options {
  std::vector<std::string> plugin_paths;
  double timeout_s = 0;
};

int list(const list_options& o) {
  const auto path = search_path(o.plugin_paths);
  const auto [files, shadowed] = host::scan_plugin_files(path);
  int code = host::exit_ok;
  if (files.empty()) {
    std::string searched;
    for (const auto& d : path) searched += "\n  " + host::printable(d.string());
    fmt::print(stderr, "cudalab: no plugins found; searched:{}\n", searched);
    return host::exit_plugin;
  }
  const double timeout_s = o.timeout_s > 0 ? o.timeout_s : list_timeout_s;
  for (const auto& f : files) {
    const host::plugin_probe p = host::probe_plugin(f, timeout_s);
    if (p.loaded) {
      fmt::print("{:<16} {} ({} variants)\n", p.name, p.title, p.variants);
    } else {
      fmt::print(stderr, "cudalab: skipped {}: {}\n", host::printable(f.filename().string()),
                 host::printable(p.error, host::text_lines::kept));
      code = host::exit_plugin;
    }
  }
  for (const auto& s : shadowed)
    fmt::print(stderr, "cudalab: {} is not used: {}, earlier on the search path, has its name\n",
               host::printable(s.file.string()), host::printable(s.used.string()));
  return code;
}

}  // namespace

command add_list(CLI::App& app) {
  auto o = std::make_shared<list_options>();
  auto* cmd = app.add_subcommand("list", "List the lab plugins found on the plugin search path");
  add_plugin_path(*cmd, o->plugin_paths);
  cmd->add_option("--timeout", o->timeout_s,
                  "Each plugin is loaded in a child process: skip one that takes longer than SECONDS (default " +
                      std::to_string(static_cast<int>(list_timeout_s)) + ")")
      ->check(seconds_above_zero());
  return {cmd, [o] { return list(*o); }};
}

}  // namespace cudalab::cli
