// Test helpers for the host's own tests: where the build tree's plugins are, and loading one.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "plugin/loader.hpp"

namespace cudalab::host::testing {

/// The search path tests use: the build tree's real plugins and the fake labs.
std::vector<std::filesystem::path> test_plugin_path();

/// Loads a plugin from the test search path (throws plugin_error if missing).
const loaded_plugin& load_test_plugin(const std::string& name);

}  // namespace cudalab::host::testing
