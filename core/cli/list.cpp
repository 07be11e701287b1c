// `cudalab list`: every plugin on the search path, with its title and variants.
#include <fmt/format.h>

#include <cstdio>

#include "commands.hpp"
#include "common.hpp"
#include "exit_codes.hpp"
#include "plugin/loader.hpp"
#include "plugin/names.hpp"

namespace cudalab::cli {

int list_command(const options& o) {
  const auto path = search_path(o);
  const auto [files, shadowed] = host::scan_plugin_files(path);
  int code = host::exit_ok;
  if (files.empty()) {
    std::string searched;
    for (const auto& d : path) searched += "\n  " + host::printable(d.string());
    fmt::print(stderr, "cudalab: no plugins found; searched:{}\n", searched);
    return host::exit_plugin;
  }
  for (const auto& f : files) {
    try {
      const auto& p = host::load_plugin_file(f);
      fmt::print("{:<16} {} ({} variants)\n", p.spec.name, p.spec.title, p.spec.variants.size());
    } catch (const host::plugin_error& e) {
      fmt::print(stderr, "cudalab: skipped {}: {}\n", host::printable(f.filename().string()), e.what());
      code = host::exit_plugin;
    }
  }
  for (const auto& s : shadowed)
    fmt::print(stderr, "cudalab: {} is not used: {}, earlier on the search path, has its name\n",
               host::printable(s.file.string()), host::printable(s.used.string()));
  return code;
}

}  // namespace cudalab::cli
