// Looking things up in a lab's spec: its default parameters, and a variant by name.
#include "labfile/spec_lookup.hpp"

#include <stdexcept>

#include "labfile/values.hpp"

namespace cudalab::host {

params default_params(const lab_spec& spec) {
  params p;
  for (const param_spec& ps : spec.params) p.set(ps.name, ps.default_value);
  return p;
}

std::string differing_text(const lab_spec& spec, const params& p) {
  const params defaults = default_params(spec);
  std::vector<std::pair<std::string, std::string>> labels;
  for (const auto& [name, value] : p.values())
    if (defaults.values().count(name) == 0 || defaults.values().at(name) != value)
      labels.emplace_back(name, value_text(value));
  return labels_text(labels);
}

std::string student_variant(const std::string& slot) { return student_prefix + slot; }

const slot_spec* slot_named(const lab_spec& spec, const std::string& name) {
  for (const slot_spec& s : spec.slots)
    if (s.name == name) return &s;
  return nullptr;
}

std::string no_slot_message(const lab_spec& spec, const std::string& name) {
  std::vector<std::string> names;
  std::string list;
  for (const slot_spec& s : spec.slots) {
    names.push_back(s.name);
    list += (list.empty() ? "" : ", ") + s.name;
  }
  const auto near = nearest_name(name, names);
  return "lab '" + spec.name + "' has no slot '" + name + "'" +
         (near            ? "; did you mean '" + *near + "'?"
          : names.empty() ? " (it has no slot)"
                          : " (its slots: " + list + ")");
}

const slot_spec* slot_of(const lab_spec& spec, const std::string& name) {
  const std::string prefix = student_prefix;
  if (name.compare(0, prefix.size(), prefix) != 0) return nullptr;
  return slot_named(spec, name.substr(prefix.size()));
}

std::vector<std::string> variant_names(const lab_spec& spec) {
  std::vector<std::string> names;
  for (const variant_spec& v : spec.variants) names.push_back(v.name);
  for (const slot_spec& s : spec.slots) names.push_back(student_variant(s.name));
  return names;
}

variant_index variant_of(const lab_spec& spec, const std::string& name) {
  const slot_spec* slot = slot_of(spec, name);
  const std::string& wanted = slot ? slot->variant : name;
  for (variant_index i = 0; i < spec.variants.size(); ++i)
    if (spec.variants[i].name == wanted) return i;
  std::string names;
  for (const std::string& n : variant_names(spec)) names += (names.empty() ? "" : ", ") + n;
  throw std::out_of_range("lab '" + spec.name + "' has no variant '" + name + "' (it has: " + names + ")");
}

std::string variant_summary(const lab_spec& spec, const std::string& name) {
  if (const slot_spec* slot = slot_of(spec, name)) return "your " + slot->file_name + ": " + slot->summary;
  return spec.variants.at(variant_of(spec, name)).summary;
}

bool same_data(const lab_spec& spec, const params& a, const params& b) {
  for (const param_spec& ps : spec.params) {
    if (ps.tuning) continue;
    const auto ia = a.values().find(ps.name), ib = b.values().find(ps.name);
    if (ia == a.values().end() || ib == b.values().end() || ia->second != ib->second) return false;
  }
  return true;
}

}  // namespace cudalab::host
