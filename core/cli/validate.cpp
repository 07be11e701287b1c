// `cudalab validate FILE...`: checks lab files against their plugins without touching the GPU.
#include <fmt/format.h>

#include "commands.hpp"
#include "common.hpp"
#include "exit_codes.hpp"
#include "planning.hpp"

namespace cudalab::cli {

int validate_command(const options& o) {
  int code = host::exit_ok;
  const auto profile = load_profile(o, code);
  if (!profile) return code;
  const auto plans = plan(o, &*profile, code);
  if (!plans) return code;
  for (const auto& pl : *plans) {
    const auto variants = host::variants_to_run(pl.plan, o.variants);
    fmt::print("{}: ok — plugin {}, {} point(s) x {} variant(s)\n", pl.file_arg, pl.plugin->spec.name,
               pl.plan.point_count(), variants.size());
  }
  return host::exit_ok;
}

}  // namespace cudalab::cli
