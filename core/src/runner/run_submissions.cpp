// The submissions of a run (run_submissions.hpp).
#include "runner/run_submissions.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "exit_codes.hpp"

namespace cudalab::host {

namespace {

// The slot `slot` of the one lab among `plans` that has it (its lab's name in `lab`); nullptr when none has
// (planning refused that already). Throws std::invalid_argument when labs of two plugins have a slot of that name.
const slot_spec* find_slot(const std::vector<planned_lab>& plans, const std::string& slot, std::string* lab = nullptr) {
  const slot_spec* found = nullptr;
  std::string found_in;
  for (const planned_lab& pl : plans)
    for (const slot_spec& s : pl.plugin->spec.slots) {
      if (s.name != slot) continue;
      if (found && found_in != pl.plugin->spec.name)
        throw std::invalid_argument("labs " + found_in + " and " + pl.plugin->spec.name + " both have a slot '" + slot +
                                    "': run their lab files apart");
      found = &s;
      found_in = pl.plugin->spec.name;
    }
  if (lab) *lab = found_in;
  return found;
}

}  // namespace

int build_run_submissions(const std::vector<planned_lab>& plans, const std::vector<submission_arg>& given,
                          const device_info& device, const build_policy& policy, const std::filesystem::path& folder,
                          std::vector<submission_arg>& built) {
  built.clear();
  int code = exit_ok;
  for (const submission_arg& a : given) {
    const slot_spec* slot = find_slot(plans, a.slot);
    if (!slot) continue;
    if (is_built_submission(a.file)) {
      built.push_back(a);
      continue;
    }
    const built_submission b = build_submission(*slot, a.file, arch_of(device), policy, folder);
    for (const compile_diagnostic& d : b.diagnostics) fmt::print(stderr, "{}\n", d.text());
    if (!b.ok) {
      fmt::print(stderr, "cudalab: {} ({} for slot '{}') does not build for {}\n", a.file, slot->file_name, a.slot,
                 arch_of(device));
      code = exit_submission;
      continue;
    }
    built.push_back({a.slot, b.artifact});
  }
  return code;
}

void load_run_submissions(const std::vector<planned_lab>& plans, const std::vector<submission_arg>& built,
                          submission_codes& codes, const submission_codes::loader& load) {
  for (const submission_arg& a : built) {
    std::string lab;
    const slot_spec* slot = find_slot(plans, a.slot, &lab);
    if (slot) codes.load(lab, *slot, a.file, load);
  }
}

}  // namespace cudalab::host
