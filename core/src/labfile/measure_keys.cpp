// The [measure] keys shared by lab files, profiles and --set, said once: one table of names, the
// settings they fill, their ranges and meanings drives reading, checking and layering them.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "labfile/toml_tree.hpp"

namespace cudalab::host {
namespace {

// Where a key's value goes: the setting, and the optional of an overlay. Its type is the key's kind:
// bool a boolean, int and uint64 an integer, double a number of milliseconds.
template <typename T>
struct slot {
  using value_type = T;
  T measure_settings::*setting;
  std::optional<T> measure_overrides::*given;
};

struct measure_key {
  const char* name;
  std::variant<slot<bool>, slot<int>, slot<double>, slot<std::uint64_t>> field;
  std::int64_t min;                 ///< the least value (integers and milliseconds)
  std::optional<std::int64_t> max;  ///< the largest value, if any
  const char* doc;
  bool above_min = false;             ///< values must be greater than min, not equal to it
  const char* unit = "milliseconds";  ///< what a number key's value counts, for its messages
};

// In documentation order; docs/lab-files.md has the same table for people.
const std::vector<measure_key>& measure_keys() {
  static const std::vector<measure_key> keys = {
      {"timing",
       slot<bool>{&measure_settings::timing, &measure_overrides::timing},
       0,
       {},
       "false: verify each variant at each point, time nothing"},
      // The upper bounds of the timing keys keep a run to a sane length: at most 10 s per repetition
      // and 10000 repetitions, each variant at each point.
      {"repetitions", slot<int>{&measure_settings::repetitions, &measure_overrides::repetitions}, 1, 10000,
       "least timed repetitions before the precision may stop the timing; median, min, max and CV are over "
       "the repetitions"},
      {"max_repetitions", slot<int>{&measure_settings::max_repetitions, &measure_overrides::max_repetitions}, 1, 10000,
       "most timed repetitions (repetitions, where that is larger)"},
      {"min_time_ms", slot<double>{&measure_settings::min_time_ms, &measure_overrides::min_time_ms}, 0, 10000,
       "least GPU time per repetition, ms (launches are batched to reach it)", true},
      {"max_time_ms", slot<double>{&measure_settings::max_time_ms, &measure_overrides::max_time_ms}, 0, 600000,
       "most GPU time of a result's repetitions together, ms: the timing stops once it is spent", true},
      {"precision_pct", slot<double>{&measure_settings::precision_pct, &measure_overrides::precision_pct}, 0, 100,
       "stop once the 95% interval of the median lies within this % of it (from 6 repetitions on); 0: run "
       "max_repetitions",
       false, "percent"},
      {"warmup_ms", slot<double>{&measure_settings::warmup_ms, &measure_overrides::warmup_ms}, 0, 10000,
       "untimed warm-up before the first repetition, ms"},
      {"l2_flush",
       slot<bool>{&measure_settings::l2_flush, &measure_overrides::l2_flush},
       0,
       {},
       "flush L2 before each timed sample, after resetting persisting L2 lines, the persisting set-aside and the "
       "timed stream's access policy window (outside the timed region; forces batch 1)"},
      {"batch", slot<int>{&measure_settings::batch, &measure_overrides::batch}, 0, 1000000,
       "launches per timed sample; 0 = automatic"},
      {"seed",
       slot<std::uint64_t>{&measure_settings::seed, &measure_overrides::seed},
       0,
       {},
       "seed for the lab's random inputs"},
      // check_params() runs on every point before anything starts, so there is a hard cap.
      {"max_points", slot<std::uint64_t>{&measure_settings::max_points, &measure_overrides::max_points}, 1, 100000,
       "refuse sweeps with more points"},
      {"verify_after_timing",
       slot<bool>{&measure_settings::verify_after_timing, &measure_overrides::verify_after_timing},
       0,
       {},
       "after timing, poison the outputs, launch once more and verify again: a variant right only on its first "
       "launch fails"},
      {"poison_each_launch",
       slot<bool>{&measure_settings::poison_each_launch, &measure_overrides::poison_each_launch},
       0,
       {},
       "before every timed launch, fill the poisoned outputs as before a verified run (outside the timed region): "
       "a variant that computes only when it finds its outputs poisoned is timed computing"},
      {"census",
       slot<bool>{&measure_settings::census, &measure_overrides::census},
       0,
       {},
       "record every kernel, copy and memset of each verified run with CUPTI (the result's census); never "
       "while timing"},
  };
  return keys;
}

const measure_key* find_key(const std::string& name) {
  for (const measure_key& k : measure_keys())
    if (name == k.name) return &k;
  return nullptr;
}

// A key's range in words: "[1, 1000000]", "(0, 10000]", "(at least 0)" or "(more than 0)".
std::string range_text(const measure_key& key) {
  const std::string min = std::to_string(key.min);
  if (!key.max) return (key.above_min ? "(more than " : "(at least ") + min + ")";
  return (key.above_min ? "(" : "[") + min + ", " + std::to_string(*key.max) + "]";
}

// Reads `value` as `key`'s kind into `out`; returns "" or what is wrong.
std::string read_value(const measure_key& key, const toml::node& value, bool& out) {
  if (auto b = value.as_boolean()) {
    out = b->get();
    return "";
  }
  return std::string("measure.") + key.name + " must be a boolean (true or false), not " + describe_node(value);
}

std::string read_value(const measure_key& key, const toml::node& value, std::int64_t& out) {
  const std::string name = std::string("measure.") + key.name;
  auto i = value.as_integer();
  if (!i) return name + " must be an integer, not " + describe_node(value);
  const std::int64_t v = i->get();
  if (v < key.min || (key.above_min && v == key.min) || (key.max && v > *key.max))
    return name + " = " + std::to_string(v) + " is out of range " + range_text(key);
  out = v;
  return "";
}

std::string read_value(const measure_key& key, const toml::node& value, double& out) {
  const std::string name = std::string("measure.") + key.name;
  double v = 0;
  if (auto i = value.as_integer())
    v = static_cast<double>(i->get());
  else if (auto f = value.as_floating_point())
    v = f->get();
  else
    return name + " must be a number of " + key.unit + ", not " + describe_node(value);
  if (!std::isfinite(v)) return name + " = " + value_text(param_value(v)) + " is not a finite number of " + key.unit;
  const auto min = static_cast<double>(key.min);
  if ((key.above_min ? v <= min : v < min) || (key.max && v > static_cast<double>(*key.max)))
    return name + " = " + value_text(param_value(v)) + " is out of range " + range_text(key) + " (" + key.unit + ")";
  out = v;
  return "";
}

}  // namespace

std::vector<std::pair<std::string, std::string>> measure_values(const measure_settings& settings) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const measure_key& k : measure_keys())
    std::visit(
        [&](const auto& f) {
          using T = typename std::decay_t<decltype(f)>::value_type;
          const T v = settings.*(f.setting);
          if constexpr (std::is_same_v<T, bool>)
            out.emplace_back(k.name, v ? "true" : "false");
          else if constexpr (std::is_same_v<T, double>)
            out.emplace_back(k.name, value_text(param_value(v)));
          else
            out.emplace_back(k.name, std::to_string(v));
        },
        k.field);
  return out;
}

