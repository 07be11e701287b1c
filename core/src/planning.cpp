// Planning: lab files on the command line -> loaded plugins + validated plans, before any GPU work.
#include "planning.hpp"

#include <algorithm>
#include <optional>

namespace cudalab::host {

std::vector<planned_lab> plan_lab_files(const plan_request& request) {
  std::vector<planned_lab> plans;
  std::vector<lab_problem> problems;
  std::optional<plugin_error> first_plugin_error;
  for (const std::string& file : request.files) {
    try {
      const lab_file parsed = parse_lab_file(file);
      const loaded_plugin& plugin = load_plugin(parsed.plugin, request.search_path);
      planned_lab pl{file, &plugin, validate_lab_file(parsed, *plugin.instance, request.profile, request.overrides)};
      for (const auto& v : request.variant_filter) {
        std::vector<std::string> names;
        for (const auto& sv : plugin.spec.variants) names.push_back(sv.name);
        if (std::find(names.begin(), names.end(), v) == names.end()) {
          const auto near = nearest_name(v, names);
          lab_problem problem;
          problem.where.file = "--variant " + v;
          problem.message = "lab '" + plugin.spec.name + "' (" + file + ") has no variant '" + v + "'" +
                            (near ? "; did you mean '" + *near + "'?" : "");
          problems.push_back(std::move(problem));
        }
      }
      plans.push_back(std::move(pl));
    } catch (const lab_file_error& e) {
      problems.insert(problems.end(), e.problems().begin(), e.problems().end());
    } catch (const plugin_error& e) {
      if (!first_plugin_error) first_plugin_error = e;
    }
  }
  if (!problems.empty()) throw lab_file_error(problems);
  if (first_plugin_error) throw *first_plugin_error;
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

}  // namespace cudalab::host
