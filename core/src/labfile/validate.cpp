// Validating a lab file against its plugin's spec: parameters, sweeps, variants, profile and
// --set overrides, and the plugin's own check_params() on every point. Nothing touches the GPU.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "labfile/spec_lookup.hpp"
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

std::string listing(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& n : names) text += (text.empty() ? "" : ", ") + n;
  return text;
}

// "unknown parameter 'blok'; did you mean 'block'?" or, with no close name, the list of parameters.
std::string unknown_param(const lab_spec& spec, const std::string& name, const std::string& where) {
  const std::string near = suggestion(name, param_names(spec));
  return "unknown parameter '" + name + "'" + where +
         (near.empty() ? "; " + spec.name + " has: " + listing(param_names(spec)) : near);
}

// A variant name the spec has, or the problem recorded.
bool known_variant(const lab_spec& spec, const std::string& name, const source_location& at, const std::string& what,
                   std::vector<lab_problem>& problems) {
  const auto names = variant_names(spec);
  if (std::find(names.begin(), names.end(), name) != names.end()) return true;
  const std::string near = suggestion(name, names);
  problems.push_back({at, "unknown " + what + " '" + name + "'" +
                              (near.empty() ? "; " + spec.name + " has: " + listing(names) : near)});
  return false;
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
      if (auto s = element.as_string())
        names.push_back(s->get());
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
  problems.push_back({o.where, "lab.variants must be a list of variant names, e.g. copy,scale or [\"copy\"], not " +
                                   describe_node(o.value())});
  ok = false;
  return names;
}

// A validation in progress: the file, the plugin's spec, the plan being filled and every problem
// found so far. Each step below reads what the ones before it left here.
struct validation {
  validation(const lab_file& parsed, const lab_spec& lab, const point_check& check, const run_profile* layered)
      : file(parsed), tree(*parsed.tree), path(tree.file), spec(lab), check_point(check), profile(layered) {
    plan.file = file.path;
    plan.plugin = file.plugin;
    lab_table = tree.doc["lab"].as_table();
    params_table = tree.doc["params"].as_table();
    sweep_table = tree.doc["sweep"].as_table();
    lab_where = lab_table ? locate(path, lab_table->source()) : source_location{path, 1, 1};
  }

  const lab_file& file;
  const lab_file::impl& tree;
  const std::string& path;
  const lab_spec& spec;
  const point_check& check_point;
  const run_profile* profile;
  const toml::table* lab_table;
  const toml::table* params_table;
  const toml::table* sweep_table;
  source_location lab_where;

  lab_plan plan;
  std::vector<lab_problem> problems;
  // --set overrides by what they set.
  std::vector<override_entry> param_sets, sweep_sets, measure_sets, lab_sets;
  std::map<std::string, source_location> fixed_at;  ///< where each fixed (not swept) parameter was set
  std::vector<std::uint64_t> axis_counts;           ///< the points of each axis of plan.sweep
  bool sweep_ok = true;                             ///< false: the sweep is refused, its points unknown
  source_location sweep_where;                      ///< where a problem with the whole sweep is reported
};

// Overrides are read first: measure.max_points bounds the sweep, params replace sweeps.
void classify_overrides(validation& v, const std::vector<std::string>& overrides) {
  const auto all_override_keys = override_keys(v.spec);
  for (const std::string& text : overrides) {
    auto o = parse_override(text, v.problems);
    if (!o) continue;
    const std::string& key = o->key;
    if (key.rfind("measure.", 0) == 0)
      v.measure_sets.push_back(*o);
    else if (key == "lab.variants" || key == "lab.baseline" || key == "lab.title")
      v.lab_sets.push_back(*o);
    else if (key == "lab.plugin")
      v.problems.push_back({o->where, "lab.plugin cannot be changed with --set; run another lab file instead"});
    else if (key.rfind("sweep.", 0) == 0 && find_param(v.spec, key.substr(6)))
      v.sweep_sets.push_back(*o);
    else if (find_param(v.spec, key.rfind("params.", 0) == 0 ? key.substr(7) : key))
      v.param_sets.push_back(*o);
    else
      v.problems.push_back({o->where, "unknown --set key '" + key + "'" + suggestion(key, all_override_keys) +
                                          " (keys: a parameter of " + v.spec.name +
                                          ", params.NAME, sweep.NAME, measure.KEY, lab.variants, lab.baseline)"});
  }
}

