// `cudalab describe PLUGIN`: a plugin's parameters (type, default, range, unit) and variants.
#include <fmt/format.h>

#include <memory>

#include "command.hpp"
#include "common.hpp"
#include "exit_codes.hpp"
#include "labfile/values.hpp"
#include "plugin/loader.hpp"

namespace cudalab::cli {

namespace {

// A parameter value for display ("268435456 (256Mi)" for large powers of two).
std::string display_value(const param_value& v) {
  std::string text = host::value_text(v);
  if (const auto* i = std::get_if<std::int64_t>(&v))
    if (const std::string sized = host::size_suffix_text(*i); !sized.empty()) text += " (" + sized + ")";
  return text;
}

std::string range_text(const param_spec& p) {
  if (p.type == param_type::choice) {
    std::string s;
    for (const auto& c : p.choices) s += (s.empty() ? "" : "|") + c;
    return s;
  }
  if (!p.allowed.empty()) {
    std::string s;
    for (const std::int64_t v : p.allowed) s += (s.empty() ? "" : "|") + std::to_string(v);
    return s;
  }
  if (!p.min && !p.max) return "";
  auto num = [&](double v) {
    return p.type == param_type::integer ? display_value(static_cast<std::int64_t>(v)) : fmt::format("{:g}", v);
  };
  const std::string multiple = p.multiple_of > 0 ? fmt::format(", multiples of {}", p.multiple_of) : "";
  return fmt::format("{} .. {}{}", p.min ? num(*p.min) : "", p.max ? num(*p.max) : "", multiple);
}

struct describe_options {
  std::vector<std::string> plugin_paths;
  std::string plugin;
};

int describe(const describe_options& o) {
  try {
    const auto& p = host::load_named_or_given_plugin(o.plugin, search_path(o.plugin_paths));
    const lab_spec& s = p.spec;
    fmt::print("{} — {}\n  file: {}\n\n", s.name, s.title, p.file.string());
    if (!s.summary.empty()) fmt::print("{}\n\n", s.summary);
    fmt::print("Parameters:\n");
    for (const auto& ps : s.params) {
      fmt::print("  {:<14} {:<8} default {:<22} {}{}{}\n", ps.name, param_type_name(ps.type),
                 display_value(ps.default_value), range_text(ps).empty() ? "" : "range " + range_text(ps),
                 ps.unit.empty() ? "" : " [" + ps.unit + "]", ps.tuning ? " (tuning: sweeps reuse the inputs)" : "");
      if (!ps.doc.empty()) fmt::print("  {:<14} {}\n", "", ps.doc);
    }
    fmt::print("\nVariants:\n");
    for (const auto& v : s.variants)
      fmt::print("  {:<22} {}{}\n", v.name, v.summary, v.name == s.baseline ? "  (baseline)" : "");
    if (!s.slots.empty()) {
      fmt::print("\nSlots (a student's code runs as the variant student:SLOT; cudalab assignment init --slot SLOT):\n");
      fmt::print("  {:<16} {:<9} {:<18} {}\n", "slot", "kind", "does the job of", "the student writes");
      for (const auto& sl : s.slots)
        fmt::print("  {:<16} {:<9} {:<18} {} ({}: {})\n", sl.name, sl.kind == slot_kind::kernel ? "kernel" : "launcher",
                   sl.variant, sl.summary, sl.file_name, sl.entry);
    }
    return host::exit_ok;
  } catch (const host::plugin_error& e) {
    fmt::print(stderr, "cudalab: {}\n", e.what());
    return host::exit_plugin;
  }
}

}  // namespace

command add_describe(CLI::App& app) {
  auto o = std::make_shared<describe_options>();
  auto* cmd = app.add_subcommand("describe", "Show a plugin's parameters and variants");
  add_plugin_path(*cmd, o->plugin_paths);
  cmd->add_option("plugin", o->plugin, "Plugin name (or path to a plugin file)")->type_name("PLUGIN")->required();
  return {cmd, [o] { return describe(*o); }};
}

}  // namespace cudalab::cli
