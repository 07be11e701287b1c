// One [sweep] axis: a list of values, an inclusive {from, to, step} range or a geometric
// {from, to, factor} range, each value typed and range-checked against the parameter's spec.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "labfile/toml_tree.hpp"

namespace cudalab::host {
namespace {

// A typed, in-range value of the range's `key`, or nullopt with the problem recorded.
std::optional<param_value> range_end(const std::string& file, const param_spec& spec, const toml::table& range,
                                     const std::string& key, std::vector<lab_problem>& problems) {
  const toml::node* node = range.get(key);
  if (!node) {
    problems.push_back({locate(file, range.source()), "the range of '" + spec.name + "' has no '" + key + "'"});
    return std::nullopt;
  }
  return checked_value(spec, *node, locate(file, node->source()), "sweep '" + spec.name + "'." + key + ": ", problems);
}

double as_double(const param_value& v) {
  if (auto i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  return std::get<double>(v);
}

axis_values read_list(const std::string& file, const param_spec& spec, const toml::array& list, bool zipped,
                      std::vector<lab_problem>& problems) {
  axis_values axis;
  if (list.empty()) {
    problems.push_back(
        {locate(file, list.source()), "sweep of '" + spec.name + "' is empty (0 points): list at least one value"});
    return axis;
  }
  axis.ok = true;
  for (const toml::node& element : list) {
    const std::string context = "in the sweep of '" + spec.name + "': ";
    auto value = checked_value(spec, element, locate(file, element.source()), context, problems);
    // A point runs once: a repeat (often a typo for another value) is refused, as in lab.variants. A
    // zipped axis may repeat a value: its group's points are tuples, which validate checks.
    if (value && !zipped && std::find(axis.values.begin(), axis.values.end(), *value) != axis.values.end()) {
      problems.push_back({locate(file, element.source()),
                          value_text(*value) + " is listed more than once in the sweep of '" + spec.name + "'"});
      value.reset();
    }
    if (value)
      axis.values.push_back(*value);
    else
      axis.ok = false;
  }
  axis.count = list.size();
  return axis;
}

// {from, to, step}: from, from + step, ... up to and including `to`.
void step_values(const param_spec& spec, const param_value& from, const param_value& to, const param_value& step,
                 std::uint64_t limit, axis_values& axis) {
  if (spec.type == param_type::integer) {
    const std::int64_t a = std::get<std::int64_t>(from), b = std::get<std::int64_t>(to),
                       s = std::get<std::int64_t>(step);
    const std::uint64_t steps =
        (static_cast<std::uint64_t>(b) - static_cast<std::uint64_t>(a)) / static_cast<std::uint64_t>(s);
    axis.count = steps == UINT64_MAX ? UINT64_MAX : steps + 1;  // all of int64 by 1: 2^64 points, saturated
    if (axis.count > limit) return;
    for (std::uint64_t k = 0; k < axis.count; ++k)
      axis.values.push_back(static_cast<std::int64_t>(a + static_cast<std::int64_t>(k) * s));
    return;
  }
  const double a = as_double(from), b = as_double(to), s = as_double(step);
  // A small slack so that 0.1-steps reach `to` despite rounding. Written !(... <= limit) so that a NaN
  // count is refused too, never expanded.
  const double steps = std::floor((b - a) / s * (1 + 1e-12) + 1e-9);
  if (!(steps + 1 <= static_cast<double>(limit))) {
    axis.count = !(steps < 1.8e19) ? UINT64_MAX : static_cast<std::uint64_t>(steps) + 1;
    return;
  }
  axis.count = static_cast<std::uint64_t>(steps) + 1;
  for (std::uint64_t k = 0; k < axis.count; ++k) axis.values.push_back(std::min(b, a + static_cast<double>(k) * s));
}

// {from, to, factor}: from, from * factor, ... while not above `to`; integers rounded, repeats dropped.
void factor_values(const param_spec& spec, const param_value& from, const param_value& to, double factor,
                   std::uint64_t limit, axis_values& axis) {
  const double a = as_double(from), b = as_double(to);
  const double estimate = std::floor(std::log(b / a) / std::log(factor) + 1e-9) + 1;
  if (!(estimate <= static_cast<double>(limit))) {
    axis.count = !(estimate < 1.8e19) ? UINT64_MAX : static_cast<std::uint64_t>(estimate);
    return;
  }
  if (spec.type == param_type::integer) {
    const std::int64_t last = std::get<std::int64_t>(to);
    double x = static_cast<double>(std::get<std::int64_t>(from));
    std::int64_t previous = -1;
    for (;;) {
      const double rounded = std::round(x);
      if (rounded > static_cast<double>(last)) break;
      const auto v = static_cast<std::int64_t>(rounded);
      if (v != previous) axis.values.push_back(v);
      previous = v;
      x *= factor;
    }
  } else {
    // Each value from its index, as step_values does, not from the one before: k products would round k times.
    for (std::uint64_t k = 0;; ++k) {
      const double x = a * std::pow(factor, static_cast<double>(k));
      if (!(x <= b * (1 + 1e-12))) break;
      axis.values.push_back(std::min(x, b));
    }
  }
  axis.count = axis.values.size();
}

axis_values read_range(const std::string& file, const param_spec& spec, const toml::table& range, std::uint64_t limit,
                       std::vector<lab_problem>& problems) {
  axis_values axis;
  table_reader keys(file, range, "", problems);
  keys.titled("the range of '" + spec.name + "'").hinted(" (a range has from, to and step or factor)");
  keys.expect({"from", "to", "step", "factor"});
  bool ok = keys.finish();
  if (spec.type != param_type::integer && spec.type != param_type::real) {
    problems.push_back({locate(file, range.source()), "'" + spec.name + "' is a " +
                                                          (spec.type == param_type::boolean ? "boolean" : "choice") +
                                                          " parameter: sweep it with a list of values, not a range"});
    return axis;
  }
  const toml::node* step = range.get("step");
  const toml::node* factor = range.get("factor");
  if ((step != nullptr) == (factor != nullptr)) {
    problems.push_back(
        {locate(file, range.source()),
         "the range of '" + spec.name +
             "' needs exactly one of 'step' (from, from + step, ...) or 'factor' (from, from * factor, ...)"});
    ok = false;
  }
  const auto from = range_end(file, spec, range, "from", problems);
  const auto to = range_end(file, spec, range, "to", problems);
  if (!from || !to) ok = false;
  if (from && to && as_double(*from) > as_double(*to)) {
    problems.push_back({locate(file, range.source()), "the range of '" + spec.name +
                                                          "' runs backwards: from = " + value_text(*from) +
                                                          " is greater than to = " + value_text(*to)});
    ok = false;
  }

  std::optional<param_value> step_value;
  double factor_value = 0;
  if (step && !factor) {
    std::string error;
    step_value = to_param_value(spec, *step, error);
    if (step_value && !(std::isfinite(as_double(*step_value)) && as_double(*step_value) > 0))
      error = "step must be a finite number greater than 0, not " + value_text(*step_value);
    if (!error.empty()) {
      problems.push_back({locate(file, step->source()), "the range of '" + spec.name + "': " + error});
      ok = false;
    }
  } else if (factor && !step) {
    if (auto i = factor->as_integer())
      factor_value = static_cast<double>(i->get());
    else if (auto f = factor->as_floating_point())
      factor_value = f->get();
    if (!(factor->is_integer() || factor->is_floating_point())) {
      problems.push_back({locate(file, factor->source()),
                          "the range of '" + spec.name + "': factor must be a number, not " + describe_node(*factor)});
      ok = false;
    } else if (!(factor_value > 1.0)) {
      problems.push_back({locate(file, factor->source()), "the range of '" + spec.name +
                                                              "': factor must be greater than 1, not " +
                                                              value_text(param_value(factor_value))});
      ok = false;
    } else if (from && as_double(*from) <= 0) {
      problems.push_back({locate(file, range.source()), "the geometric range of '" + spec.name +
                                                            "' must start above 0 (from = " + value_text(*from) + ")"});
      ok = false;
    }
  }
  if (!ok) return axis;
  if (step_value) {
    step_values(spec, *from, *to, *step_value, limit, axis);
    axis.spacing = sweep_spacing::step;
  } else {
    factor_values(spec, *from, *to, factor_value, limit, axis);
    axis.spacing = sweep_spacing::factor;
  }
  axis.ok = true;
  return axis;
}

}  // namespace

const char* spacing_name(sweep_spacing s) {
  switch (s) {
    case sweep_spacing::list:
      return "list";
    case sweep_spacing::step:
      return "step";
    case sweep_spacing::factor:
      return "factor";
  }
  return "list";
}

axis_values read_sweep_axis(const std::string& file, const param_spec& spec, const toml::node& node,
                            std::uint64_t limit, std::vector<lab_problem>& problems, bool zipped) {
  if (const toml::array* list = node.as_array()) return read_list(file, spec, *list, zipped, problems);
  if (const toml::table* range = node.as_table()) return read_range(file, spec, *range, limit, problems);
  problems.push_back({locate(file, node.source()),
                      "sweep of '" + spec.name +
                          "' must be a list [a, b, ...] or a range {from, to, step} / {from, to, factor}, not " +
                          describe_node(node) + "; a single value belongs in [params]"});
  return {};
}

}  // namespace cudalab::host
