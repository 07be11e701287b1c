// `cudalab validate FILE...`: checks lab files against their plugins without touching the GPU.
#include <fmt/format.h>

#include <memory>

#include "assignment/assignment_file.hpp"
#include "command.hpp"
#include "common.hpp"
#include "exit_codes.hpp"
#include "plan/planning.hpp"

namespace cudalab::cli {

namespace {

int validate(const lab_options& o) {
  int code = host::exit_ok;
  // Assignment files (an [assignment] table) are checked with their lab; the rest are lab files.
  lab_options labs = o;
  labs.files.clear();
  for (const std::string& f : o.files) {
    if (!host::is_assignment_file(f)) {
      labs.files.push_back(f);
      continue;
    }
    const int c = validate_assignment(o.plugin_paths, f);
    if (c != host::exit_ok && code == host::exit_ok) code = c;
  }
  if (labs.files.empty()) return code;
  if (code != host::exit_ok) return code;
  const auto profile = load_profile(o.config, code);
  if (!profile) return code;
  const auto plans = plan(plan_request_of(labs, &*profile), code);
  if (!plans) return code;
  for (const auto& pl : *plans) {
    const auto variants = host::variants_to_run(pl.plan, o.variants);
    fmt::print("{}: ok — plugin {}, {} point(s) x {} variant(s)\n", pl.file_arg, pl.plugin->spec.name,
               pl.plan.point_count(), variants.size());
  }
  return host::exit_ok;
}

}  // namespace

command add_validate(CLI::App& app) {
  auto o = std::make_shared<lab_options>();
  auto* cmd = app.add_subcommand("validate", "Check lab files against their plugins (no GPU needed)");
  add_lab_options(*cmd, *o);
  return {cmd, [o] { return validate(*o); }};
}

}  // namespace cudalab::cli
