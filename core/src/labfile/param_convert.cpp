// Lab-file values to parameter values: the type each parameter declares, and its range.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "labfile/toml_tree.hpp"

namespace cudalab::host {
namespace {

std::string quoted_choices(const std::vector<std::string>& choices) {
  std::string text;
  for (const std::string& c : choices) text += (text.empty() ? "\"" : ", \"") + c + "\"";
  return text;
}

// "" when `value` lies within spec's [min, max], else what is wrong, naming the range.
}  // namespace

std::optional<param_value> to_param_value(const param_spec& spec, const toml::node& node, std::string& error) {
  const std::string name = "'" + spec.name + "'";
  switch (spec.type) {
    case param_type::integer:
      if (auto i = node.as_integer()) return param_value(i->get());
      if (auto s = node.as_string()) {
        if (auto size = parse_size(s->get())) return param_value(*size);
        if (size_overflows(s->get())) {
          error = name + " = \"" + s->get() + "\" overflows a signed 64-bit integer (at most " +
                  std::to_string(std::numeric_limits<std::int64_t>::max()) + ")";
          return std::nullopt;
        }
        error = name + " must be an integer or a size such as \"64Ki\", \"256Mi\", \"1G\" or \"2^28\"; \"" + s->get() +
                "\" is not one";
        return std::nullopt;
      }
      error = name + " is an integer parameter, not " + describe_node(node);
      return std::nullopt;
    case param_type::real:
      if (auto i = node.as_integer()) return param_value(static_cast<double>(i->get()));
      if (auto f = node.as_floating_point()) return param_value(f->get());
      error = name + " is a real parameter (a number), not " + describe_node(node);
      return std::nullopt;
    case param_type::boolean:
      if (auto b = node.as_boolean()) return param_value(b->get());
      error = name + " is a boolean parameter (true or false), not " + describe_node(node);
      return std::nullopt;
    case param_type::choice:
      if (auto s = node.as_string()) {
        for (const std::string& c : spec.choices)
          if (c == s->get()) return param_value(c);
        error = name + " must be one of " + quoted_choices(spec.choices) + "; \"" + s->get() + "\" is not one" +
                suggestion(s->get(), spec.choices, "\"", "\"");
        return std::nullopt;
      }
      error = name + " must be one of " + quoted_choices(spec.choices) + " (a string), not " + describe_node(node);
      return std::nullopt;
  }
  error = name + " has an unknown type";
  return std::nullopt;
}

std::optional<param_value> checked_value(const param_spec& spec, const toml::node& node, const source_location& at,
                                         const std::string& context, std::vector<lab_problem>& problems) {
  std::string error;
  auto value = to_param_value(spec, node, error);
  if (value) error = value_problem(spec, *value);
  if (!error.empty()) {
    problems.push_back({at, context + error});
    return std::nullopt;
  }
  return value;
}

std::string value_problem(const param_spec& spec, const param_value& value) {
  if (const auto* text = std::get_if<std::string>(&value)) {
    if (spec.type != param_type::choice ||
        std::find(spec.choices.begin(), spec.choices.end(), *text) != spec.choices.end())
      return "";
    return "'" + spec.name + "' = \"" + *text + "\" is not one of " + quoted_choices(spec.choices);
  }
  double v = 0;
  if (auto i = std::get_if<std::int64_t>(&value))
    v = static_cast<double>(*i);
  else if (auto d = std::get_if<double>(&value))
    v = *d;
  else
    return "";
  if (!std::isfinite(v)) return "'" + spec.name + "' = " + value_text(value) + " is not a finite number";
  const bool low = spec.min && v < *spec.min;
  const bool high = spec.max && v > *spec.max;
  if (!low && !high) {
    const auto* i = std::get_if<std::int64_t>(&value);
    if (i && !spec.allowed.empty() && std::find(spec.allowed.begin(), spec.allowed.end(), *i) == spec.allowed.end()) {
      std::string allowed;
      for (std::size_t k = 0; k < spec.allowed.size(); ++k)
        allowed += (k == 0 ? "" : k + 1 == spec.allowed.size() ? " or " : ", ") + std::to_string(spec.allowed[k]);
      return "'" + spec.name + "' = " + value_text(value) + " is not " + allowed;
    }
    if (i && spec.multiple_of > 0 && *i % spec.multiple_of != 0)
      return "'" + spec.name + "' = " + value_text(value) + " is not a multiple of " + std::to_string(spec.multiple_of);
    return "";
  }
  auto bound = [&](double b) {
    return spec.type == param_type::integer ? std::to_string(static_cast<std::int64_t>(b)) : value_text(param_value(b));
  };
  std::string range;
  if (spec.min && spec.max)
    range = "[" + bound(*spec.min) + ", " + bound(*spec.max) + "]";
  else if (spec.min)
    range = "(at least " + bound(*spec.min) + ")";
  else
    range = "(at most " + bound(*spec.max) + ")";
  return "'" + spec.name + "' = " + value_text(value) + " is out of range " + range +
         (spec.unit.empty() ? "" : " (" + spec.unit + ")");
}

}  // namespace cudalab::host
