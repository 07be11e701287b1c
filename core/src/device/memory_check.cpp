// Memory checks before anything is allocated: every point's needs against the device's and the host's.
#include "device/memory_check.hpp"

#include <cstdio>

#include "labfile/values.hpp"
#include "plugin/plugin_call.hpp"

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
      const std::string labels = labels_text(pl.plan.point_labels(i));
      const requirements need = call_plugin(plugin_call{pl.plugin->spec.name, "requirements_of", "", labels},
                                            [&] { return pl.plugin->instance->requirements_of(pl.plan.point(i)); });
      auto refuse = [&](const std::string& what, std::uint64_t needed, std::uint64_t have) {
        lab_problem p;
        p.where.file = pl.file_arg;
        p.message = "point" + (labels.empty() ? std::string(" (no sweep)") : " " + labels) + " needs " + gib(needed) +
                    " of " + what + " but " + gib(have) + " is available; use a smaller size (--set n=...)";
        problems.push_back(std::move(p));
      };
      if (device_bytes > 0 && need.device_bytes > device_bytes)
        refuse("device memory", need.device_bytes, device_bytes);
      const std::uint64_t host_need = need.host_bytes + need.host_pinned_bytes;
      if (host_bytes > 0 && host_need > host_bytes) refuse("host memory", host_need, host_bytes);
    }
  }
  return problems;
}

}  // namespace cudalab::host
