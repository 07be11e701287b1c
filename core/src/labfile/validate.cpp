// Validating a lab file against its plugin's spec: parameters, sweeps, variants, profile and
// --set overrides, and the plugin's own check_params() on every point. Nothing touches the GPU.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "labfile/toml_tree.hpp"

namespace cudalab::host {
namespace {

constexpr std::size_t max_reported_rejections = 10;

const param_spec* find_param(const lab_spec& spec, const std::string& name) {
  for (const param_spec& p : spec.params)
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<std::string> param_names(const lab_spec& spec) {
  std::vector<std::string> names;
  for (const param_spec& p : spec.params) names.push_back(p.name);
  return names;
}

std::vector<std::string> variant_names(const lab_spec& spec) {
  std::vector<std::string> names;
  for (const variant_spec& v : spec.variants) names.push_back(v.name);
  return names;
}

std::string listing(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& n : names) text += (text.empty() ? "" : ", ") + n;
  return text;
}

// "unknown parameter 'blok'; did you mean 'block'?" or, with no close name, the list of parameters.
std::string unknown_param(const lab_spec& spec, const std::string& name, const std::string& where) {
  const std::string near = suggestion(name, param_names(spec));
  return "unknown parameter '" + name + "'" + where + (near.empty() ? "; " + spec.name + " has: " + listing(param_names(spec)) : near);
}

// A typed, in-range value, or nullopt with the problem recorded at `at`.
std::optional<param_value> checked_value(const param_spec& spec, const toml::node& node, const source_location& at,
                                         const std::string& context, std::vector<lab_problem>& problems) {
  std::string error;
  auto value = to_param_value(spec, node, error);
  if (value) error = range_problem(spec, *value);
  if (!error.empty()) {
    problems.push_back({at, context + error});
    return std::nullopt;
  }
  return value;
}

// A variant name the spec has, or the problem recorded.
bool known_variant(const lab_spec& spec, const std::string& name, const source_location& at, const std::string& what,
                   std::vector<lab_problem>& problems) {
  const auto names = variant_names(spec);
  if (std::find(names.begin(), names.end(), name) != names.end()) return true;
  const std::string near = suggestion(name, names);
  problems.push_back({at, "unknown " + what + " '" + name + "'" + (near.empty() ? "; " + spec.name + " has: " + listing(names) : near)});
  return false;
}

// Keys of a table in the order they were written (TOML++ keeps them sorted by name).
std::vector<std::pair<const toml::key*, const toml::node*>> written_order(const toml::table& table) {
  std::vector<std::pair<const toml::key*, const toml::node*>> entries;
  for (auto&& [key, value] : table) entries.emplace_back(&key, &value);
  std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    const auto& x = a.first->source().begin;
    const auto& y = b.first->source().begin;
    return x.line != y.line ? x.line < y.line : x.column < y.column;
  });
  return entries;
}

// Every key --set accepts, for suggestions.
std::vector<std::string> override_keys(const lab_spec& spec) {
  std::vector<std::string> keys = param_names(spec);
  for (const param_spec& p : spec.params) keys.push_back("params." + p.name);
  for (const std::string& k : measure_key_names()) keys.push_back("measure." + k);
  for (const param_spec& p : spec.params) keys.push_back("sweep." + p.name);
  for (const char* k : {"lab.variants", "lab.baseline", "lab.title"}) keys.emplace_back(k);
  return keys;
}

// lab.variants from --set: a TOML array of strings, or a comma-separated list.
std::vector<std::string> override_variant_list(const override_entry& o, std::vector<lab_problem>& problems, bool& ok) {
  std::vector<std::string> names;
  ok = true;
  if (const toml::array* list = o.value().as_array()) {
    for (const toml::node& element : *list) {
      if (auto s = element.as_string()) names.push_back(s->get());
      else {
        problems.push_back({o.where, "lab.variants must hold variant names (strings), not " + describe_node(element)});
        ok = false;
      }
    }
    return names;
  }
  if (auto s = o.value().as_string()) {
    std::string item;
    for (char c : s->get() + ",") {
      if (c != ',') {
        if (c != ' ') item += c;
        continue;
      }
      if (!item.empty()) names.push_back(item);
      item.clear();
    }
    return names;
  }
  problems.push_back({o.where, "lab.variants must be a list of variant names, e.g. copy,scale or [\"copy\"], not " + describe_node(o.value())});
  ok = false;
  return names;
}

}  // namespace