// [measure]: defaults < lab file < profile < --set.
void layer_measure(validation& v) {
  measure_overrides from_set;
  for (const override_entry& o : v.measure_sets) {
    const std::string error = set_measure_key(from_set, o.key.substr(8), o.value());
    if (!error.empty()) v.problems.push_back({o.where, error});
  }
  v.tree.measure.apply_to(v.plan.measure);
  if (v.profile) v.profile->measure_set.apply_to(v.plan.measure);
  from_set.apply_to(v.plan.measure);
}

// [params] over the defaults.
void read_params(validation& v) {
  for (const param_spec& p : v.spec.params) v.plan.base.set(p.name, p.default_value);
  if (!v.params_table) return;
  for (auto&& [key, value] : *v.params_table) {
    const std::string name(key.str());
    const param_spec* p = find_param(v.spec, name);
    if (!p) {
      v.problems.push_back({locate(v.path, key.source()), unknown_param(v.spec, name, " in [params]")});
      continue;
    }
    v.fixed_at[name] = locate(v.path, key.source());
    if (auto value_read = checked_value(*p, value, locate(v.path, value.source()), "", v.problems))
      v.plan.base.set(name, *value_read);
  }
}

// [sweep] axes, in the order written.
void read_sweep(validation& v) {
  if (!v.sweep_table) return;
  for (const auto& [key, value] : written_order(*v.sweep_table)) {
    const std::string name(key->str());
    const param_spec* p = find_param(v.spec, name);
    if (!p) {
      v.problems.push_back({locate(v.path, key->source()), unknown_param(v.spec, name, " in [sweep]")});
      v.sweep_ok = false;
      continue;
    }
    if (auto fixed = v.fixed_at.find(name); fixed != v.fixed_at.end()) {
      v.problems.push_back({locate(v.path, key->source()), "parameter '" + name + "' is both fixed in [params] (line " +
                                                               std::to_string(fixed->second.line) +
                                                               ") and swept in [sweep]; keep one"});
      v.sweep_ok = false;
      continue;
    }
    axis_values axis = read_sweep_axis(v.path, *p, *value, v.plan.measure.max_points, v.problems);
    if (!axis.ok) {
      v.sweep_ok = false;
      continue;
    }
    v.plan.sweep.push_back({name, std::move(axis.values), axis.spacing});
    v.axis_counts.push_back(axis.count);
  }
}

// --set parameters replace [params] values and sweeps of the same name.
void apply_param_overrides(validation& v) {
  for (const override_entry& o : v.param_sets) {
    const std::string name = o.key.rfind("params.", 0) == 0 ? o.key.substr(7) : o.key;
    const param_spec* p = find_param(v.spec, name);
    if (auto value = checked_value(*p, o.value(), o.where, "", v.problems)) v.plan.base.set(name, *value);
    for (std::size_t a = 0; a < v.plan.sweep.size(); ++a) {
      if (v.plan.sweep[a].name != name) continue;
      v.plan.sweep.erase(v.plan.sweep.begin() + static_cast<std::ptrdiff_t>(a));
      v.axis_counts.erase(v.axis_counts.begin() + static_cast<std::ptrdiff_t>(a));
      break;
    }
    v.fixed_at[name] = o.where;
  }
}

