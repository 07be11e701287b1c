// cudalab::testing (cudalab/testing.hpp): a plugin loaded, predicted and verified by the host's own
// code, for lab authors' tests in and out of tree.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "cudalab/testing.hpp"
#include "device/gpu_probe.hpp"
#include "labfile/spec_lookup.hpp"
#include "labfile/values.hpp"
#include "model/access_model.hpp"
#include "model/model_device.hpp"
#include "plugin/loader.hpp"
#include "plugin/plugin_call.hpp"
#include "plugin/spec_check.hpp"
#include "runner/host_session.hpp"
#include "runner/verified_run.hpp"

namespace cudalab::testing {

namespace {

using host::plugin_call;

// `value` as the type `spec` declares (an integer stands for a real), or invalid_argument.
param_value typed(const lab_spec& lab, const param_spec& spec, const param_value& value) {
  if (spec.type == param_type::real)
    if (const auto* i = std::get_if<std::int64_t>(&value)) return double(*i);
  static const param_type held[] = {param_type::integer, param_type::real, param_type::boolean, param_type::choice};
  if (held[value.index()] != spec.type)
    throw std::invalid_argument(lab.name + ": parameter '" + spec.name + "' is " + param_type_name(spec.type) +
                                ", not " + param_type_name(held[value.index()]));
  return value;
}

}  // namespace

bool gpu_available(std::string* why) {
  const host::gpu_status status = host::probe_gpu();
  if (!status.usable && why) *why = status.cause;
  return status.usable;
}

struct lab_under_test::impl {
  const host::loaded_plugin* plugin = nullptr;
};

lab_under_test::lab_under_test(const std::string& plugin, const std::vector<std::string>& search_path)
    : impl_(std::make_unique<impl>()) {
  try {
    impl_->plugin = &host::load_named_or_given_plugin(plugin, host::plugin_search_path(search_path));
  } catch (const host::plugin_error& e) {
    throw std::runtime_error(e.what());
  }
}

lab_under_test::~lab_under_test() = default;

const lab_spec& lab_under_test::spec() const { return impl_->plugin->spec; }

const lab& lab_under_test::instance() const { return *impl_->plugin->instance; }

variant_index lab_under_test::variant(const std::string& name) const { return host::variant_of(spec(), name); }

params lab_under_test::with(const std::map<std::string, param_value>& overrides) const {
  const lab_spec& s = spec();
  params p = host::default_params(s);
  for (const auto& [name, value] : overrides) {
    const auto declared =
        std::find_if(s.params.begin(), s.params.end(), [&n = name](const param_spec& ps) { return ps.name == n; });
    if (declared == s.params.end()) throw std::invalid_argument(s.name + " has no parameter '" + name + "'");
    const param_value v = typed(s, *declared, value);
    const std::string problem = host::value_problem(*declared, v);
    if (!problem.empty()) throw std::invalid_argument(s.name + ": " + problem);
    p.set(name, v);
  }
  const plugin_call call{s.name, "check_params", "", host::differing_text(s, p)};
  try {
    impl_->plugin->instance->check_params(p);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(s.name + " rejects the point " + call.point + ": " + e.what());
  } catch (const std::exception& e) {
    throw host::lab_call_error(call, e.what());
  }
  return p;
}

traffic lab_under_test::traffic_of(const std::string& variant_name, const params& p) const {
  const plugin_call call{spec().name, "traffic_of", variant_name, host::differing_text(spec(), p)};
  return host::call_plugin(call, [&] { return impl_->plugin->instance->traffic_of(p, variant(variant_name)); });
}

requirements lab_under_test::requirements_of(const params& p) const {
  const plugin_call call{spec().name, "requirements_of", "", host::differing_text(spec(), p)};
  return host::call_plugin(call, [&] { return impl_->plugin->instance->requirements_of(p); });
}

access_stats lab_under_test::predict(const std::string& variant_name, const params& p) const {
  lab_context context;
  context.seed = 2026;
  context.device = host::model_device();
  host::access_model model;
  const plugin_call call{spec().name, "trace", variant_name, host::differing_text(spec(), p)};
  host::call_plugin(call, [&] { impl_->plugin->instance->trace(p, variant(variant_name), context, model); });
  return model.stats();
}

std::vector<outcome> lab_under_test::verify(const params& p, const std::vector<std::string>& only,
                                            std::uint64_t seed) const {
  return verify_retuned(p, p, only, seed);
}

std::vector<outcome> lab_under_test::verify_retuned(const params& from, const params& p,
                                                    const std::vector<std::string>& only, std::uint64_t seed) const {
  static const device_info device = host::read_device_info(0);
  const lab_spec& s = spec();
  const bool retuned = from.values() != p.values();
  if (retuned && !host::same_data(s, from, p))
    throw std::invalid_argument("verify_retuned: the points differ in a parameter that is not a tuning one ('" +
                                host::differing_text(s, from) + "' and '" + host::differing_text(s, p) + "')");
  const std::string point = host::differing_text(s, p) + (retuned ? " (retuned)" : "");
  std::vector<outcome> out;
  for (const variant_spec& v : s.variants)
    if (only.empty() || std::find(only.begin(), only.end(), v.name) != only.end())
      out.push_back({v.name, point, false, {}, ""});
  for (const std::string& name : only) variant(name);  // an unknown name is the test's mistake: throw

  host::host_session session(device, seed);
  std::unique_ptr<host::live_point> live;
  try {
    live = std::make_unique<host::live_point>(*impl_->plugin->instance, from, session,
                                              plugin_call{s.name, "setup", "", point});
    if (retuned) live->retune(p, plugin_call{s.name, "retune", "", point});
  } catch (const std::exception& e) {
    for (outcome& o : out) o.error = e.what();
    return out;
  }
  for (outcome& o : out) {
    try {
      o.result = live->verified_run(variant(o.variant), plugin_call{s.name, "", o.variant, point}).verdict;
      o.passed = o.result.passed;
    } catch (const std::exception& e) {
      o.error = e.what();
    }
  }
  return out;
}

std::string lab_under_test::failures_at(const std::map<std::string, param_value>& overrides,
                                        const std::vector<std::string>& only) const {
  return failures(verify(with(overrides), only));
}

std::string lab_under_test::failures_retuned(const std::map<std::string, param_value>& from,
                                             const std::map<std::string, param_value>& to,
                                             const std::vector<std::string>& only) const {
  return failures(verify_retuned(with(from), with(to), only));
}

std::vector<std::int64_t> awkward_sizes(std::int64_t lo, std::int64_t hi, std::int64_t at_most) {
  // Tiny, around a warp and a block, no multiple of anything (1000003 and 1048583 are prime), and the top.
  const std::int64_t top = std::min(hi, at_most);
  std::vector<std::int64_t> sizes;
  for (std::int64_t n :
       {std::int64_t(1), std::int64_t(2), std::int64_t(3), std::int64_t(31), std::int64_t(32), std::int64_t(33),
        std::int64_t(255), std::int64_t(256), std::int64_t(257), std::int64_t(1000), std::int64_t(4099),
        std::int64_t(65537), std::int64_t(1000003), std::int64_t(1048583), top, lo})
    if (n >= lo && n <= top && std::find(sizes.begin(), sizes.end(), n) == sizes.end()) sizes.push_back(n);
  std::sort(sizes.begin(), sizes.end());
  return sizes;
}

std::string failures(const std::vector<outcome>& outcomes) {
  std::string text;
  for (const outcome& o : outcomes) {
    if (o.passed) continue;
    std::string line = o.variant + (o.point.empty() ? "" : " at " + o.point) + ": ";
    if (!o.error.empty()) {
      line += o.error;
    } else {
      line += std::to_string(o.result.mismatches) + " of " + std::to_string(o.result.checked) + " wrong (" +
              o.result.tolerance + ")";
      for (const std::string& m : o.result.first_mismatches) line += "; " + m;
      if (!o.result.note.empty()) line += "; " + o.result.note;
    }
    text += line + "\n";
  }
  return text;
}

}  // namespace cudalab::testing
