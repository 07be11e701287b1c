// `cudalab run FILE...`: validate everything, then verify, time and report every variant on the GPU
// (core/src/run_labs.hpp) - in this process, or (--isolate) in child processes.
#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <optional>

#include "commands.hpp"
#include "common.hpp"
#include "exit_codes.hpp"
#include "isolation/child_input.hpp"
#include "option_checks.hpp"
#include "process/child_process.hpp"
#include "results/console_text.hpp"
#include "results/plot_images.hpp"
#include "run_labs.hpp"
#include "slots/submission.hpp"

namespace cudalab::cli {

namespace {

// --profile runs everything in one process under ncu: the options that spread a run over processes or
// GPUs cannot go with it. The message, or "" when none is given.
std::string profile_conflict(const options& o) {
  if (!o.isolate.empty() && o.isolate != "none") return "--isolate";
  if (!o.devices.empty()) return "--devices";
  if (o.timeout_s > 0) return "--timeout";
  return "";
}

}  // namespace

int run_command(const options& given_options) {
  int code = host::exit_ok;
  options o = given_options;
  if (o.profile) {
    if (const std::string conflict = profile_conflict(o); !conflict.empty()) {
      fmt::print(stderr, "cudalab: --profile runs the whole run in one process under ncu; it cannot go with {}\n",
                 conflict);
      return host::exit_usage;
    }
    o.sets.push_back("measure.timing=false");  // each variant runs once, verified; its children plan the same
  }
  std::optional<host::child_input> given;
  if (!o.child.input_file.empty()) {
    // The child of `run --profile`, which ncu started: it plans from the texts its parent planned from.
    given = host::read_child_input_file(o.child.input_file);
    if (!given) {
      fmt::print(stderr, "cudalab: cannot read the lab files' texts from {}\n", o.child.input_file);
      return host::exit_internal;
    }
  } else if (o.child.result_fd >= 0) {
    // A child of an isolated run: before anything else (loading plugins may hang), it dies with its
    // parent; it plans from the texts its parent planned from (on stdin), never from the files.
    host::die_with_parent(o.child.parent_pid);
    given = host::read_child_input(STDIN_FILENO);
    if (!given) {
      fmt::print(stderr, "cudalab: a child of an isolated run got no lab files from its parent on stdin\n");
      return host::exit_internal;
    }
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
  auto profile = load_profile(o, code, given ? &*given : nullptr);
  if (!profile) return code;
  auto plans = plan(o, &*profile, code, given ? &*given : nullptr, true);
  if (!plans) return code;

  host::run_request r;
  r.plans = std::move(*plans);
  r.profile = std::move(*profile);
  r.variant_filter = o.variants;
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
  r.command_line = o.command_line;
  r.child.argv0 = o.argv.at(0);
  r.child.plugin_paths = o.plugin_paths;
  r.child.sets = o.sets;
  r.child.variants = o.variants;
  r.child.submissions = o.submissions;
  if (o.child.result_fd >= 0) r.as_child = o.child;
  return host::run_labs(r);
}

}  // namespace cudalab::cli
