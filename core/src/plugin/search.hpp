// Finding plugins: the search path, plugin names and their files, the plugins a search path holds.
// A plugin is found by its name, cudalab_NAME.so in the first folder that has it; a lab file names
// its plugin and never gives a path.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cudalab::host {

/// The folders searched for plugins, in order: each entry of `cli_paths` (':'-separated lists
/// allowed), then $CUDALAB_PLUGIN_PATH, then <folder of the executable>/../lib/cudalab/plugins.
std::vector<std::filesystem::path> plugin_search_path(const std::vector<std::string>& cli_paths);

/// The file name a plugin called `name` has: cudalab_<name>.so.
std::string plugin_file_name(const std::string& name);

/// The name of the plugin in `file`: "histo" for ".../cudalab_histo.so" (a file not named that way
/// gives its stem).
std::string plugin_name_of_file(const std::filesystem::path& file);

/// A plugin file that load_plugin never sees: one of the same name is earlier on the search path.
struct shadowed_plugin {
  std::filesystem::path file;  ///< the hidden one
  std::filesystem::path used;  ///< the one found first
};

/// The plugin files (cudalab_*.so) of a search path: each name once, from the first folder that has
/// it (as load_plugin chooses), and the files of the same name in later folders, which they hide. A
/// folder given twice hides nothing.
struct plugin_files {
  std::vector<std::filesystem::path> used;
  std::vector<shadowed_plugin> shadowed;
};
plugin_files scan_plugin_files(const std::vector<std::filesystem::path>& search_path);

/// scan_plugin_files(search_path).used.
std::vector<std::filesystem::path> find_plugin_files(const std::vector<std::filesystem::path>& search_path);

/// The name of a plugin on the search path close enough to `name` to be what was meant.
std::optional<std::string> nearest_plugin_name(const std::string& name,
                                               const std::vector<std::filesystem::path>& search_path);

/// "" when `name` is a plugin name, else why it is not, with the nearest plugin name on the search
/// path (a lab file's `plugin`, `describe NAME`).
std::string plugin_name_problem(const std::string& name, const std::vector<std::filesystem::path>& search_path);

}  // namespace cudalab::host
