// A test's lab file: the assignment's lab file narrowed to one variant, with the test's parameters,
// sweep, drawn axes and [measure] settings (assignment_file.hpp: test_lab_text).
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "assignment/assignment_file.hpp"
#include "labfile/toml_reader.hpp"

namespace cudalab::host {

namespace {

// The parameters a line of a test's sweep sets: its key, or, for a `zip` line of groups (an array of
// tables; a lab may have a parameter called zip), the keys of every group.
std::vector<std::string> swept_names(const std::string& line) {
  const std::string key = line.substr(0, line.find(" = "));
  if (key != "zip") return {key};
  std::vector<std::string> names;
  const toml::table parsed = toml::parse(line);
  if (const toml::array* groups = parsed["zip"].as_array())
    for (const toml::node& g : *groups)
      if (const toml::table* t = g.as_table())
        for (const auto& [name, axis] : *t) names.emplace_back(name.str());
  return names.empty() ? std::vector<std::string>{key} : names;
}

}  // namespace

std::string test_lab_text(const assignment_file& a, const assignment_test& t, const lab_file& base,
                          const std::string& variant, const std::optional<test_draw>& draw) {
  std::vector<std::string> sweep = t.sweep;
  for (const std::string& line : draw ? draw_random_axes(t.random, draw->axes_seed) : t.drawn) sweep.push_back(line);
  auto key_of = [](const std::string& line) { return line.substr(0, line.find(" = ")); };
  std::ostringstream out;
  out << "# Test '" << t.name << "' of assignment " << a.id << " (" << a.path.filename().string() << "), made from "
      << base.path.filename().string() << ".\n";
  out << "[lab]\nplugin = " << toml::value<std::string>(base.plugin) << "\n";
  out << "title = " << toml::value<std::string>(a.title + ": " + t.name) << "\n";
  out << "variants = [" << toml::value<std::string>(variant) << "]\n";
  for (const std::string& line : table_lines(base, "lab"))
    if (key_of(line) == "baseline") out << line << "\n";
  std::vector<std::string> params = table_lines(base, "params");
  for (const std::string& line : t.params) {
    const auto same =
        std::find_if(params.begin(), params.end(), [&](const std::string& l) { return key_of(l) == key_of(line); });
    if (same != params.end()) params.erase(same);
    params.push_back(line);
  }
  // A parameter the test sweeps, on an axis of its own or in a zipped group, is not also set.
  for (const std::string& line : sweep)
    for (const std::string& name : swept_names(line))
      params.erase(
          std::remove_if(params.begin(), params.end(), [&](const std::string& l) { return key_of(l) == name; }),
          params.end());
  out << "\n[params]\n";
  for (const std::string& line : params) out << line << "\n";
  out << "\n[sweep]\n";
  for (const std::string& line : sweep) out << line << "\n";
  std::vector<std::string> measure = table_lines(base, "measure");
  // The test's own [measure] settings, over the lab file's.
  const auto set = [&](const std::string& key, const std::string& value) {
    measure.erase(
        std::remove_if(measure.begin(), measure.end(), [&](const std::string& l) { return key_of(l) == key; }),
        measure.end());
    measure.push_back(key + " = " + value);
  };
  if (t.kind != test_kind::performance) set("timing", "false");
  // A submission timed for points is verified again after its timed launches: one that computes on its
  // first launch only and skips the work afterwards fails instead of scoring.
  if (t.kind == test_kind::performance) set("verify_after_timing", "true");
  // Every timed launch of a graded test starts cold and from poisoned outputs: no launch finds the L2
  // warm, lines kept persisting, or the last launch's answer in place (docs/grading.md, "The census and
  // timing"). The baseline is timed the same way.
  if (t.kind == test_kind::performance) {
    set("l2_flush", "true");
    set("poison_each_launch", "true");
  }
  // The kernel census of each verified run, for the integrity checks; never under compute-sanitizer.
  set("census", a.census.enabled && t.kind != test_kind::sanitizer ? "true" : "false");
  // A hidden test drawn for a student: the lab's inputs from the student's seed. TOML integers are
  // signed 64-bit: the seed's top bit is dropped.
  if (draw) set("seed", std::to_string(draw->input_seed >> 1));
  out << "\n[measure]\n";
  for (const std::string& line : measure) out << line << "\n";
  return out.str();
}

bool draws_for_student(const assignment_test& t, bool grading) {
  if (!grading) return false;
  return t.visibility == test_visibility::hidden || (t.kind == test_kind::performance && t.random.empty());
}

}  // namespace cudalab::host
