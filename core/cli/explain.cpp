// `cudalab explain FILE...`: the access model's predictions for every variant, without a GPU.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "command.hpp"
#include "common.hpp"
#include "exit_codes.hpp"
#include "explain.hpp"
#include "model/model_device.hpp"
#include "plugin/plugin_call.hpp"
#include "results/console_text.hpp"

namespace cudalab::cli {

namespace {

struct explain_options {
  lab_options labs;
  std::string format;  ///< table (default) or json
  bool wide = false;
  bool totals = false;  ///< --totals
};

int explain(const explain_options& o) {
  int code = host::exit_ok;
  const auto profile = load_profile(o.labs.config, code);
  if (!profile) return code;
  const auto plans = plan(plan_request_of(o.labs, &*profile), code);
  if (!plans) return code;
  const device_info device = host::model_device();
  std::vector<host::explain_row> rows;
  try {
    for (const auto& pl : *plans) {
      auto more = host::explain_plan(pl, o.labs.variants, device);
      rows.insert(rows.end(), more.begin(), more.end());
    }
  } catch (const host::lab_call_error& e) {
    fmt::print(stderr, "cudalab: {}\n", e.what());
    return host::exit_lab_error;
  }
  if (o.format == "json") {
    host::print_explain_json(std::cout, rows);
  } else {
    const std::size_t width = o.wide ? host::unlimited_width : host::console_width();
    const std::string about =
        std::string(o.totals ? "Predicted in total over the variant's run (requests, sectors, wavefronts) and per "
                               "warp-wide request: "
                             : "Predicted per warp-wide request: ") +
        "global sectors (32 B) and efficiency (bytes asked / bytes moved); "
        "shared-memory wavefronts and bank conflicts. Compare with Nsight Compute's "
        "l1tex__t_sectors_pipe_lsu_mem_global_op_* / l1tex__t_requests_pipe_lsu_mem_global_op_* and SASS's "
        "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_* (the wavefronts run --profile judges; "
        "docs/model.md). Grids are sized for the " +
        device.name + ", " + std::to_string(device.sm_count) + " SMs.";
    for (const std::string& line : host::wrap_lines(about, width, 0, 0)) fmt::print("{}\n", line);
    host::print_explain_table(std::cout, rows, width, o.totals);
  }
  return host::exit_ok;
}

}  // namespace

command add_explain(CLI::App& app) {
  auto o = std::make_shared<explain_options>();
  auto* cmd = app.add_subcommand("explain", "Predict each variant's memory transactions (no GPU needed)");
  add_lab_options(*cmd, o->labs);
  cmd->add_option("--format", o->format, "table or json")->check(CLI::IsMember({"table", "json"}));
  add_wide(*cmd, o->wide);
  cmd->add_flag("--totals", o->totals,
                "Also the totals over the run: requests, sectors and wavefronts (first, where columns do not all fit)");
  return {cmd, [o] { return explain(*o); }};
}

}  // namespace cudalab::cli
