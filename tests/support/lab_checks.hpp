// Test helpers: load a plugin by name and verify every variant on the GPU at given parameters.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "cudalab/lab.hpp"
#include "model/access_model.hpp"
#include "plugin/loader.hpp"

namespace cudalab::testing {

/// The search path tests use: the build tree's real plugins and the test plugins.
std::vector<std::filesystem::path> test_plugin_path();

/// Loads a plugin from the test search path (fails the test via exception if missing).
const host::loaded_plugin& load_test_plugin(const std::string& name);

/// The plugin's default parameters with `overrides` applied; overriding an undeclared parameter
/// fails the test.
params params_with(const std::string& plugin, const std::map<std::string, param_value>& overrides);

/// What the access model predicts for `variant` of `plugin` at `p` (CPU only, no setup).
host::access_stats predict_access(const std::string& plugin, const std::string& variant, const params& p);

/// One failed or passed (variant, parameters) check, in words.
struct variant_outcome {
  std::string variant;
  std::string point;  ///< the overridden parameters, "n=33 offset=1"
  check result;
};

/// For the plugin `name`: setup at the defaults overridden by `overrides`, then for every variant
/// (or those listed in `only`): poison, run once, verify. REQUIRES: a usable GPU.
std::vector<variant_outcome> verify_variants(const std::string& name,
                                             const std::map<std::string, param_value>& overrides,
                                             const std::vector<std::string>& only = {});

/// Expects every outcome passed; prints the mismatches of those that did not.
void expect_all_passed(const std::vector<variant_outcome>& outcomes);

}  // namespace cudalab::testing
