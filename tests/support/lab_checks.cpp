// Test helpers: load a plugin by name and verify every variant on the GPU at given parameters.
#include "lab_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "device/gpu_probe.hpp"
#include "runner/host_session.hpp"
#include "plugin/spec_lookup.hpp"
#include "runner/verified_run.hpp"

namespace cudalab::testing {

std::vector<std::filesystem::path> test_plugin_path() {
  return {CUDALAB_PLUGIN_BUILD_DIR, CUDALAB_TEST_PLUGIN_DIR};
}

const host::loaded_plugin& load_test_plugin(const std::string& name) {
  return host::load_plugin(name, test_plugin_path());
}

params params_with(const std::string& plugin, const std::map<std::string, param_value>& overrides) {
  const auto& loaded = load_test_plugin(plugin);
  params p = host::default_params(loaded.spec);
  for (const auto& [key, value] : overrides) {
    EXPECT_TRUE(p.contains(key)) << plugin << " has no parameter " << key;
    p.set(key, value);
  }
  return p;
}

host::access_stats predict_access(const std::string& plugin, const std::string& variant, const params& p) {
  const auto& loaded = load_test_plugin(plugin);
  host::access_model model;
  loaded.instance->trace(p, host::find_variant(loaded.spec, variant), model);
  return model.stats();
}

namespace {
std::string value_text(const param_value& v) {
  std::ostringstream os;
  std::visit([&os](const auto& x) { os << x; }, v);
  return os.str();
}
}  // namespace

std::vector<variant_outcome> verify_variants(const std::string& name,
                                             const std::map<std::string, param_value>& overrides,
                                             const std::vector<std::string>& only) {
  const auto& plugin = load_test_plugin(name);
  params p = host::default_params(plugin.spec);
  std::string point;
  for (const auto& [key, value] : overrides) {
    if (!p.contains(key)) throw std::invalid_argument("test asks for unknown parameter " + key);
    p.set(key, value);
    point += (point.empty() ? "" : " ") + key + "=" + value_text(value);
  }
  plugin.instance->check_params(p);
  static const device_info device = host::read_device_info(0);
  host::host_session session(device, 12345);
  plugin.instance->setup(p, session);
  std::vector<variant_outcome> out;
  try {
    for (const variant_spec& v : plugin.spec.variants) {
      if (!only.empty() && std::find(only.begin(), only.end(), v.name) == only.end()) continue;
      out.push_back({v.name, point, host::run_and_verify(*plugin.instance, v, session)});
    }
  } catch (...) {
    plugin.instance->teardown();
    throw;
  }
  plugin.instance->teardown();
  return out;
}

void expect_all_passed(const std::vector<variant_outcome>& outcomes) {
  EXPECT_FALSE(outcomes.empty());
  for (const auto& o : outcomes) {
    std::string detail;
    for (const auto& m : o.result.first_mismatches) detail += "\n    " + m;
    EXPECT_TRUE(o.result.passed) << o.variant << " at " << o.point << ": " << o.result.mismatches << " of "
                                 << o.result.checked << " wrong (" << o.result.tolerance << ")" << detail
                                 << (o.result.note.empty() ? "" : "\n    " + o.result.note);
  }
}

}  // namespace cudalab::testing
