// Planning: lab files on the command line -> loaded plugins + validated plans, before any GPU work.
#include "plan/planning.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "labfile/spec_lookup.hpp"
#include "labfile/values.hpp"
#include "plugin/plugin_call.hpp"
#include "plugin/point_check.hpp"
#include "results/format.hpp"

namespace cudalab::host {

namespace {

// Every variant that will run must move bytes somewhere in the plan: one whose traffic_of gives 0 at
// every point (a forgotten traffic_of) would give results without a GB/s figure. A zero at some points
// only (an offset past the end of a short array) is the point's, and the runner skips them. Throws
// lab_call_error naming the variant's first point.
void check_traffic(const planned_lab& pl, const std::vector<std::string>& variant_filter) {
  const lab_spec& spec = pl.plugin->spec;
  for (const std::string& name : variants_to_run(pl.plan, variant_filter)) {
    bool moves = false;
    for (std::uint64_t i = 0; i < pl.plan.point_count() && !moves; ++i) {
      const params p = pl.plan.point(i);
      const plugin_call call{spec.name, "traffic_of", name, labels_text(pl.plan.point_labels(i))};
      moves = call_plugin(call, [&] { return pl.plugin->instance->traffic_of(p, variant_of(spec, name)); }).total() > 0;
    }
    if (!moves)
      throw lab_call_error(plugin_call{spec.name, "traffic_of", name, labels_text(pl.plan.point_labels(0))},
                           "returned 0 bytes at every point; it must give the fewest bytes a correct run reads and "
                           "writes, which GB/s and every percentage are computed from");
  }
}

std::string joined(const std::vector<std::string>& names, const std::string& separator) {
  std::string text;
  for (const std::string& n : names) text += (text.empty() ? "" : separator) + n;
  return text;
}

// --variant: each name a variant of the lab's plugin, and together at least one variant the lab file
// runs (a filter that selects none would run nothing and report success).
void check_variant_filter(const planned_lab& pl, const std::vector<std::string>& filter,
                          std::vector<lab_problem>& problems) {
  if (filter.empty()) return;
  const lab_spec& spec = pl.plugin->spec;
  const std::vector<std::string> names = variant_names(spec);
  bool known = true;
  for (const auto& v : filter) {
    if (std::find(names.begin(), names.end(), v) != names.end()) continue;
    known = false;
    const auto near = nearest_name(v, names);
    lab_problem problem;
    problem.where.file = "--variant " + v;
    problem.message = "lab '" + spec.name + "' (" + pl.file_arg + ") has no variant '" + v + "'" +
                      (near ? "; did you mean '" + *near + "'?" : "");
    problems.push_back(std::move(problem));
  }
  if (known && variants_to_run(pl.plan, filter).empty()) {
    lab_problem problem;
    problem.where.file = "--variant " + joined(filter, " --variant ");
    problem.message = "none of the variants " + pl.file_arg + " runs (" + joined(variants_to_run(pl.plan, {}), ", ") +
                      "); name one of them, or leave --variant out";
    problems.push_back(std::move(problem));
  }
}

// The plugin a lab file names, loaded; or nothing, with why in `problems` (not a name: a lab file never
// gives a path, its `plugin` is a name found on the search path) or in `first_plugin_error` (a missing
// plugin is reported at the `plugin` key with the nearest name installed).
const loaded_plugin* plugin_named_by(const lab_file& parsed, const std::vector<std::filesystem::path>& search_path,
                                     std::vector<lab_problem>& problems,
                                     std::optional<plugin_error>& first_plugin_error) {
  if (const std::string problem = plugin_name_problem(parsed.plugin, search_path); !problem.empty()) {
    problems.push_back({parsed.plugin_where, "lab.plugin " + problem});
    return nullptr;
  }
  try {
    return &load_plugin(parsed.plugin, search_path);
  } catch (const plugin_error& e) {
    if (!first_plugin_error)
      first_plugin_error = e.why() == plugin_failure::not_found ? plugin_error(e, parsed.plugin_where) : e;
  }
  return nullptr;
}

// The argument before files[i] that names the same file (the same path, or another path to it): a
// lab file runs once in a run, or its results would be mixed with its own. nullopt when there is none.
std::optional<std::string> named_before(const std::vector<std::string>& files, std::size_t i) {
  for (std::size_t j = 0; j < i; ++j) {
    std::error_code ec;
    if (files[j] == files[i] || std::filesystem::equivalent(files[j], files[i], ec)) return files[j];
  }
  return std::nullopt;
}

// --submission: the student variant of each slot given runs in the plan when its lab has the slot; a
// plan that lists a student variant needs its submission.
void add_student_variants(planned_lab& pl, const std::vector<std::string>& slots, std::vector<lab_problem>& problems) {
  for (const slot_spec& s : pl.plugin->spec.slots) {
    const std::string name = student_variant(s.name);
    auto& listed = pl.plan.variants;
    const bool given = std::find(slots.begin(), slots.end(), s.name) != slots.end();
    const bool in_plan = std::find(listed.begin(), listed.end(), name) != listed.end();
    if (given && !in_plan) listed.push_back(name);
    if (!given && in_plan) {
      lab_problem problem;
      problem.where.file = pl.file_arg;
      problem.message = "variant '" + name + "' runs a submission for slot '" + s.name +
                        "': give it with --submission " + s.name + "=FILE";
      problems.push_back(std::move(problem));
    }
  }
}

// A slot of --submission that no plan's lab has.
void check_submitted_slots(const std::vector<planned_lab>& plans, const std::vector<std::string>& slots,
                           std::vector<lab_problem>& problems) {
  std::vector<std::string> known;
  for (const planned_lab& pl : plans)
    for (const slot_spec& s : pl.plugin->spec.slots) known.push_back(s.name);
  for (const std::string& slot : slots) {
    if (std::find(known.begin(), known.end(), slot) != known.end()) continue;
    lab_problem problem;
    problem.where.file = "--submission " + slot;
    const auto near = nearest_name(slot, known);
    problem.message = "no lab of these lab files has a slot '" + slot + "'" +
                      (near            ? "; did you mean '" + *near + "'?"
                       : known.empty() ? " (they have no slot)"
                                       : " (slots: " + joined(known, ", ") + ")");
    problems.push_back(std::move(problem));
  }
}

}  // namespace

std::vector<planned_lab> plan_lab_files(const plan_request& request) {
  std::vector<planned_lab> plans;
  std::vector<lab_problem> problems;
  std::optional<plugin_error> first_plugin_error;
  for (std::size_t i = 0; i < request.files.size(); ++i) {
    const std::string& file = request.files[i];
    if (const auto earlier = named_before(request.files, i)) {
      lab_problem problem;
      problem.where.file = file;
      problem.message = "the same lab file as " + *earlier + ", given before it: give each lab file once";
      problems.push_back(std::move(problem));
      continue;
    }
    try {
      const lab_file parsed = request.texts.empty() ? parse_lab_file(file) : parse_lab_text(request.texts.at(i), file);
      const loaded_plugin* found = plugin_named_by(parsed, request.search_path, problems, first_plugin_error);
      if (!found) continue;
      const loaded_plugin& plugin = *found;
      planned_lab pl{
          file, &plugin,
          validate_lab_file(parsed, plugin.spec, check_params_of(plugin), request.profile, request.overrides),
          parsed.text};
      if (request.submitted_slots) add_student_variants(pl, *request.submitted_slots, problems);
      check_variant_filter(pl, request.variant_filter, problems);
      plans.push_back(std::move(pl));
    } catch (const lab_file_error& e) {
      problems.insert(problems.end(), e.problems().begin(), e.problems().end());
    }
  }
  // Only when every file planned: a slot of a file that failed is not missing.
  if (!first_plugin_error && request.submitted_slots && plans.size() == request.files.size())
    check_submitted_slots(plans, *request.submitted_slots, problems);
  if (!problems.empty()) throw lab_file_error(problems);
  if (first_plugin_error) throw *first_plugin_error;
  for (const planned_lab& pl : plans) check_traffic(pl, request.variant_filter);
  return plans;
}

std::vector<std::string> variants_to_run(const lab_plan& plan, const std::vector<std::string>& filter) {
  auto wanted = [&](const std::string& v) {
    return filter.empty() || std::find(filter.begin(), filter.end(), v) != filter.end();
  };
  std::vector<std::string> out;
  for (const auto& v : plan.variants)
    if (v != plan.baseline && wanted(v)) out.push_back(v);
  // The baseline runs first, listed or not, so every other variant is compared with it at once.
  if (!plan.baseline.empty() && (!out.empty() || wanted(plan.baseline))) out.insert(out.begin(), plan.baseline);
  return out;
}

std::vector<lab_description> describe_plans(const std::vector<planned_lab>& plans,
                                            const std::vector<std::string>& variant_filter) {
  std::vector<lab_description> out;
  for (const planned_lab& pl : plans) {
    lab_description d;
    d.file = pl.file_arg;
    d.plugin = pl.plugin->spec.name;
    d.title = pl.plan.title;
    d.about = leading_comment(pl.text);
    for (const param_spec& ps : pl.plugin->spec.params)
      d.params.emplace_back(ps.name, value_text(pl.plan.base.values().at(ps.name)));
    for (const sweep_axis& axis : pl.plan.sweep) {
      std::vector<std::string> values;
      for (const param_value& v : axis.values) values.push_back(value_text(v));
      d.sweep.emplace_back(axis.name, std::move(values));
      d.sweep_spacing.emplace_back(axis.name, spacing_name(axis.spacing));
    }
    for (const sweep_dimension& dim : pl.plan.dimensions()) {
      if (dim.last - dim.first < 2) continue;  // an axis of its own (or a group --set left one axis of)
      std::vector<std::string> names;
      for (std::size_t a = dim.first; a < dim.last; ++a) names.push_back(pl.plan.sweep[a].name);
      d.sweep_zip.push_back(std::move(names));
    }
    d.measure = measure_values(pl.plan.measure);
    d.variants = variants_to_run(pl.plan, variant_filter);
    out.push_back(std::move(d));
  }
  return out;
}

std::string leading_comment(const std::string& lab_text) {
  std::string about;
  std::size_t blanks = 0;  // blank lines seen since the last comment, kept only if another comment follows
  std::size_t at = 0;
  if (lab_text.compare(0, 3, "\xEF\xBB\xBF") == 0) at = 3;  // a UTF-8 byte-order mark
  while (at < lab_text.size()) {
    const std::size_t end = std::min(lab_text.find('\n', at), lab_text.size());
    std::string line = lab_text.substr(at, end - at);
    at = end + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos) {
      if (!about.empty()) ++blanks;
      continue;
    }
    if (line[first] != '#') break;
    line.erase(0, first + 1);
    if (!line.empty() && line[0] == ' ') line.erase(0, 1);
    const bool blank = line.find_first_not_of(" \t") == std::string::npos;
    if (blank && about.empty()) continue;
    about += std::string(blanks, '\n') + (blank ? "" : line) + "\n";
    blanks = 0;
  }
  while (!about.empty() && about.back() == '\n') about.pop_back();
  return about;
}

std::uint64_t result_count(const std::vector<planned_lab>& plans, const std::vector<std::string>& filter) {
  std::uint64_t total = 0;
  for (const planned_lab& pl : plans) total += pl.plan.point_count() * variants_to_run(pl.plan, filter).size();
  return total;
}

}  // namespace cudalab::host