// --set sweep.NAME=[...] or ={from, to, step}: replaces that axis in place, or adds one at the end.
void apply_sweep_overrides(validation& v) {
  for (const override_entry& o : v.sweep_sets) {
    const std::string name = o.key.substr(6);
    std::vector<lab_problem> found;
    axis_values axis =
        read_sweep_axis(o.where.file, *find_param(v.spec, name), o.value(), v.plan.measure.max_points, found);
    for (lab_problem& p : found) v.problems.push_back({o.where, p.message});
    if (!axis.ok) {
      v.sweep_ok = false;
      continue;
    }
    auto existing =
        std::find_if(v.plan.sweep.begin(), v.plan.sweep.end(), [&](const sweep_axis& a) { return a.name == name; });
    if (existing != v.plan.sweep.end()) {
      v.axis_counts[static_cast<std::size_t>(existing - v.plan.sweep.begin())] = axis.count;
      existing->values = std::move(axis.values);
      existing->spacing = axis.spacing;
    } else {
      v.plan.sweep.push_back({name, std::move(axis.values), axis.spacing});
      v.axis_counts.push_back(axis.count);
    }
    v.fixed_at.erase(name);
  }
}

// A count of points in words; UINT64_MAX stands for every count too large to hold.
std::string count_text(std::uint64_t count) {
  return count == UINT64_MAX ? std::string("2^64 or more") : std::to_string(count);
}

// The size of the sweep, before anything is expanded: at least one point, at most max_points.
void check_sweep_size(validation& v) {
  std::uint64_t points = 1;
  std::string factors;
  for (std::size_t a = 0; a < v.axis_counts.size(); ++a) {
    points = v.axis_counts[a] != 0 && points > UINT64_MAX / v.axis_counts[a] ? UINT64_MAX : points * v.axis_counts[a];
    factors += (factors.empty() ? "" : " x ") + v.plan.sweep[a].name + ": " + count_text(v.axis_counts[a]);
  }
  v.sweep_where = v.sweep_table ? locate(v.path, v.sweep_table->source()) : v.lab_where;
  const std::uint64_t max_points = v.plan.measure.max_points;
  if (v.sweep_ok && points == 0) {
    v.problems.push_back({v.sweep_where, "the sweep has 0 points (" + factors + "): nothing would run"});
    v.sweep_ok = false;
  } else if (v.sweep_ok && points > max_points) {
    v.problems.push_back({v.sweep_where, "the sweep has " + count_text(points) + " points (" + factors +
                                             "), more than measure.max_points = " + std::to_string(max_points) +
                                             "; narrow it or raise measure.max_points (at most 100000)"});
    v.sweep_ok = false;
  }
}

