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
  std::map<std::string, source_location> swept_at;  ///< where each parameter of [sweep] was swept
  std::map<int, source_location> zip_at;            ///< where each zipped group was written
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

// One axis of [sweep], or of the zipped group `zip` (0: none), `table` naming where it is written: the
// parameter known, neither fixed in [params] nor swept already, its values read. False when refused
// (the problem recorded).
bool read_axis(validation& v, const toml::key& key, const toml::node& value, const std::string& table, int zip) {
  const std::string name(key.str());
  const source_location at = locate(v.path, key.source());
  const param_spec* p = find_param(v.spec, name);
  std::string refused;
  if (!p)
    refused = unknown_param(v.spec, name, " in " + table);
  else if (auto fixed = v.fixed_at.find(name); fixed != v.fixed_at.end())
    refused = "parameter '" + name + "' is both fixed in [params] (line " + std::to_string(fixed->second.line) +
              ") and swept in " + table + "; keep one";
  else if (auto swept = v.swept_at.find(name); swept != v.swept_at.end())
    refused = "parameter '" + name + "' is swept twice: already at line " + std::to_string(swept->second.line) +
              "; a parameter has one axis, on its own or in one [[sweep.zip]] group";
  if (!refused.empty()) {
    v.problems.push_back({at, refused});
    v.sweep_ok = false;
    return false;
  }
  v.swept_at[name] = at;
  axis_values axis = read_sweep_axis(v.path, *p, value, v.plan.measure.max_points, v.problems, zip != 0);
  if (!axis.ok) {
    v.sweep_ok = false;
    return false;
  }
  v.plan.sweep.push_back({name, std::move(axis.values), axis.spacing, zip});
  v.axis_counts.push_back(axis.count);
  return true;
}

// "'b' has 2 values and 'a', zipped with it, has 3": why two axes of a group cannot move together.
std::string unequal_lengths(const std::string& name, std::uint64_t count, const std::string& other,
                            std::uint64_t other_count) {
  return "'" + name + "' has " + std::to_string(count) + " values and '" + other + "', zipped with it, has " +
         std::to_string(other_count) + ": the parameters of a [[sweep.zip]] group move together, so each needs " +
         "as many values";
}

// A zipped group: its axes read (each like one of [sweep]), each with as many values as the first.
void read_zip_group(validation& v, const toml::table& group, int zip) {
  const source_location where = locate(v.path, group.source());
  if (group.empty()) {
    v.problems.push_back(
        {where, "an empty [[sweep.zip]] group: list the parameters that move together, each with its values"});
    v.sweep_ok = false;
    return;
  }
  v.zip_at[zip] = where;
  const std::size_t first = v.plan.sweep.size();
  const auto axes = written_order(group);
  bool read = true;
  for (const auto& [key, value] : axes) read = read_axis(v, *key, *value, "[[sweep.zip]]", zip) && read;
  if (!read) return;
  for (std::size_t a = first + 1; a < v.plan.sweep.size(); ++a)
    if (v.axis_counts[a] != v.axis_counts[first]) {
      v.problems.push_back(
          {locate(v.path, axes[a - first].first->source()),
           unequal_lengths(v.plan.sweep[a].name, v.axis_counts[a], v.plan.sweep[first].name, v.axis_counts[first])});
      v.sweep_ok = false;
    }
}

// [sweep]'s entries: its axes, and each [[sweep.zip]] group where the group is written.
struct sweep_entry {
  toml::source_position at;
  const toml::key* key = nullptr;  ///< an axis: its key and values
  const toml::node* value = nullptr;
  const toml::table* group = nullptr;  ///< or a zipped group
};

// The key `zip` of [sweep] holds zipped groups, unless the lab has a parameter of that name swept as usual.
bool holds_groups(const validation& v, const toml::key& key, const toml::node& value) {
  if (key.str() != "zip") return false;
  const toml::array* list = value.as_array();
  return (list && list->is_array_of_tables()) || !find_param(v.spec, "zip");
}

