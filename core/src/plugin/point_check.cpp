// The lab's check_params() as the lab-file validator asks it (point_check.hpp).
#include "plugin/point_check.hpp"

#include <stdexcept>

#include "labfile/spec_lookup.hpp"
#include "plugin/plugin_call.hpp"

namespace cudalab::host {

point_check check_params_of(const loaded_plugin& plugin) {
  return [&plugin](const params& p) -> std::string {
    try {
      plugin.instance->check_params(p);
      return "";
    } catch (const std::invalid_argument& e) {
      return e.what();
    } catch (const std::exception& e) {
      throw lab_call_error(plugin_call{plugin.spec.name, "check_params", "", differing_text(plugin.spec, p)}, e.what());
    }
  };
}

}  // namespace cudalab::host
