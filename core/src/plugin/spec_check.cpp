// Checking a plugin's spec when it loads (spec_check.hpp).
#include "plugin/spec_check.hpp"

#include <algorithm>
#include <set>

#include "labfile/values.hpp"
#include "results/console_text.hpp"
#include "slots/solution_regions.hpp"

namespace cudalab::host {

namespace {

// The index param_value holds for each param_type.
std::size_t alternative_of(param_type t) {
  switch (t) {
    case param_type::integer:
      return 0;
    case param_type::real:
      return 1;
    case param_type::boolean:
      return 2;
    case param_type::choice:
      return 3;
  }
  return 0;
}

template <class T>
std::vector<std::string> duplicates(const std::vector<T>& items, std::string (*name_of)(const T&)) {
  std::set<std::string> seen, reported;
  std::vector<std::string> out;
  for (const T& item : items) {
    const std::string name = name_of(item);
    if (!seen.insert(name).second && reported.insert(name).second) out.push_back(name);
  }
  return out;
}

std::string param_name(const param_spec& p) { return p.name; }
std::string variant_name(const variant_spec& v) { return v.name; }
std::string slot_name(const slot_spec& s) { return s.name; }

bool is_c_identifier(const std::string& name) {
  auto word = [](char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  return !name.empty() && word(name.front()) &&
         std::all_of(name.begin(), name.end(), [&](char c) { return word(c) || (c >= '0' && c <= '9'); });
}

void check_slot(const lab_spec& spec, const slot_spec& s, std::vector<std::string>& problems) {
  const std::string who = "slot '" + printable(s.name) + "'";
  if (!is_identifier(s.name))
    problems.push_back(who + ": a name is lower-case letters, digits and '_', starting with a letter");
  if (std::none_of(spec.variants.begin(), spec.variants.end(),
                   [&](const variant_spec& v) { return v.name == s.variant; }))
    problems.push_back(who + ": its variant '" + printable(s.variant) +
                       "' is not one of the lab's variants (the slot does that variant's job)");
  if (!is_c_identifier(s.entry))
    problems.push_back(who + ": its entry '" + printable(s.entry) + "' is not a C function name");
  const bool cu = s.file_name.size() > 3 && s.file_name.compare(s.file_name.size() - 3, 3, ".cu") == 0;
  if (!cu || s.file_name.find('/') != std::string::npos || s.file_name.front() == '.')
    problems.push_back(who + ": its file name '" + printable(s.file_name) + "' is not a plain NAME.cu");
  try {
    if (solution_region_count(s.reference, s.file_name) == 0)
      problems.push_back(who +
                         ": its reference has no \"// BEGIN SOLUTION\" region (the starter is made by "
                         "replacing those)");
  } catch (const solution_markers_error& e) {
    problems.push_back(who + ": its reference: " + e.what());
  }
  if (s.reference.find(s.entry) == std::string::npos)
    problems.push_back(who + ": its reference never names its entry '" + printable(s.entry) + "'");
}

void check_param(const param_spec& p, std::vector<std::string>& problems) {
  const std::string who = "parameter '" + printable(p.name) + "'";
  if (!is_identifier(p.name))
    problems.push_back(who + ": a name is lower-case letters, digits and '_', starting with a letter");
  if (p.default_value.index() != alternative_of(p.type)) {
    problems.push_back(who + " is declared " + param_type_name(p.type) + " but its default is not");
    return;
  }
  if (p.min && p.max && *p.min > *p.max)
    problems.push_back(who + ": its range [" + value_text(param_value(*p.min)) + ", " +
                       value_text(param_value(*p.max)) + "] is empty");
  if (p.type == param_type::choice) {
    if (p.choices.empty()) problems.push_back(who + " is a choice with no choices");
    std::set<std::string> seen;
    for (const auto& c : p.choices)
      if (!seen.insert(c).second) problems.push_back(who + ": choice \"" + c + "\" is listed twice");
  }
  if (p.multiple_of < 0) problems.push_back(who + ": multiple_of is negative");
  if (p.type == param_type::choice) {
    const std::string& def = std::get<std::string>(p.default_value);
    if (std::find(p.choices.begin(), p.choices.end(), def) == p.choices.end())
      problems.push_back(who + ": its default \"" + def + "\" is not one of its choices");
    return;
  }
  const std::string bad = value_problem(p, p.default_value);
  if (!bad.empty()) problems.push_back(who + ": its default is wrong: " + bad);
}

}  // namespace

bool is_identifier(const std::string& name) {
  if (name.empty() || name.front() < 'a' || name.front() > 'z') return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

std::vector<std::string> spec_problems(const lab_spec& spec, const std::string& expected_name) {
  std::vector<std::string> problems;
  if (spec.name != expected_name)
    problems.push_back("its name is '" + printable(spec.name) + "' but its file is cudalab_" +
                       printable(expected_name) + ".so; make spec().name the file's name");
  else if (!is_identifier(spec.name))
    problems.push_back("its name '" + printable(spec.name) + "' is not lower-case letters, digits and '_'");
  for (const param_spec& p : spec.params) check_param(p, problems);
  for (const std::string& name : duplicates(spec.params, param_name))
    problems.push_back("parameter '" + name + "' is declared twice");
  if (spec.variants.empty()) problems.push_back("it declares no variant");
  for (const variant_spec& v : spec.variants)
    if (!is_identifier(v.name))
      problems.push_back("variant '" + printable(v.name) +
                         "': a name is lower-case letters, digits and '_', starting with a letter");
  for (const std::string& name : duplicates(spec.variants, variant_name))
    problems.push_back("variant '" + name + "' is declared twice");
  if (!spec.baseline.empty() && std::none_of(spec.variants.begin(), spec.variants.end(),
                                             [&](const variant_spec& v) { return v.name == spec.baseline; }))
    problems.push_back("its baseline '" + spec.baseline + "' is not one of its variants");
  for (const slot_spec& s : spec.slots) check_slot(spec, s, problems);
  for (const std::string& name : duplicates(spec.slots, slot_name))
    problems.push_back("slot '" + name + "' is declared twice");
  return problems;
}

}  // namespace cudalab::host