lab_plan validate_lab_file(const lab_file& file, const lab& plugin, const run_profile* profile,
                           const std::vector<std::string>& overrides) {
  if (!file.tree) throw std::invalid_argument("validate_lab_file: the lab file was not parsed");
  const lab_file::impl& tree = *file.tree;
  const std::string& path = tree.file;
  const lab_spec spec = plugin.spec();
  std::vector<lab_problem> problems;

  lab_plan plan;
  plan.file = file.path;
  plan.plugin = file.plugin;
  const toml::table* lab_table = tree.doc["lab"].as_table();
  const toml::table* params_table = tree.doc["params"].as_table();
  const toml::table* sweep_table = tree.doc["sweep"].as_table();
  const source_location lab_where = lab_table ? locate(path, lab_table->source()) : source_location{path, 1, 1};

  // Overrides are read first: measure.max_points bounds the sweep, params replace sweeps.
  std::vector<override_entry> param_overrides, sweep_overrides, measure_sets, lab_overrides;
  const auto all_override_keys = override_keys(spec);
  for (const std::string& text : overrides) {
    auto o = parse_override(text, problems);
    if (!o) continue;
    const std::string& key = o->key;
    if (key.rfind("measure.", 0) == 0) measure_sets.push_back(*o);
    else if (key == "lab.variants" || key == "lab.baseline" || key == "lab.title") lab_overrides.push_back(*o);
    else if (key == "lab.plugin")
      problems.push_back({o->where, "lab.plugin cannot be changed with --set; run another lab file instead"});
    else if (key.rfind("sweep.", 0) == 0 && find_param(spec, key.substr(6))) sweep_overrides.push_back(*o);
    else if (find_param(spec, key.rfind("params.", 0) == 0 ? key.substr(7) : key)) param_overrides.push_back(*o);
    else
      problems.push_back({o->where, "unknown --set key '" + key + "'" + suggestion(key, all_override_keys) +
                                        " (keys: a parameter of " + spec.name + ", params.NAME, sweep.NAME, measure.KEY, lab.variants, lab.baseline)"});
  }

  // [measure]: defaults < lab file < profile < --set.
  measure_overrides from_set;
  for (const override_entry& o : measure_sets) {
    const std::string error = set_measure_key(from_set, o.key.substr(8), o.value());
    if (!error.empty()) problems.push_back({o.where, error});
  }
  tree.measure.apply_to(plan.measure);
  if (profile) profile->measure_set.apply_to(plan.measure);
  from_set.apply_to(plan.measure);

  // [params] over the defaults.
  for (const param_spec& p : spec.params) plan.base.set(p.name, p.default_value);
  std::map<std::string, source_location> fixed_at;
  if (params_table) {
    for (auto&& [key, value] : *params_table) {
      const std::string name(key.str());
      const param_spec* p = find_param(spec, name);
      if (!p) {
        problems.push_back({locate(path, key.source()), unknown_param(spec, name, " in [params]")});
        continue;
      }
      fixed_at[name] = locate(path, key.source());
      if (auto v = checked_value(*p, value, locate(path, value.source()), "", problems)) plan.base.set(name, *v);
    }
  }

  // [sweep] axes, in the order written.
  bool sweep_ok = true;
  std::vector<std::uint64_t> axis_counts;
  if (sweep_table) {
    for (const auto& [key, value] : written_order(*sweep_table)) {
      const std::string name(key->str());
      const param_spec* p = find_param(spec, name);
      if (!p) {
        problems.push_back({locate(path, key->source()), unknown_param(spec, name, " in [sweep]")});
        sweep_ok = false;
        continue;
      }
      if (auto fixed = fixed_at.find(name); fixed != fixed_at.end()) {
        problems.push_back({locate(path, key->source()), "parameter '" + name + "' is both fixed in [params] (line " +
                                                             std::to_string(fixed->second.line) + ") and swept in [sweep]; keep one"});
        sweep_ok = false;
        continue;
      }
      axis_values axis = read_sweep_axis(path, *p, *value, plan.measure.max_points, problems);
      if (!axis.ok) {
        sweep_ok = false;
        continue;
      }
      plan.sweep.push_back({name, std::move(axis.values)});
      axis_counts.push_back(axis.count);
    }
  }

  // --set parameters replace [params] values and sweeps of the same name.
  for (const override_entry& o : param_overrides) {
    const std::string name = o.key.rfind("params.", 0) == 0 ? o.key.substr(7) : o.key;
    const param_spec* p = find_param(spec, name);
    if (auto v = checked_value(*p, o.value(), o.where, "", problems)) plan.base.set(name, *v);
    for (std::size_t a = 0; a < plan.sweep.size(); ++a) {
      if (plan.sweep[a].name != name) continue;
      plan.sweep.erase(plan.sweep.begin() + static_cast<std::ptrdiff_t>(a));
      axis_counts.erase(axis_counts.begin() + static_cast<std::ptrdiff_t>(a));
      break;
    }
    fixed_at[name] = o.where;
  }

  // --set sweep.NAME=[...] or ={from, to, step}: replaces that axis in place, or adds one at the end.
  for (const override_entry& o : sweep_overrides) {
    const std::string name = o.key.substr(6);
    std::vector<lab_problem> found;
    axis_values axis = read_sweep_axis(o.where.file, *find_param(spec, name), o.value(), plan.measure.max_points, found);
    for (lab_problem& p : found) problems.push_back({o.where, p.message});
    if (!axis.ok) {
      sweep_ok = false;
      continue;
    }
    auto existing = std::find_if(plan.sweep.begin(), plan.sweep.end(), [&](const sweep_axis& a) { return a.name == name; });
    if (existing != plan.sweep.end()) {
      axis_counts[static_cast<std::size_t>(existing - plan.sweep.begin())] = axis.count;
      existing->values = std::move(axis.values);
    } else {
      plan.sweep.push_back({name, std::move(axis.values)});
      axis_counts.push_back(axis.count);
    }
    fixed_at.erase(name);
  }

  // The size of the sweep, before anything is expanded.
  std::uint64_t points = 1;
  std::string factors;
  for (std::size_t a = 0; a < axis_counts.size(); ++a) {
    points = axis_counts[a] != 0 && points > UINT64_MAX / axis_counts[a] ? UINT64_MAX : points * axis_counts[a];
    factors += (factors.empty() ? "" : " x ") + plan.sweep[a].name + ": " + std::to_string(axis_counts[a]);
  }
  const source_location sweep_where = sweep_table ? locate(path, sweep_table->source()) : lab_where;
  if (sweep_ok && points > plan.measure.max_points) {
    problems.push_back({sweep_where, "the sweep has " + (points == UINT64_MAX ? std::string("more than 2^64") : std::to_string(points)) +
                                         " points (" + factors + "), more than measure.max_points = " +
                                         std::to_string(plan.measure.max_points) + "; narrow it or raise measure.max_points (at most 100000)"});
    sweep_ok = false;
  }

  // [lab]: title, variants, baseline (the file's, then --set).
  plan.title = spec.title;
  std::vector<std::string> variants = variant_names(spec);
  plan.baseline = spec.baseline;
  source_location baseline_where = lab_where;
  if (lab_table) {
    if (auto t = (*lab_table)["title"].as_string()) plan.title = t->get();
    if (const toml::array* list = (*lab_table)["variants"].as_array()) {
      variants.clear();
      if (list->empty())
        problems.push_back({locate(path, list->source()), "lab.variants is empty; leave it out to run every variant"});
      for (const toml::node& element : *list) {
        const auto s = element.as_string();
        if (!s) continue;  // reported by parse_lab_file
        if (known_variant(spec, s->get(), locate(path, element.source()), "variant", problems)) variants.push_back(s->get());
      }
    }
    if (const toml::node* b = lab_table->get("baseline"); b && b->is_string()) {
      plan.baseline = b->as_string()->get();
      baseline_where = locate(path, b->source());
    }
  }
  for (const override_entry& o : lab_overrides) {
    if (o.key == "lab.title") {
      plan.title = o.value().is_string() ? o.value().as_string()->get() : o.raw;
    } else if (o.key == "lab.baseline") {
      if (!o.value().is_string()) {
        problems.push_back({o.where, "lab.baseline must be a variant name, not " + describe_node(o.value())});
        continue;
      }
      plan.baseline = o.value().as_string()->get();
      baseline_where = o.where;
    } else {
      bool ok = true;
      std::vector<std::string> names = override_variant_list(o, problems, ok);
      if (ok && names.empty()) problems.push_back({o.where, "lab.variants is empty; name at least one variant"});
      variants.clear();
      for (const std::string& n : names)
        if (known_variant(spec, n, o.where, "variant", problems)) variants.push_back(n);
    }
  }
  for (std::size_t i = 0; i < variants.size(); ++i) {
    if (std::find(variants.begin(), variants.begin() + static_cast<std::ptrdiff_t>(i), variants[i]) !=
        variants.begin() + static_cast<std::ptrdiff_t>(i)) {
      problems.push_back({lab_where, "variant '" + variants[i] + "' is listed twice in lab.variants"});
    }
  }
  if (!plan.baseline.empty()) known_variant(spec, plan.baseline, baseline_where, "baseline variant", problems);
  plan.variants = std::move(variants);

  // The plugin's own checks on every point, once every value is known to be good.
  if (problems.empty() && sweep_ok) {
    source_location where = sweep_where;
    if (plan.sweep.empty()) {
      where = params_table ? locate(path, params_table->source()) : file.plugin_where;
      for (const override_entry& o : param_overrides) where = o.where;
    }
    std::string fixed_text;
    for (const param_spec& p : spec.params)
      if (fixed_at.count(p.name)) fixed_text += (fixed_text.empty() ? "" : " ") + p.name + "=" + value_text(plan.base.values().at(p.name));
    std::uint64_t rejected = 0;
    const std::uint64_t count = plan.point_count();
    for (std::uint64_t i = 0; i < count; ++i) {
      std::string error;
      try {
        plugin.check_params(plan.point(i));
        continue;
      } catch (const std::invalid_argument& e) {
        error = e.what();
      } catch (const std::exception& e) {
        error = std::string("check_params failed: ") + e.what();
      }
      if (++rejected > max_reported_rejections) continue;
      std::string point_text;
      for (const auto& [name, value] : plan.point_labels(i)) point_text += (point_text.empty() ? "" : " ") + name + "=" + value;
      if (point_text.empty()) point_text = fixed_text.empty() ? "the defaults" : fixed_text;
      problems.push_back({where, spec.name + " rejects the point " + point_text + ": " + error});
    }
    if (rejected > max_reported_rejections)
      problems.push_back({where, "... and " + std::to_string(rejected - max_reported_rejections) + " more points rejected (" +
                                     std::to_string(rejected) + " of " + std::to_string(count) + ")"});
  }

  if (!problems.empty()) {
    std::vector<std::string> set_order;
    for (const std::string& text : overrides) set_order.push_back("--set " + text);
    sort_problems(problems, set_order);
    throw lab_file_error(std::move(problems));
  }
  return plan;
}

}  // namespace cudalab::host
