// Plugin loading with Boost.DLL: the ABI and spec checks, plugins kept loaded until the process exits.
#include "plugin/loader.hpp"

#include <boost/dll/shared_library.hpp>

#include <map>
#include <sstream>

#include "cudalab/plugin.hpp"
#include "plugin/plugin_call.hpp"
#include "plugin/spec_check.hpp"
#include "results/console_text.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

namespace {

// Never destroyed: unloading a library whose fatbinary the CUDA runtime registered is unsafe.
std::map<fs::path, loaded_plugin>& loaded() {
  static auto* plugins = new std::map<fs::path, loaded_plugin>();
  return *plugins;
}
std::vector<boost::dll::shared_library>& libraries() {
  static auto* libs = new std::vector<boost::dll::shared_library>();
  return *libs;
}

std::string hex(std::uint64_t v) {
  std::ostringstream os;
  os << std::hex << v;
  return os.str();
}

// A path as messages show it (printable: console_text.hpp).
std::string shown(const fs::path& path) { return printable(path.string()); }

}  // namespace

const loaded_plugin& load_plugin_file(const fs::path& file) {
  std::error_code fec;
  const fs::path canonical = fs::weakly_canonical(file, fec);
  const fs::path key = fec ? file : canonical;
  if (auto it = loaded().find(key); it != loaded().end()) return it->second;
  if (!fs::exists(key)) throw plugin_error(plugin_failure::not_found, "plugin file " + shown(file) + " does not exist");

  boost::dll::shared_library lib;
  try {
    lib.load(key, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
  } catch (const std::exception& e) {
    throw plugin_error(plugin_failure::not_loadable, shown(key) + ": cannot be loaded: " + e.what());
  }
  if (!lib.has("cudalab_create_lab") || !lib.has("cudalab_abi_version")) {
    libraries().push_back(std::move(lib));
    throw plugin_error(plugin_failure::not_a_plugin,
                       shown(key) +
                           ": not a cudalab plugin (no cudalab_create_lab / cudalab_abi_version "
                           "symbol; did it use CUDALAB_REGISTER_LAB?)");
  }
  const int abi = lib.get_alias<const int>("cudalab_abi_version");
  if (abi != CUDALAB_ABI_VERSION) {
    libraries().push_back(std::move(lib));
    throw plugin_error(plugin_failure::abi_mismatch, shown(key) + ": plugin ABI version " + std::to_string(abi) +
                                                         " does not match this cudalab's ABI version " +
                                                         std::to_string(CUDALAB_ABI_VERSION) +
                                                         "; rebuild the plugin against this cudalab");
  }
  const std::uint64_t hash = lib.has("cudalab_abi_hash") ? lib.get_alias<const std::uint64_t>("cudalab_abi_hash") : 0;
  if (hash != CUDALAB_ABI_HASH) {
    libraries().push_back(std::move(lib));
    throw plugin_error(plugin_failure::abi_mismatch,
                       shown(key) + ": built against other plugin headers (ABI hash " + hex(hash) +
                           ") than this cudalab's (" + hex(CUDALAB_ABI_HASH) +
                           "): a boundary header changed since; rebuild the plugin against this cudalab");
  }
  auto& factory = lib.get_alias<lab_factory>("cudalab_create_lab");
  libraries().push_back(std::move(lib));

  // A refused lab is destroyed here, while its library (kept in libraries()) is still loaded; an accepted
  // one lives as long as the process.
  std::unique_ptr<lab> made;
  try {
    made = factory();
    if (!made) throw std::runtime_error("the factory returned no lab");
  } catch (const std::exception& e) {
    throw plugin_error(plugin_failure::factory_failed, shown(key) + ": creating the lab failed: " + e.what());
  } catch (...) {
    throw plugin_error(plugin_failure::factory_failed, shown(key) + ": creating the lab failed (unknown exception)");
  }
  loaded_plugin plugin;
  plugin.file = key;
  const std::string expected = plugin_name_of_file(key);
  const std::string expected_shown = printable(expected);
  try {
    plugin.spec = call_plugin(plugin_call{expected_shown, "spec", "", ""}, [&] { return made->spec(); });
  } catch (const lab_call_error& e) {
    throw plugin_error(plugin_failure::bad_spec, shown(key) + ": " + e.what());
  }
  const std::vector<std::string> problems = spec_problems(plugin.spec, expected);
  if (!problems.empty()) {
    std::string text = shown(key) + ": the lab's spec() is wrong:";
    for (const std::string& p : problems) text += "\n  " + expected_shown + ": spec(): " + p;
    throw plugin_error(plugin_failure::bad_spec, text);
  }
  plugin.instance = std::shared_ptr<lab>(made.release(), [](lab*) {
    // Deliberately leaked with its library: see libraries().
  });
  return loaded().emplace(key, std::move(plugin)).first->second;
}

const loaded_plugin& load_plugin(const std::string& name, const std::vector<fs::path>& search_path) {
  if (const std::string problem = plugin_name_problem(name, search_path); !problem.empty())
    throw plugin_error(plugin_failure::not_a_name, problem);
  const std::string file = plugin_file_name(name);
  for (const auto& dir : search_path) {
    std::error_code ec;
    if (fs::is_regular_file(dir / file, ec)) return load_plugin_file(dir / file);
  }
  std::string searched;
  for (const auto& dir : search_path) searched += "\n  " + shown(dir);
  const auto near = nearest_plugin_name(name, search_path);
  throw plugin_error(
      plugin_failure::not_found,
      "no plugin '" + name + "'" + (near ? "; did you mean '" + *near + "'?" : "") + " (looked for " + file +
          " in:" + (searched.empty() ? std::string("\n  (no folders)") : searched) +
          ")\n  use --plugin-path or CUDALAB_PLUGIN_PATH to add a folder; `cudalab list` shows what is found");
}

const loaded_plugin& load_named_or_given_plugin(const std::string& name_or_file,
                                                const std::vector<fs::path>& search_path) {
  const std::string so = ".so";
  const bool is_file =
      name_or_file.find('/') != std::string::npos ||
      (name_or_file.size() > so.size() && name_or_file.compare(name_or_file.size() - so.size(), so.size(), so) == 0);
  return is_file ? load_plugin_file(name_or_file) : load_plugin(name_or_file, search_path);
}

}  // namespace cudalab::host
