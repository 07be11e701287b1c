// Planning: lab files on the command line -> loaded plugins + validated plans, before any GPU work.
#include "planning.hpp"

#include <algorithm>
#include <cstdio>
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

}  // namespace cudalab::host

namespace cudalab::host {

std::uint64_t host_memory_available() {
  std::FILE* f = std::fopen("/proc/meminfo", "r");
  if (!f) return 0;
  char line[256];
  std::uint64_t kib = 0;
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "MemAvailable: %lu kB", &kib) == 1) break;
  std::fclose(f);
  return kib * 1024;
}

std::vector<lab_problem> check_memory(const std::vector<planned_lab>& plans, std::uint64_t device_bytes,
                                      std::uint64_t host_bytes) {
  auto gib = [](std::uint64_t b) { return std::to_string(double(b) / double(1ull << 30)).substr(0, 6) + " GiB"; };
  std::vector<lab_problem> problems;
  for (const planned_lab& pl : plans) {
    for (std::uint64_t i = 0; i < pl.plan.point_count(); ++i) {
      const requirements need = pl.plugin->instance->require(pl.plan.point(i));
      std::string labels;
      for (const auto& [k, v] : pl.plan.point_labels(i)) labels += " " + k + "=" + v;
      auto refuse = [&](const std::string& what, std::uint64_t needed, std::uint64_t have) {
        lab_problem p;
        p.where.file = pl.file_arg;
        p.message = "point" + (labels.empty() ? std::string(" (no sweep)") : labels) + " needs " + gib(needed) +
                    " of " + what + " but " + gib(have) + " is available; use a smaller size (--set n=...)";
        problems.push_back(std::move(p));
      };
      if (device_bytes > 0 && need.device_bytes > device_bytes) refuse("device memory", need.device_bytes, device_bytes);
      const std::uint64_t host_need = need.host_bytes + need.host_pinned_bytes;
      if (host_bytes > 0 && host_need > host_bytes) refuse("host memory", host_need, host_bytes);
    }
  }
  return problems;
}

}  // namespace cudalab::host
