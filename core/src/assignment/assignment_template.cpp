// A new assignment's file (assignment_template.hpp).
#include "assignment/assignment_template.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "labfile/spec_lookup.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

namespace {

// The parameter the tests vary the size with: the first integer parameter that is not a tuning one.
const param_spec* size_param(const lab_spec& spec) {
  for (const param_spec& p : spec.params)
    if (p.type == param_type::integer && !p.tuning) return &p;
  return nullptr;
}

std::int64_t bound_of(const param_spec& p, bool upper, std::int64_t fallback) {
  const auto& b = upper ? p.max : p.min;
  return b ? static_cast<std::int64_t>(*b) : fallback;
}

}  // namespace

std::string assignment_template(const planned_lab& lab, const std::string& slot, const fs::path& assignment_path) {
  const lab_spec& spec = lab.plugin->spec;
  const slot_spec* found = slot_named(spec, slot);
  if (!found) throw std::invalid_argument(no_slot_message(spec, slot));
  const fs::path folder = fs::absolute(assignment_path).parent_path();
  const std::string lab_path = fs::absolute(lab.file_arg).lexically_proximate(folder).generic_string();
  const std::string id = folder.filename().string();
  std::string out;
  out += "# Assignment for slot '" + slot + "' of lab '" + spec.name + "', made by `cudalab assignment init`.\n";
  out +=
      "# Edit the tests and points; `cudalab validate` checks this file, `cudalab assignment starter` makes the kit.\n";
  out += "[assignment]\n";
  out += "id = \"" + id + "\"\n";
  out += "title = \"" + spec.title + ": write " + found->entry + "\"\n";
  out += "lab = \"" + lab_path + "\"\n";
  out += "slot = \"" + slot + "\"\n";
  out += "points = 100\n";
  out += "description = \"" + found->summary + ".\"\n\n";
  out += "[submission]\nfile = \"" + found->file_name + "\"\nmax_bytes = \"256Ki\"\n\n";
  out += "[build]\nflags = [\"-lineinfo\"]\n";
  out +=
      "deny_headers = [\"cub/*\", \"thrust/*\", \"cuda/*\", \"cublas*\", \"cutlass/*\"]  # matched on every header "
      "reached\n";
  out += "allow_libraries = []\ncompile_timeout_s = 120\n\n";
  out += "[limits]\nunit_timeout_s = 30  # a test that sends no result for this long is stopped (an endless kernel)\n";
  out += "total_timeout_s = 900\n\n[anti_cheat]\nroofline_margin = 1.05\n";
  out += "census = true  # CUPTI records the kernels, copies and memsets of each checked run\n";
  out += "kernels = { min = 1, deny = [\"*cub::*\", \"*thrust::*\", \"*cublas*\", \"*cutlass*\"] }  # names as globs\n";
  out += "stream = \"session\"  # \"joined\" where the lab hands the slot streams of its own\n";
  out += "host_copies = \"deny\"  # no host<->device copy while a device-memory lab's submission runs\n";
  out += "\n[feedback]\nmax_failures = 5\n";

  const param_spec* size = size_param(spec);
  std::string odd, random, small;
  if (size) {
    const std::int64_t lo = bound_of(*size, false, 1), hi = bound_of(*size, true, std::int64_t(1) << 30);
    std::vector<std::int64_t> picks;
    for (const std::int64_t v : {std::int64_t(1), std::int64_t(3), std::int64_t(31), std::int64_t(33),
                                 std::int64_t(257), std::int64_t(4099), std::int64_t(100003)})
      if (v >= lo && v <= hi) picks.push_back(v);
    std::string values;
    for (const std::int64_t v : picks) values += (values.empty() ? "" : ", ") + std::to_string(v);
    odd = "sweep = { " + size->name + " = [" + values + "] }\n";
    const std::int64_t top = std::min<std::int64_t>(hi, std::int64_t(1) << 24);
    random = fmt::format("random = {{ {} = {{ from = {}, to = {}, count = 4, scale = \"log\" }} }}\n", size->name,
                         std::max<std::int64_t>(lo, 1), std::max<std::int64_t>(top, std::max<std::int64_t>(lo, 1)));
    small = fmt::format("params = {{ {} = {} }}\n", size->name, std::clamp<std::int64_t>(10007, lo, hi));
  }
  out +=
      "\n[[test]]\nname = \"odd-sizes\"\nkind = \"correctness\"\nvisibility = \"visible\"\npoints = 30\npartial = "
      "true\n" +
      odd;
  out += "\n[[test]]\nname = \"hidden-sizes\"\nkind = \"correctness\"\nvisibility = \"hidden\"\npoints = 20\n" + random;
  out += "\n[[test]]\nname = \"bandwidth\"\nkind = \"performance\"\nvisibility = \"visible\"\npoints = 40\n";
  out += "requires = [\"odd-sizes\"]\nmetric = \"pct_of_baseline\"\nzero_at = 30\nfull_at = 90\n";
  out +=
      "\n[[test]]\nname = \"memcheck\"\nkind = \"sanitizer\"\ntool = \"memcheck\"\nvisibility = \"visible\"\npoints = "
      "5\n" +
      small;
  out +=
      "\n[[test]]\nname = \"racecheck\"\nkind = \"sanitizer\"\ntool = \"racecheck\"\nvisibility = \"visible\"\npoints "
      "= 5\n" +
      small;
  return out;
}

}  // namespace cudalab::host
