// The [measure] keys shared by lab files, profiles and --set: names, types, ranges, precedence.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "labfile/toml_tree.hpp"

namespace cudalab::host {
namespace {

std::string want_boolean(const std::string& key, const toml::node& value, bool& out) {
  if (auto b = value.as_boolean()) {
    out = b->get();
    return "";
  }
  return "measure." + key + " must be a boolean (true or false), not " + describe_node(value);
}

std::string want_integer(const std::string& key, const toml::node& value, std::int64_t lo, std::int64_t& out) {
  auto i = value.as_integer();
  if (!i) return "measure." + key + " must be an integer, not " + describe_node(value);
  if (i->get() < lo) return "measure." + key + " = " + std::to_string(i->get()) + " is out of range (at least " + std::to_string(lo) + ")";
  out = i->get();
  return "";
}

std::string want_ms(const std::string& key, const toml::node& value, double& out) {
  double v = 0;
  if (auto i = value.as_integer()) v = static_cast<double>(i->get());
  else if (auto f = value.as_floating_point()) v = f->get();
  else return "measure." + key + " must be a number of milliseconds, not " + describe_node(value);
  if (!(v >= 0.0)) return "measure." + key + " = " + value_text(param_value(v)) + " is out of range (at least 0)";
  out = v;
  return "";
}

}  // namespace

const std::vector<std::string>& measure_key_names() {
  static const std::vector<std::string> names = {"timing", "repetitions", "min_time_ms", "warmup_ms",
                                                 "l2_flush", "batch", "seed", "max_points"};
  return names;
}

std::string set_measure_key(measure_settings& m, const std::string& key, const toml::node& value) {
  std::int64_t i = 0;
  std::string error;
  if (key == "timing") return want_boolean(key, value, m.timing);
  if (key == "l2_flush") return want_boolean(key, value, m.l2_flush);
  if (key == "min_time_ms") return want_ms(key, value, m.min_time_ms);
  if (key == "warmup_ms") return want_ms(key, value, m.warmup_ms);
  if (key == "repetitions") {
    if ((error = want_integer(key, value, 1, i)).empty()) {
      if (i > 1000000) return "measure.repetitions = " + std::to_string(i) + " is out of range [1, 1000000]";
      m.repetitions = static_cast<int>(i);
    }
    return error;
  }
  if (key == "batch") {
    if ((error = want_integer(key, value, 0, i)).empty()) {
      if (i > 1000000) return "measure.batch = " + std::to_string(i) + " is out of range [0, 1000000]";
      m.batch = static_cast<int>(i);
    }
    return error;
  }
  if (key == "seed") {
    if ((error = want_integer(key, value, 0, i)).empty()) m.seed = static_cast<std::uint64_t>(i);
    return error;
  }
  if (key == "max_points") {
    // check_params() runs on every point before anything starts, so there is a hard cap.
    if ((error = want_integer(key, value, 1, i)).empty()) {
      if (i > 100000) return "measure.max_points = " + std::to_string(i) + " is out of range [1, 100000]";
      m.max_points = static_cast<std::uint64_t>(i);
    }
    return error;
  }
  return "unknown key '" + key + "' in [measure]" + suggestion(key, measure_key_names());
}

void copy_measure_key(measure_settings& to, const measure_settings& from, const std::string& key) {
  if (key == "timing") to.timing = from.timing;
  else if (key == "repetitions") to.repetitions = from.repetitions;
  else if (key == "min_time_ms") to.min_time_ms = from.min_time_ms;
  else if (key == "warmup_ms") to.warmup_ms = from.warmup_ms;
  else if (key == "l2_flush") to.l2_flush = from.l2_flush;
  else if (key == "batch") to.batch = from.batch;
  else if (key == "seed") to.seed = from.seed;
  else if (key == "max_points") to.max_points = from.max_points;
}

void read_measure_table(const std::string& file, const toml::table& table, measure_settings& measure,
                        std::vector<std::string>& keys_set, std::vector<lab_problem>& problems) {
  for (auto&& [key, value] : table) {
    const std::string name(key.str());
    const std::string error = set_measure_key(measure, name, value);
    if (!error.empty()) {
      // Unknown keys point at the key, bad values at the value.
      const bool known = std::find(measure_key_names().begin(), measure_key_names().end(), name) != measure_key_names().end();
      problems.push_back({locate(file, known ? value.source() : key.source()), error});
    } else {
      keys_set.push_back(name);
    }
  }
}

}  // namespace cudalab::host
