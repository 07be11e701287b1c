// Test helpers for the host's own tests: where the build tree's plugins are, and loading one.
#include "test_plugins.hpp"

namespace cudalab::host::testing {

std::vector<std::filesystem::path> test_plugin_path() { return {CUDALAB_PLUGIN_BUILD_DIR, CUDALAB_TEST_PLUGIN_DIR}; }

const loaded_plugin& load_test_plugin(const std::string& name) { return load_plugin(name, test_plugin_path()); }

}  // namespace cudalab::host::testing
