// The lab-file fuzz target: any bytes given as a lab file are parsed and validated against the real
// plugins' specs, and must end in a plan or a lab_file_error - never a crash, a hang or another exception.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "labfile/lab_file.hpp"
#include "plugin/loader.hpp"
#include "plugin/point_check.hpp"

namespace {

// Every plugin in the folders this target was built with (CUDALAB_FUZZ_PLUGIN_DIRS, ':'-separated),
// by name. Loaded once: plugins are never unloaded, and loading is not what is being fuzzed.
const std::map<std::string, const cudalab::host::loaded_plugin*>& fuzz_plugins() {
  static const auto plugins = [] {
    std::map<std::string, const cudalab::host::loaded_plugin*> found;
    const auto path = cudalab::host::plugin_search_path({CUDALAB_FUZZ_PLUGIN_DIRS});
    for (const auto& file : cudalab::host::find_plugin_files(path)) {
      try {
        const auto& p = cudalab::host::load_plugin_file(file);
        found.emplace(p.spec.name, &p);
      } catch (const cudalab::host::plugin_error&) {
        // Broken plugins in the folders are not the subject here.
      }
    }
    return found;
  }();
  return plugins;
}

}  // namespace

/// libFuzzer's entry point (also called by the corpus replay test). Always returns 0.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cudalab::host;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const lab_file parsed = parse_lab_text(text, "fuzz.toml");
    const auto& plugins = fuzz_plugins();
    const auto it = plugins.find(parsed.plugin);
    if (it == plugins.end()) return 0;
    const lab_plan plan = validate_lab_file(parsed, it->second->spec, check_params_of(*it->second), nullptr, {});
    // What `run` does next with a valid plan, short of the GPU: expand the first and last points and
    // ask the lab what they need (check_memory's question).
    const std::uint64_t points = plan.point_count();
    for (const std::uint64_t i : {std::uint64_t(0), points - 1}) {
      const cudalab::params p = plan.point(i);
      (void)plan.point_labels(i);
      (void)it->second->instance->requirements_of(p);
    }
  } catch (const lab_file_error&) {
    // The expected answer to a bad lab file.
  }
  return 0;
}