// [lab]: title, variants, baseline (the file's, then --set).
void resolve_variants(validation& v) {
  lab_plan& plan = v.plan;
  plan.title = v.spec.title;
  struct listed {
    std::string name;
    source_location where;  ///< where the variant is named: in the file or in --set
  };
  std::vector<listed> variants;
  // Without lab.variants, the lab's own; a student variant runs when a submission is given (planning).
  for (const variant_spec& lab_variant : v.spec.variants) variants.push_back({lab_variant.name, v.lab_where});
  plan.baseline = v.spec.baseline;
  source_location baseline_where = v.lab_where;
  // A baseline the file or --set gives: never empty, which would turn comparisons off unsaid.
  auto set_baseline = [&](const std::string& name, const source_location& where) {
    if (name.empty())
      v.problems.push_back(
          {where, "lab.baseline is empty; name one of " + v.spec.name + "'s variants, or leave lab.baseline out"});
    plan.baseline = name;
    baseline_where = where;
  };
  if (v.lab_table) {
    if (auto t = (*v.lab_table)["title"].as_string()) plan.title = t->get();
    if (const toml::array* list = (*v.lab_table)["variants"].as_array()) {
      variants.clear();
      if (list->empty())
        v.problems.push_back(
            {locate(v.path, list->source()), "lab.variants is empty; leave it out to run every variant"});
      for (const toml::node& element : *list) {
        const auto s = element.as_string();
        if (!s) continue;  // reported by parse_lab_file
        const source_location where = locate(v.path, element.source());
        if (known_variant(v.spec, s->get(), where, "variant", v.problems)) variants.push_back({s->get(), where});
      }
    }
    if (const toml::node* b = v.lab_table->get("baseline"); b && b->is_string())
      set_baseline(b->as_string()->get(), locate(v.path, b->source()));
  }
  for (const override_entry& o : v.lab_sets) {
    if (o.key == "lab.title") {
      plan.title = o.value().is_string() ? o.value().as_string()->get() : o.raw;
    } else if (o.key == "lab.baseline") {
      if (!o.value().is_string()) {
        v.problems.push_back({o.where, "lab.baseline must be a variant name, not " + describe_node(o.value())});
        continue;
      }
      set_baseline(o.value().as_string()->get(), o.where);
    } else {
      bool ok = true;
      std::vector<std::string> names = override_variant_list(o, v.problems, ok);
      if (ok && names.empty()) v.problems.push_back({o.where, "lab.variants is empty; name at least one variant"});
      variants.clear();
      for (const std::string& n : names)
        if (known_variant(v.spec, n, o.where, "variant", v.problems)) variants.push_back({n, o.where});
    }
  }
  plan.variants.clear();
  for (const listed& variant : variants) {
    if (std::find(plan.variants.begin(), plan.variants.end(), variant.name) != plan.variants.end())
      v.problems.push_back({variant.where, "variant '" + variant.name + "' is listed twice in lab.variants"});
    plan.variants.push_back(variant.name);
  }
  if (!plan.baseline.empty()) known_variant(v.spec, plan.baseline, baseline_where, "baseline variant", v.problems);
}

// The plugin's own checks on every point, once every value is known to be good.
void check_every_point(validation& v) {
  const lab_plan& plan = v.plan;
  source_location where = v.sweep_where;
  if (plan.sweep.empty()) {
    where = v.params_table ? locate(v.path, v.params_table->source()) : v.file.plugin_where;
    for (const override_entry& o : v.param_sets) where = o.where;
  }
  std::string fixed_text;
  for (const param_spec& p : v.spec.params)
    if (v.fixed_at.count(p.name))
      fixed_text += (fixed_text.empty() ? "" : " ") + p.name + "=" + value_text(plan.base.values().at(p.name));
  std::uint64_t rejected = 0;
  const std::uint64_t count = plan.point_count();
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::string error = v.check_point(plan.point(i));
    if (error.empty()) continue;
    if (++rejected > max_reported_rejections) continue;
    std::string point_text = labels_text(plan.point_labels(i));
    if (point_text.empty()) point_text = fixed_text.empty() ? "the defaults" : fixed_text;
    v.problems.push_back({where, v.spec.name + " rejects the point " + point_text + ": " + error});
  }
  if (rejected > max_reported_rejections)
    v.problems.push_back({where, "... and " + std::to_string(rejected - max_reported_rejections) +
                                     " more points rejected (" + std::to_string(rejected) + " of " +
                                     std::to_string(count) + ")"});
}

}  // namespace

lab_plan validate_lab_file(const lab_file& file, const lab_spec& spec, const point_check& check_point,
                           const run_profile* profile, const std::vector<std::string>& overrides) {
  if (!file.tree) throw std::invalid_argument("validate_lab_file: the lab file was not parsed");
  validation v(file, spec, check_point, profile);
  classify_overrides(v, overrides);
  layer_measure(v);
  read_params(v);
  read_sweep(v);
  apply_param_overrides(v);
  apply_sweep_overrides(v);
  check_sweep_size(v);
  resolve_variants(v);
  if (v.problems.empty() && v.sweep_ok) check_every_point(v);

  if (!v.problems.empty()) {
    std::vector<std::string> set_order;
    for (const std::string& text : overrides) set_order.push_back("--set " + text);
    sort_problems(v.problems, set_order);
    throw lab_file_error(std::move(v.problems));
  }
  return std::move(v.plan);
}

}  // namespace cudalab::host
