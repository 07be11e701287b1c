// Loading and checking an assignment (assignment.hpp).
#include "assignment/assignment.hpp"

#include <fmt/format.h>

#include "exit_codes.hpp"
#include "labfile/spec_lookup.hpp"

namespace cudalab::host {

std::string loaded_assignment::test_lab(const assignment_test& t) const {
  return test_lab_text(file, t, base, student_variant(slot->name));
}

loaded_assignment load_assignment(const std::filesystem::path& path,
                                  const std::vector<std::filesystem::path>& search_path) {
  loaded_assignment a;
  a.file = parse_assignment(path);
  std::vector<lab_problem> problems;
  try {
    a.base = parse_lab_file(a.file.lab);
  } catch (const lab_file_error& e) {
    problems.push_back({a.file.lab_where, "assignment.lab '" + a.file.lab_as_written + "' cannot be used:"});
    problems.insert(problems.end(), e.problems().begin(), e.problems().end());
    throw lab_file_error(problems);
  }
  plan_request lab_request;
  lab_request.files = {a.file.lab.string()};
  lab_request.search_path = search_path;
  a.plugin = plan_lab_files(lab_request).front().plugin;  // the lab file itself is valid
  const lab_spec& spec = a.plugin->spec;
  a.slot = slot_named(spec, a.file.slot);
  if (!a.slot) {
    problems.push_back({a.file.slot_where, no_slot_message(spec, a.file.slot)});
    throw lab_file_error(problems);
  }
  // Each test's lab file planned as `check` will run it; its problems are the test's.
  for (const assignment_test& t : a.file.tests) {
    plan_request r;
    r.files = {a.file.path.string() + " test '" + t.name + "'"};
    r.texts = {a.test_lab(t)};
    r.search_path = search_path;
    r.submitted_slots = std::vector<std::string>{a.slot->name};
    try {
      plan_lab_files(r);
    } catch (const lab_file_error& e) {
      for (const lab_problem& p : e.problems()) problems.push_back({t.where, "test '" + t.name + "': " + p.message});
    }
  }
  if (!problems.empty()) throw lab_file_error(problems);
  return a;
}

int load_assignment_for_command(const std::filesystem::path& path,
                                const std::vector<std::filesystem::path>& search_path, loaded_assignment& out) {
  try {
    out = load_assignment(path, search_path);
  } catch (const lab_file_error& e) {
    fmt::print(stderr, "{}\n", e.what());
    return exit_bad_lab_file;
  } catch (const plugin_error& e) {
    fmt::print(stderr, "cudalab: {}\n", e.what());
    return exit_plugin;
  }
  return exit_ok;
}

}  // namespace cudalab::host
