// `cudalab run FILE...`: validate everything, then verify, time and report every variant on the GPU
// (core/src/run_labs.hpp) - in this process, or (--isolate) in child processes; --sanitize re-runs the
// same command under compute-sanitizer (sanitize.cpp).
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <optional>

#include "command.hpp"
#include "common.hpp"
#include "exit_codes.hpp"
#include "option_checks.hpp"
#include "results/console_text.hpp"
#include "results/plot_images.hpp"
#include "run_labs.hpp"
#include "sanitize.hpp"
#include "slots/submission.hpp"

namespace cudalab::cli {

namespace {

struct run_options {
  lab_options labs;
  std::string format;                    ///< --format table|json|csv|md ("": the profile's)
  std::string out_dir;                   ///< --out
  bool force = false;                    ///< --force
  bool no_color = false;                 ///< --no-color
  bool wide = false;                     ///< --wide
  bool png = false;                      ///< --png
  bool progress = false;                 ///< --progress
  std::string isolate;                   ///< --isolate[=file|variant|none]: "" when not given
  double timeout_s = 0;                  ///< --timeout
  std::string devices;                   ///< --devices 0,1,...: "" when not given
  int device = -1;                       ///< --device N: -1 when not given
  std::vector<std::string> submissions;  ///< --submission SLOT=FILE
  std::string sanitize;                  ///< --sanitize=TOOL
  bool profile = false;                  ///< --profile
};

// --profile runs everything in one process under ncu: the options that spread a run over processes or
// GPUs cannot go with it. The option in the way, or "" when none is given.
std::string profile_conflict(const run_options& o) {
  if (!o.isolate.empty() && o.isolate != "none") return "--isolate";
  if (!o.devices.empty()) return "--devices";
  if (o.timeout_s > 0) return "--timeout";
  return "";
}

// What the command line asks for, checked; the exit code when it is wrong, after saying why.
int run(run_options o, const invocation& how) {
  if (o.device >= 0 && !o.devices.empty()) {
    fmt::print(stderr,
               "cudalab: --device and --devices cannot go together: --device N runs on GPU N alone, --devices "
               "spreads a run over several GPUs\n");
    return host::exit_usage;
  }
  if (!o.sanitize.empty()) {
    if (o.profile) {
      fmt::print(
          stderr,
          "cudalab: --sanitize and --profile cannot go together: each runs the lab files under a tool of its own\n");
      return host::exit_usage;
    }
    return rerun_under_sanitizer(how, o.sanitize);
  }
  if (o.profile) {
    if (const std::string conflict = profile_conflict(o); !conflict.empty()) {
      fmt::print(stderr, "cudalab: --profile runs the whole run in one process under ncu; it cannot go with {}\n",
                 conflict);
      return host::exit_usage;
    }
    o.labs.sets.push_back("measure.timing=false");  // each variant runs once, verified; its child plans the same
  }
  std::vector<host::submission_arg> submissions;
  for (const std::string& s : o.submissions) {
    try {
      submissions.push_back(host::parse_submission_arg(s));
    } catch (const std::invalid_argument& e) {
      fmt::print(stderr, "cudalab: --submission {}\n", e.what());
      return host::exit_usage;
    }
    std::error_code ec;
    if (!std::filesystem::is_regular_file(submissions.back().file, ec)) {
      fmt::print(stderr, "cudalab: --submission {}: no such file\n", s);
      return host::exit_usage;
    }
  }
  std::optional<std::filesystem::path> png_renderer;
  if (o.png && !(png_renderer = host::find_png_renderer())) {
    fmt::print(stderr, "cudalab: {}\n", host::no_png_renderer_message());
    return host::exit_usage;
  }
  int code = host::exit_ok;
  auto profile = load_profile(o.labs.config, code);
  if (!profile) return code;
  host::plan_request pr = plan_request_of(o.labs, &*profile);
  pr.submitted_slots.emplace();
  for (const host::submission_arg& s : submissions) pr.submitted_slots->push_back(s.slot);
  auto plans = plan(pr, code);
  if (!plans) return code;

  host::run_request r;
  r.plans = std::move(*plans);
  r.profile = std::move(*profile);
  r.plugin_paths = o.labs.plugin_paths;
  r.sets = o.labs.sets;
  r.variant_filter = o.labs.variants;
  r.out_dir = o.out_dir;
  r.force = o.force;
  if (!o.format.empty()) r.format = host::parse_output_format(o.format);
  r.colour = !o.no_color;
  r.progress = o.progress;
  r.console_width = o.wide ? host::unlimited_width : host::console_width();
  if (!o.isolate.empty()) r.isolate = host::parse_isolation_mode(o.isolate);
  r.timeout_s = o.timeout_s;
  r.counters = o.profile;
  if (!o.devices.empty()) r.devices = *parse_device_list(o.devices);
  if (o.device >= 0) r.device = o.device;
  r.submissions = std::move(submissions);
  r.png_renderer = png_renderer;
  r.command_line = how.command_line();
  r.argv0 = how.argv.at(0);
  return host::run_labs(r);
}

}  // namespace

command add_run(CLI::App& app, const invocation& how) {
  auto o = std::make_shared<run_options>();
  auto* cmd = app.add_subcommand("run", "Run lab files on the GPU: verify, time, report");
  add_lab_options(*cmd, o->labs);
  cmd->add_option("--format", o->format, "Console output: table, json, csv or md")
      ->check(CLI::IsMember({"table", "json", "csv", "md"}));
  cmd->add_option("--out", o->out_dir,
                  "Results folder (default: results/<date-time>Z, in UTC); one that is there already must be empty")
      ->type_name("DIR");
  cmd->add_flag("--force", o->force,
                "Replace the results of an earlier run in --out (a folder holding anything else is still refused)");
  cmd->add_flag("--no-color", o->no_color, "No colours even on a terminal (NO_COLOR also works)");
  add_wide(*cmd, o->wide);
  cmd->add_flag("--png", o->png,
                "Also write each plot as PNG beside its SVG (needs rsvg-convert: Debian package librsvg2-bin)");
  cmd->add_flag("--progress", o->progress,
                "Show the progress line on stderr even when it is not a terminal (on a terminal it always is)");
  cmd->add_flag("--isolate{file}", o->isolate,
                "Run each lab file (--isolate, --isolate=file) or each variant at each point (--isolate=variant) in "
                "a child process: a crash, a CUDA error that poisons the GPU context or a timeout is recorded as "
                "that unit's error and the run goes on")
      ->check(CLI::IsMember({"none", "file", "variant"}));
  cmd->add_option("--timeout", o->timeout_s,
                  "With --isolate (implied): kill a child process that goes SECONDS without sending a result "
                  "and record it as timed out")
      ->check(seconds_above_zero());
  cmd->add_option("--devices", o->devices,
                  "Spread the run over these GPUs (CUDA ordinals, e.g. 0,1), one worker each: lab files (a long one "
                  "in parts of its points; with --isolate=variant, points) run side by side in child processes, "
                  "results in the usual order; a lab whose traffic crosses the host bus runs alone")
      ->check(device_list());
  cmd->add_option("--device", o->device,
                  "Run on this GPU alone (a CUDA ordinal, counted from 0 among those CUDA_VISIBLE_DEVICES shows): "
                  "in this process, or with --isolate in child processes that see only it (--devices N)")
      ->type_name("N")
      ->check(device_ordinal());
  one_value_each_time(
      cmd->add_option(
             "--submission", o->submissions,
             "Run your code for a lab's slot as the variant student:SLOT (SLOT=FILE, repeatable): FILE is built for "
             "the GPU (NVRTC or nvcc) into the results folder, then verified and timed beside the lab's baseline")
          ->type_name("SLOT=FILE"));
  cmd->add_option("--sanitize", o->sanitize,
                  "Re-run this command under compute-sanitizer --tool TOOL (memcheck, racecheck, synccheck, "
                  "initcheck); best with --config configs/verify.toml and small sizes. Exit 7 if it finds errors")
      ->check(CLI::IsMember({"memcheck", "racecheck", "synccheck", "initcheck"}));
  cmd->add_flag("--profile", o->profile,
                "Run every variant once, verified (no timing), under Nsight Compute's ncu, and show the memory "
                "traffic it counts for each variant's own kernels beside the model's prediction, with a verdict "
                "(docs/model.md); without ncu, or without permission to read the GPU's counters, the run says so and "
                "goes on without them");
  return {cmd, [o, &how] { return run(*o, how); }};
}

}  // namespace cudalab::cli
