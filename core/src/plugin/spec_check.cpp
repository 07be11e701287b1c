// Checking a plugin's spec when it loads (spec_check.hpp).
#include "plugin/spec_check.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace cudalab::host {

namespace {

// The index param_value holds for each param_type.
std::size_t alternative_of(param_type t) {
  switch (t) {
    case param_type::integer: return 0;
    case param_type::real: return 1;
    case param_type::boolean: return 2;
    case param_type::choice: return 3;
  }
  return 0;
}

std::string number_text(double v) {
  if (v == std::floor(v) && std::fabs(v) < 9.2e18) return std::to_string(static_cast<long long>(v));
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  return s;
}

std::string listing(const std::vector<std::int64_t>& values) {
  std::string s;
  for (std::size_t i = 0; i < values.size(); ++i)
    s += (i == 0 ? "" : i + 1 == values.size() ? " or " : ", ") + std::to_string(values[i]);
  return s;
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

void check_param(const param_spec& p, std::vector<std::string>& problems) {
  const std::string who = "parameter '" + p.name + "'";
  if (!is_identifier(p.name))
    problems.push_back(who + ": a name is lower-case letters, digits and '_', starting with a letter");
  if (p.default_value.index() != alternative_of(p.type)) {
    problems.push_back(who + " is declared " + param_type_name(p.type) + " but its default is not");
    return;
  }
  if (p.min && p.max && *p.min > *p.max)
    problems.push_back(who + ": its range [" + number_text(*p.min) + ", " + number_text(*p.max) + "] is empty");
  if (p.type == param_type::choice) {
    if (p.choices.empty()) problems.push_back(who + " is a choice with no choices");
    std::set<std::string> seen;
    for (const auto& c : p.choices)
      if (!seen.insert(c).second) problems.push_back(who + ": choice \"" + c + "\" is listed twice");
  }
  if (p.multiple_of < 0) problems.push_back(who + ": multiple_of is negative");
  const std::string bad = value_problem(p, p.default_value);
  if (!bad.empty()) problems.push_back(who + ": its default " + bad);
}

}  // namespace

bool is_identifier(const std::string& name) {
  if (name.empty() || name.front() < 'a' || name.front() > 'z') return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

std::string value_problem(const param_spec& spec, const param_value& value) {
  if (const auto* i = std::get_if<std::int64_t>(&value)) {
    const double v = double(*i);
    if ((spec.min && v < *spec.min) || (spec.max && v > *spec.max))
      return std::to_string(*i) + " is out of range [" + (spec.min ? number_text(*spec.min) : "-inf") + ", " +
             (spec.max ? number_text(*spec.max) : "inf") + "]";
    if (!spec.allowed.empty() && std::find(spec.allowed.begin(), spec.allowed.end(), *i) == spec.allowed.end())
      return std::to_string(*i) + " is not " + listing(spec.allowed);
    if (spec.multiple_of > 0 && *i % spec.multiple_of != 0)
      return std::to_string(*i) + " is not a multiple of " + std::to_string(spec.multiple_of);
  } else if (const auto* r = std::get_if<double>(&value)) {
    if (!std::isfinite(*r)) return number_text(*r) + " is not a finite number";
    if ((spec.min && *r < *spec.min) || (spec.max && *r > *spec.max))
      return number_text(*r) + " is out of range [" + (spec.min ? number_text(*spec.min) : "-inf") + ", " +
             (spec.max ? number_text(*spec.max) : "inf") + "]";
  } else if (const auto* s = std::get_if<std::string>(&value)) {
    if (spec.type == param_type::choice && std::find(spec.choices.begin(), spec.choices.end(), *s) == spec.choices.end())
      return "\"" + *s + "\" is not one of its choices";
  }
  return "";
}

std::vector<std::string> spec_problems(const lab_spec& spec, const std::string& expected_name) {
  std::vector<std::string> problems;
  if (spec.name != expected_name)
    problems.push_back("its name is '" + spec.name + "' but its file is cudalab_" + expected_name +
                       ".so; make spec().name the file's name");
  else if (!is_identifier(spec.name))
    problems.push_back("its name '" + spec.name + "' is not lower-case letters, digits and '_'");
  for (const param_spec& p : spec.params) check_param(p, problems);
  for (const std::string& name : duplicates(spec.params, param_name))
    problems.push_back("parameter '" + name + "' is declared twice");
  if (spec.variants.empty()) problems.push_back("it declares no variant");
  for (const variant_spec& v : spec.variants)
    if (!is_identifier(v.name))
      problems.push_back("variant '" + v.name + "': a name is lower-case letters, digits and '_', starting with a letter");
  for (const std::string& name : duplicates(spec.variants, variant_name))
    problems.push_back("variant '" + name + "' is declared twice");
  if (!spec.baseline.empty() &&
      std::none_of(spec.variants.begin(), spec.variants.end(), [&](const variant_spec& v) { return v.name == spec.baseline; }))
    problems.push_back("its baseline '" + spec.baseline + "' is not one of its variants");
  return problems;
}

}  // namespace cudalab::host