// [sweep]: axes of their own and zipped groups, in the order written.
void read_sweep(validation& v) {
  if (!v.sweep_table) return;
  std::vector<sweep_entry> entries;
  for (const auto& [key, value] : written_order(*v.sweep_table)) {
    if (!holds_groups(v, *key, *value)) {
      entries.push_back({key->source().begin, key, value, nullptr});
      continue;
    }
    const toml::array* groups = value->as_array();
    if (!groups || !groups->is_array_of_tables()) {
      v.problems.push_back(
          {locate(v.path, value->source()),
           groups && groups->empty()
               ? "sweep.zip is empty: write a [[sweep.zip]] table for each group of parameters that move together"
               : "sweep.zip must be [[sweep.zip]] tables, one per group of parameters that move together, not " +
                     describe_node(*value)});
      v.sweep_ok = false;
      continue;
    }
    for (const toml::node& group : *groups)
      entries.push_back({group.source().begin, nullptr, nullptr, group.as_table()});
  }
  std::stable_sort(entries.begin(), entries.end(), [](const sweep_entry& a, const sweep_entry& b) {
    return a.at.line != b.at.line ? a.at.line < b.at.line : a.at.column < b.at.column;
  });
  int zip = 0;
  for (const sweep_entry& e : entries)
    if (e.group)
      read_zip_group(v, *e.group, ++zip);
    else
      read_axis(v, *e.key, *e.value, "[sweep]", 0);
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

// --set sweep.NAME=[...] or ={from, to, step}: replaces that axis in place (a zipped one keeps its group,
// so it needs as many values as the group's others), or adds one at the end.
void apply_sweep_overrides(validation& v) {
  for (const override_entry& o : v.sweep_sets) {
    const std::string name = o.key.substr(6);
    auto existing =
        std::find_if(v.plan.sweep.begin(), v.plan.sweep.end(), [&](const sweep_axis& a) { return a.name == name; });
    const int zip = existing != v.plan.sweep.end() ? existing->zip : 0;
    std::vector<lab_problem> found;
    axis_values axis =
        read_sweep_axis(o.where.file, *find_param(v.spec, name), o.value(), v.plan.measure.max_points, found, zip != 0);
    for (lab_problem& p : found) v.problems.push_back({o.where, p.message});
    if (!axis.ok) {
      v.sweep_ok = false;
      continue;
    }
    const auto partner = std::find_if(v.plan.sweep.begin(), v.plan.sweep.end(),
                                      [&](const sweep_axis& a) { return zip != 0 && a.zip == zip && a.name != name; });
    if (partner != v.plan.sweep.end()) {
      const std::uint64_t partner_count = v.axis_counts[static_cast<std::size_t>(partner - v.plan.sweep.begin())];
      if (axis.count != partner_count) {
        v.problems.push_back({o.where, unequal_lengths(name, axis.count, partner->name, partner_count)});
        v.sweep_ok = false;
        continue;
      }
    }
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

// A point runs once: in each zipped group, two positions with the same value in every axis are refused
// (each axis alone may repeat a value). Checked once the overrides are applied, which may replace or fix
// a group's axes, and on a sweep found good: every axis expanded, a group's of one length.
void check_zipped_points(validation& v) {
  for (const sweep_dimension& d : v.plan.dimensions()) {
    const int zip = v.plan.sweep[d.first].zip;
    if (zip == 0) continue;
    const std::size_t count = v.plan.sweep[d.first].values.size();
    std::map<std::vector<param_value>, std::size_t> seen;
    for (std::size_t i = 0; i < count; ++i) {
      std::vector<param_value> point;
      std::vector<std::pair<std::string, std::string>> labels;
      for (std::size_t a = d.first; a < d.last; ++a) {
        point.push_back(v.plan.sweep[a].values[i]);
        labels.emplace_back(v.plan.sweep[a].name, value_text(v.plan.sweep[a].values[i]));
      }
      const auto [earlier, first_time] = seen.emplace(std::move(point), i);
      if (first_time) continue;
      v.problems.push_back({v.zip_at[zip], "the point " + labels_text(labels) + " comes twice in this [[sweep.zip]] " +
                                               "group (its values " + std::to_string(earlier->second + 1) + " and " +
                                               std::to_string(i + 1) + "): a point runs once"});
      v.sweep_ok = false;
    }
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
  for (const sweep_dimension& d : v.plan.dimensions()) {
    const std::uint64_t count = v.axis_counts[d.first];
    points = count != 0 && points > UINT64_MAX / count ? UINT64_MAX : points * count;
    std::string names;  // a zipped group's as "nx with ny"
    for (std::size_t a = d.first; a < d.last; ++a) names += (names.empty() ? "" : " with ") + v.plan.sweep[a].name;
    factors += (factors.empty() ? "" : " x ") + names + ": " + count_text(count);
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
  if (v.sweep_ok) check_zipped_points(v);
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