const std::vector<std::string>& measure_key_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const measure_key& k : measure_keys()) all.emplace_back(k.name);
    return all;
  }();
  return names;
}

std::string set_measure_key(measure_overrides& overrides, const std::string& name, const toml::node& value) {
  const measure_key* key = find_key(name);
  if (!key) return "unknown key '" + name + "' in [measure]" + suggestion(name, measure_key_names());
  return std::visit(
      [&](auto f) -> std::string {
        using T = typename decltype(f)::value_type;
        // Integers are read whole and checked against the range before they are narrowed.
        std::conditional_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, std::int64_t, T> v{};
        std::string error = read_value(*key, value, v);
        if (error.empty()) overrides.*f.given = static_cast<T>(v);
        return error;
      },
      key->field);
}

void measure_overrides::apply_to(measure_settings& settings) const {
  for (const measure_key& k : measure_keys())
    std::visit(
        [&](auto f) {
          if (this->*f.given) settings.*f.setting = *(this->*f.given);
        },
        k.field);
}

std::vector<std::string> measure_overrides::names() const {
  std::vector<std::string> given;
  for (const measure_key& k : measure_keys())
    if (std::visit([&](auto f) { return (this->*f.given).has_value(); }, k.field)) given.emplace_back(k.name);
  return given;
}

void read_measure_table(const std::string& file, const toml::table& table, measure_overrides& overrides,
                        std::vector<lab_problem>& problems) {
  table_reader r(file, table, "measure", problems);
  r.titled("[measure]");
  for (const measure_key& k : measure_keys())
    if (const toml::node* value = r.get(k.name)) {
      const std::string error = set_measure_key(overrides, k.name, *value);
      if (!error.empty()) r.report(*value, error);
    }
}

}  // namespace cudalab::host
