// `cudalab validate FILE...`: checks lab files against their plugins without touching the GPU.
#include <fmt/format.h>

#include "assignment/assignment_file.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "exit_codes.hpp"
#include "plan/planning.hpp"

namespace cudalab::cli {

int validate_command(const options& o) {
  int code = host::exit_ok;
  // Assignment files (an [assignment] table) are checked with their lab; the rest are lab files.
  options labs = o;
  labs.files.clear();
  for (const std::string& f : o.files) {
    if (!host::is_assignment_file(f)) {
      labs.files.push_back(f);
      continue;
    }
    const int c = validate_assignment(o, f);
    if (c != host::exit_ok && code == host::exit_ok) code = c;
  }
  if (labs.files.empty()) return code;
  if (code != host::exit_ok) return code;
  const auto profile = load_profile(o, code);
  if (!profile) return code;
  const auto plans = plan(labs, &*profile, code);
  if (!plans) return code;
  for (const auto& pl : *plans) {
    const auto variants = host::variants_to_run(pl.plan, o.variants);
    fmt::print("{}: ok — plugin {}, {} point(s) x {} variant(s)\n", pl.file_arg, pl.plugin->spec.name,
               pl.plan.point_count(), variants.size());
  }
  return host::exit_ok;
}

}  // namespace cudalab::cli
