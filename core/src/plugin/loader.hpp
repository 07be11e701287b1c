// Finding and loading lab plugins (Boost.DLL): search path, ABI check, plugins kept loaded for good.
#pragma once

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cudalab/lab.hpp"

namespace cudalab::host {

/// Why a plugin could not be loaded.
enum class plugin_failure { not_found, not_loadable, not_a_plugin, abi_mismatch, factory_failed, bad_spec };

/// A plugin that could not be loaded; what() names the file (or the name searched for) and the cause.
class plugin_error : public std::runtime_error {
 public:
  plugin_error(plugin_failure why, const std::string& message) : std::runtime_error(message), why_(why) {}
  plugin_failure why() const noexcept { return why_; }

 private:
  plugin_failure why_;
};

/// A loaded plugin: its file, its one lab instance, and the spec it declared.
struct loaded_plugin {
  std::filesystem::path file;
  std::shared_ptr<lab> instance;
  lab_spec spec;
};

/// The folders searched for plugins, in order: each entry of `cli_paths` (':'-separated lists
/// allowed), then $CUDALAB_PLUGIN_PATH, then <folder of the executable>/../lib/cudalab/plugins.
std::vector<std::filesystem::path> plugin_search_path(const std::vector<std::string>& cli_paths);

/// The file name a plugin called `name` has: cudalab_<name>.so.
std::string plugin_file_name(const std::string& name);

/// Loads the plugin file at `file` (or returns the one already loaded from it), checking its ABI version
/// and boundary hash, and its spec (spec_check.hpp). Plugins are never
/// unloaded: the CUDA runtime keeps pointers into their registered kernels until the process ends.
/// Throws plugin_error.
const loaded_plugin& load_plugin_file(const std::filesystem::path& file);

/// Loads the plugin called `name` from the first folder of `search_path` that has it; a `name`
/// containing '/' or ending in ".so" is taken as a file path. Throws plugin_error (not_found lists
/// the folders searched).
const loaded_plugin& load_plugin(const std::string& name, const std::vector<std::filesystem::path>& search_path);

/// Every plugin file (cudalab_*.so) in the search path; a name found twice is listed once (the
/// first wins, as load_plugin would choose).
std::vector<std::filesystem::path> find_plugin_files(const std::vector<std::filesystem::path>& search_path);

}  // namespace cudalab::host
