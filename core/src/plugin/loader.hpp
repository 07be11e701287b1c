// Loading lab plugins (Boost.DLL): by name from the search path (search.hpp), the ABI and spec checks,
// plugins kept loaded for good.
#pragma once

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cudalab/lab.hpp"
#include "labfile/problems.hpp"
#include "plugin/search.hpp"

namespace cudalab::host {

/// Why a plugin could not be loaded.
enum class plugin_failure { not_a_name, not_found, not_loadable, not_a_plugin, abi_mismatch, factory_failed, bad_spec };

/// A plugin that could not be loaded; what() names the file (or the name searched for) and the cause,
/// after the place that named the plugin when it is known ("lab.toml:3:10: no plugin 'x' ...").
class plugin_error : public std::runtime_error {
 public:
  plugin_error(plugin_failure why, const std::string& message) : std::runtime_error(message), why_(why) {}
  /// `e`, said at `where` (a lab file's `plugin` key).
  plugin_error(const plugin_error& e, const source_location& where)
      : std::runtime_error(where.text() + ": " + e.what()), why_(e.why_), located_(true) {}
  plugin_failure why() const noexcept { return why_; }
  /// True when what() starts with the place that named the plugin.
  bool located() const noexcept { return located_; }

 private:
  plugin_failure why_;
  bool located_ = false;
};

/// A loaded plugin: its file, its one lab instance, and the spec it declared.
struct loaded_plugin {
  std::filesystem::path file;
  std::shared_ptr<lab> instance;
  lab_spec spec;
};

/// Loads the plugin file at `file` (or returns the one already loaded from it), checking its ABI version
/// and boundary hash, and its spec (spec_check.hpp). Plugins are never
/// unloaded: the CUDA runtime keeps pointers into their registered kernels until the process ends.
/// Throws plugin_error.
const loaded_plugin& load_plugin_file(const std::filesystem::path& file);

/// Loads the plugin called `name` (search.hpp) from the first folder of `search_path` that has it;
/// never a path. Throws plugin_error: not_a_name, or not_found listing the folders searched and the
/// nearest plugin name found in them.
const loaded_plugin& load_plugin(const std::string& name, const std::vector<std::filesystem::path>& search_path);

/// A plugin given by a person on the command line (`describe`) or by a lab author's test code: a path
/// (with a '/' or ending in ".so") is loaded as that file, anything else as a name. Lab files give a
/// name only: they are data, and loading a library runs its code.
const loaded_plugin& load_named_or_given_plugin(const std::string& name_or_file,
                                                const std::vector<std::filesystem::path>& search_path);

}  // namespace cudalab::host
