// Loading a plugin file in a child process, to learn its spec without risking this one: a library whose
// static initialiser crashes or never returns costs only the child. `cudalab list` loads every plugin
// on the search path this way. The child is this executable, `cudalab __plugin-probe FILE`: it loads
// the file with every check (plugin/loader.hpp) and sends one JSON line on descriptor 3.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace cudalab::host {

/// The entry of the probe child (`cudalab __plugin-probe FILE`): a command of its own, not for people
/// (not in --help), which main() runs before it parses a command line.
inline constexpr const char* probe_entry = "__plugin-probe";

/// What loading one plugin file gave.
struct plugin_probe {
  bool loaded = false;
  std::string name;  ///< when loaded: its spec's name, title and number of variants
  std::string title;
  std::size_t variants = 0;
  std::string error;  ///< when not: why, in words (the loader's message, or how the child ended)
};

/// Loads `file` in a child process of this executable, killed when it takes longer than `timeout_s`.
plugin_probe probe_plugin(const std::filesystem::path& file, double timeout_s);

/// The probe child: loads `file` and writes what it gave on descriptor 3. Returns the exit code.
int probe_plugin_as_child(const std::filesystem::path& file);

}  // namespace cudalab::host
