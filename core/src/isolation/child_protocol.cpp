// The parent/child protocol of an isolated run: the children's command lines, the ceilings as text,
// the context child, and what a child does (child_protocol.hpp explains the protocol).
#include "isolation/child_protocol.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "device/open_device.hpp"
#include "exit_codes.hpp"
#include "isolation/child_input.hpp"
#include "process/child_process.hpp"
#include "results/json.hpp"
#include "results/reporter.hpp"
#include "runner/run_submissions.hpp"

namespace cudalab::host {
namespace {

// The descriptor run_child gives a child for its results pipe, as its command lines name it.
std::string result_fd_text() { return std::to_string(child_request{}.result_fd); }

// The path of this executable, as far as it is known: the children's argv[0] (child_program runs).
std::string self_name(const child_command& command) {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink(child_program, ec);
  return ec ? command.argv0 : self.string();
}

// A child's command line: `run`, what it repeats from the parent's (where plugins are, overrides; the
// profile comes on stdin), its own hidden options, the results descriptor last (unless `pipe` is
// false: then the own options must end in one of one value), then "--" and its lab files. Only "--"
// keeps a file whose name starts with '-' a file, and it must follow an option of one value: after a
// repeatable one, CLI11 takes "--" as the end of that option's values, not of options.
std::vector<std::string> child_argv(const child_command& command, const std::vector<std::string>& own_options,
                                    const std::vector<std::string>& files, bool pipe = true) {
  std::vector<std::string> args{self_name(command), "run"};
  for (const auto& p : command.plugin_paths) args.push_back("--plugin-path=" + p);
  for (const auto& s : command.sets) args.push_back("--set=" + s);
  for (const auto& v : command.variants) args.push_back("--variant=" + v);
  for (const auto& f : command.submissions) args.push_back("--submission=" + f);
  args.insert(args.end(), own_options.begin(), own_options.end());
  if (pipe) {
    args.insert(args.end(), {child_flag::parent_pid, std::to_string(::getpid())});
    args.insert(args.end(), {child_flag::result_fd, result_fd_text()});
  }
  args.push_back("--");
  args.insert(args.end(), files.begin(), files.end());
  return args;
}

// A child's stdin: the profile and the texts of `labs`' lab files, in the order of its command line.
std::string input_of(const child_command& command, const std::vector<const planned_lab*>& labs) {
  child_input input;
  input.profile_file = command.profile_file;
  input.profile = command.profile_text;
  for (const planned_lab* pl : labs) input.labs.push_back(pl->text);
  return child_input_text(input);
}

// The stdin of a child that plans every lab file of `plans`.
std::string every_lab_input(const child_command& command, const std::vector<planned_lab>& plans) {
  std::vector<const planned_lab*> labs;
  for (const planned_lab& pl : plans) labs.push_back(&pl);
  return input_of(command, labs);
}

}  // namespace

std::string unit_child_input(const child_command& command, const isolation_unit& unit) {
  return input_of(command, {unit.lab});
}

std::string ceilings_text(const ceilings& c) {
  return fmt::format("{},{},{},{},{}", c.d2d_copy_gbps, c.h2d_gbps, c.d2h_gbps, c.bidir_gbps, c.l2_copy_gbps);
}

std::optional<ceilings> parse_ceilings(const std::string& text) {
  ceilings c;
  char comma = 0;
  std::istringstream in(text);
  if (!(in >> c.d2d_copy_gbps >> comma >> c.h2d_gbps >> comma >> c.d2h_gbps >> comma >> c.bidir_gbps))
    return std::nullopt;
  if (in >> comma && !(in >> c.l2_copy_gbps)) return std::nullopt;  // the L2 copy: a fifth, optional
  return c;
}

std::vector<std::string> unit_child_argv(const child_command& command, const isolation_unit& unit,
                                         const ceilings& measured, double baseline_gbps) {
  std::vector<std::string> own{child_flag::ceilings, ceilings_text(measured)};
  if (unit.one_variant || is_part_of_file(unit))
    own.insert(own.end(), {child_flag::first_point, std::to_string(unit.point), child_flag::last_point,
                           std::to_string(unit.last_point)});
  if (unit.one_variant) {
    own.insert(own.end(), {child_flag::variant, unit.variant});
    if (baseline_gbps > 0) own.insert(own.end(), {child_flag::baseline_gbps, fmt::format("{}", baseline_gbps)});
  }
  return child_argv(command, own, {unit.lab->file_arg});
}

std::vector<std::string> profiled_child_argv(const child_command& command, const std::vector<planned_lab>& plans,
                                             const std::string& input_file, const std::string& out_dir,
                                             std::optional<int> device) {
  std::vector<std::string> own{"--isolate=none", "--no-color"};
  if (device) own.insert(own.end(), {"--device", std::to_string(*device)});
  own.insert(own.end(), {child_flag::input_file, input_file, "--out", out_dir});
  std::vector<std::string> files;
  for (const planned_lab& pl : plans) files.push_back(pl.file_arg);
  return child_argv(command, own, files, false);
}

std::string profiled_child_input(const child_command& command, const std::vector<planned_lab>& plans) {
  return every_lab_input(command, plans);
}

int probe_in_child(const std::vector<planned_lab>& plans, const child_command& command, double timeout_s,
                   const std::atomic<bool>* stop, run_context& probed, const isolation_worker& worker) {
  child_request probe;
  probe.program = child_program;
  std::vector<std::string> files;
  for (const auto& pl : plans) files.push_back(pl.file_arg);
  probe.argv = child_argv(command, {child_flag::context_only}, files);
  probe.input = every_lab_input(command, plans);
  probe.environment = worker.environment;
  probe.timeout_s = timeout_s;
  probe.stop = stop;
  probe.on_output_line = [](const std::string& line) { fmt::print(stderr, "{}\n", line); };  // its message is ours
  std::optional<run_context> sent;
  probe.on_result_line = [&](const std::string& line) {
    try {
      auto parsed = parse_results_line(line);
      if (parsed.is_context) sent = parsed.context;
    } catch (const result_parse_error& e) {
      fmt::print(stderr, "cudalab: the GPU probe sent a bad context: {}\n", e.what());
    }
  };
  const child_outcome how = run_child(probe);
  if (how.stopped) return exit_interrupted;
  if (!how.ended_normally()) {
    // It did not end by itself, so no CUDA call reported a failure: a GPU that does not answer in time
    // is not usable; otherwise it crashed (in cudalab, a plugin or the driver) or could not be started.
    fmt::print(stderr, "cudalab: the process probing the GPU {}\n", how.describe());
    return how.timed_out ? exit_no_gpu : exit_internal;
  }
  if (how.exit_code != exit_ok) return how.exit_code;
  if (!sent) {
    fmt::print(stderr, "cudalab: the process probing the GPU sent no context\n");
    return exit_internal;
  }
  probed = *sent;
  return exit_ok;
}

run_selection selection_of(const child_options& child) {
  run_selection only;
  if (child.first_point >= 0) only.first_point = static_cast<std::uint64_t>(child.first_point);
  if (child.last_point >= 0) only.last_point = static_cast<std::uint64_t>(child.last_point);
  only.variant = child.variant;
  only.baseline_gbps = child.baseline_gbps;
  return only;
}

int run_as_child(const std::vector<planned_lab>& plans, const measure_settings& timing,
                 const std::vector<std::string>& variant_filter, run_context context, const child_options& child,
                 const std::vector<submission_arg>& submissions) {
  std::optional<ceilings> given;
  if (!child.ceilings.empty()) {
    given = parse_ceilings(child.ceilings);
    if (!given) {
      fmt::print(stderr, "cudalab: bad {} '{}'\n", child_flag::ceilings, child.ceilings);
      return exit_usage;
    }
  }
  std::ofstream pipe("/dev/fd/" + std::to_string(child.result_fd));
  if (!pipe) {
    fmt::print(stderr, "cudalab: cannot write to descriptor {}\n", child.result_fd);
    return exit_internal;
  }
  // An empty line after each step of getting the device ready (the ceilings take a while): the
  // parent's watchdog then bounds each step, not the whole of them.
  const progress_fn alive = [&] { pipe << '\n' << std::flush; };
  if (const int code = open_device(plans, timing, given, context, alive); code != exit_ok) return code;
  const auto out = make_jsonl_reporter(pipe, true);
  out->begin(context);
  if (child.context_only) {
    out->end(context);
    return exit_ok;
  }
  submission_codes codes;
  load_run_submissions(plans, submissions, codes);
  run_options ro;
  ro.variant_filter = variant_filter;
  ro.only = selection_of(child);
  ro.submissions = &codes;
  const run_summary summary = run_plans(plans, context, *out, ro);
  out->end(context);
  return exit_code_of(summary, true);
}

}  // namespace cudalab::host
