// Values in words: parameter values and point labels, TOML nodes for error messages.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "labfile/toml_tree.hpp"

namespace cudalab::host {
namespace {

// The shortest of %.15g and %.17g that reads back as the same double.
std::string real_text(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.15g", v);
  if (std::strtod(buffer, nullptr) != v) std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

// A TOML float as a float: a whole one keeps a ".0" (64.0, not 64, which would read as an integer).
std::string float_text(double v) {
  std::string text = real_text(v);
  if (text.find_first_not_of("-0123456789") == std::string::npos) text += ".0";
  return text;
}

}  // namespace

std::string value_text(const param_value& value) {
  struct visitor {
    std::string operator()(std::int64_t v) const { return std::to_string(v); }
    std::string operator()(double v) const { return real_text(v); }
    std::string operator()(bool v) const { return v ? "true" : "false"; }
    std::string operator()(const std::string& v) const { return v; }
  };
  return std::visit(visitor{}, value);
}

std::string labels_text(const std::vector<std::pair<std::string, std::string>>& labels) {
  std::string text;
  for (const auto& [name, value] : labels) text += (text.empty() ? "" : " ") + name + "=" + value;
  return text;
}

std::string describe_node(const toml::node& node) {
  if (auto s = node.as_string()) return "a string \"" + s->get() + "\"";
  if (auto i = node.as_integer()) return "an integer " + std::to_string(i->get());
  if (auto f = node.as_floating_point()) return "a float " + float_text(f->get());
  if (auto b = node.as_boolean()) return std::string("a boolean ") + (b->get() ? "true" : "false");
  if (node.is_array()) return "an array";
  if (node.is_table()) return "a table";
  return "a date or time";
}

}  // namespace cudalab::host
