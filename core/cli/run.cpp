// `cudalab run FILE...`: validate everything, then verify, time and report every variant on the GPU -
// in this process, or (--isolate) in child processes that send their results back over a pipe.
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "common.hpp"
#include "cudalab/cuda_error.hpp"
#include "device/ceilings.hpp"
#include "device/gpu_probe.hpp"
#include "device/memory_check.hpp"
#include "exit_codes.hpp"
#include "isolation/child_process.hpp"
#include "isolation/isolated_run.hpp"
#include "results/json.hpp"
#include "results/reporter.hpp"
#include "runner/runner.hpp"

// Isolation and CUDA. A process that has initialised CUDA must not fork a child that goes on to use
// CUDA, and a sticky error (illegal address) poisons the context of the process that made it. So with
// --isolate the parent never calls the CUDA runtime at all: it parses and validates the lab files and
// loads the plugins (CPU only: their specs), then starts children with posix_spawn - fork and exec in
// one step, nothing run in between - of this same executable with hidden --internal-* options:
//   1. one "context" child probes the GPU, reads its properties, checks every point's memory needs and
//      measures the ceilings, and sends the run's context (context_json) on fd 3; if it fails, its
//      message and exit code are the run's (no GPU: 5, too big: 3);
//   2. one child per unit (lab file, or variant at a point) runs just that, with the ceilings passed
//      in, and sends results.jsonl lines (result_json) on fd 3 as each result exists.
// The parent parses them back (result_parse.hpp), feeds its own reporters, and records a child that
// died, timed out or stopped early as error/skipped results (isolated_run.hpp). Each child is its own
// process group: the watchdog kills the whole group, and Ctrl-C reaches only the parent, which kills
// the child, writes what was measured and exits 130 (SIGTERM likewise).

namespace cudalab::cli {

namespace {

std::atomic<bool> interrupted{false};
extern "C" void on_sigint(int) { interrupted.store(true); }

std::string utc_now(const char* format) {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

std::unique_ptr<host::reporter> console_reporter(host::output_format format, bool colour) {
  switch (format) {
    case host::output_format::json: return host::make_json_reporter(std::cout);
    case host::output_format::csv: return host::make_csv_reporter(std::cout);
    case host::output_format::md: return host::make_markdown_reporter(std::cout, "");
    case host::output_format::table: break;
  }
  return host::make_table_reporter(std::cout, colour);
}

host::run_context new_context(const options& o) {
  host::run_context ctx;
  ctx.cudalab_version = CUDALAB_VERSION;
  ctx.started_at = utc_now("%Y-%m-%dT%H:%M:%SZ");
  ctx.command_line = o.command_line;
  ctx.profile = o.config;
  return ctx;
}

// "d2d,h2d,d2h,bidir" from --internal-ceilings.
std::optional<host::ceilings> parse_ceilings(const std::string& text) {
  host::ceilings c;
  char comma = 0;
  std::istringstream in(text);
  if (in >> c.d2d_copy_gbps >> comma >> c.h2d_gbps >> comma >> c.d2h_gbps >> comma >> c.bidir_gbps) return c;
  return std::nullopt;
}

// The GPU part of getting ready: probe, device properties, memory refusal, ceilings. Fills `ctx`;
// returns an exit code (exit_ok when the run can start).
int open_device(const options& o, const host::run_profile& profile, const std::vector<host::planned_lab>& plans,
                host::run_context& ctx) {
  // Only now, with every lab file valid, is the GPU touched.
  const host::gpu_status gpu = host::probe_gpu();
  if (!gpu.usable) {
    fmt::print(stderr, "cudalab: {}\n", host::no_gpu_message(gpu));
    return host::exit_no_gpu;
  }
  try {
    ctx.device = host::read_device_info(0);
  } catch (const cuda_error& e) {
    fmt::print(stderr, "cudalab: reading the device's properties failed: {}\n", e.what());
    return host::exit_cuda_error;
  }
  // Refuse sizes that cannot fit before anything is allocated.
  std::size_t free_device = 0, total_device = 0;
  if (cudaMemGetInfo(&free_device, &total_device) == cudaSuccess) {
    const auto problems = host::check_memory(plans, free_device, host::host_memory_available());
    if (!problems.empty()) {
      fmt::print(stderr, "{}\n", host::lab_file_error(problems).what());
      return host::exit_bad_lab_file;
    }
  }
  if (!o.child.ceilings.empty()) {
    const auto given = parse_ceilings(o.child.ceilings);
    if (!given) {
      fmt::print(stderr, "cudalab: bad --internal-ceilings '{}'\n", o.child.ceilings);
      return host::exit_usage;
    }
    ctx.measured = *given;
    return host::exit_ok;
  }
  const bool timing = std::any_of(plans.begin(), plans.end(), [](const auto& pl) { return pl.plan.measure.timing; });
  try {
    if (timing) ctx.measured = host::process_ceilings(ctx.device, profile.measure);
  } catch (const cuda_error& e) {
    fmt::print(stderr, "cudalab: measuring the device failed: {}\n", e.what());
    return host::exit_cuda_error;
  }
  return host::exit_ok;
}

// The results folder and the reporters writing into it and to the console.
struct results_output {
  std::filesystem::path dir;
  std::ofstream jsonl, json, csv, md;
  host::reporter_set reporters;
};

std::unique_ptr<results_output> open_results(const options& o, const host::run_profile& profile) {
  namespace fs = std::filesystem;
  auto out = std::make_unique<results_output>();
  out->dir = !o.out_dir.empty()             ? fs::path(o.out_dir)
             : !profile.output.dir.empty() ? fs::path(profile.output.dir)
                                           : fs::path("results") / utc_now("%Y%m%d-%H%M%S");
  std::error_code ec;
  fs::create_directories(out->dir, ec);
  if (ec) {
    fmt::print(stderr, "cudalab: cannot create the results folder {}: {}\n", out->dir.string(), ec.message());
    return nullptr;
  }
  out->jsonl.open(out->dir / "results.jsonl");
  out->json.open(out->dir / "results.json");
  out->csv.open(out->dir / "results.csv");
  out->md.open(out->dir / "report.md");
  const host::output_format format = !o.format.empty() ? *host::parse_output_format(o.format) : profile.output.format;
  const bool colour =
      !o.no_color && format == host::output_format::table && ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
  out->reporters.add_reporter(host::make_jsonl_reporter(out->jsonl));
  out->reporters.add_reporter(console_reporter(format, colour));
  out->reporters.add_reporter(host::make_json_reporter(out->json));
  out->reporters.add_reporter(host::make_csv_reporter(out->csv));
  out->reporters.add_reporter(host::make_markdown_reporter(out->md, "plots/"));
  return out;
}

// The exit code of a finished run (README.md: exit codes), with a line saying why where it helps.
int exit_code_of(const host::run_summary& summary, bool quiet) {
  if (summary.interrupted) {
    if (!quiet) fmt::print(stderr, "cudalab: interrupted; the results measured so far are written\n");
    return host::exit_interrupted;
  }
  if (summary.cuda_fatal) {
    fmt::print(stderr, "cudalab: stopped early after a CUDA error that leaves the GPU unusable: {}\n",
               summary.fatal_message);
    return host::exit_cuda_error;
  }
  if (summary.cuda_errors > 0) return host::exit_cuda_error;
  if (summary.errors > 0) return host::exit_lab_error;
  if (summary.verify_failures > 0) {
    if (!quiet) fmt::print(stderr, "cudalab: {} variant(s) failed verification\n", summary.verify_failures);
    return host::exit_verify_failed;
  }
  return host::exit_ok;
}

int finish(const host::run_summary& summary, results_output& out) {
  out.reporters.end();
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  host::write_sweep_plots(summary.all, out.dir / "plots");
  std::cout.flush();
  fmt::print(stderr, "cudalab: {} result(s) in {}\n", summary.results, out.dir.string());
  return exit_code_of(summary, false);
}

// Everything in this process (no --isolate).
int run_here(const options& o, const host::run_profile& profile, const std::vector<host::planned_lab>& plans) {
  host::run_context ctx = new_context(o);
  if (const int code = open_device(o, profile, plans, ctx); code != host::exit_ok) return code;
  const auto out = open_results(o, profile);
  if (!out) return host::exit_usage;

  std::signal(SIGINT, on_sigint);
  std::signal(SIGTERM, on_sigint);
  host::run_options ro;
  ro.variant_filter = o.variants;
  ro.progress = ::isatty(STDERR_FILENO);
  ro.stop = &interrupted;
  out->reporters.begin(ctx);
  host::run_summary summary;
  try {
    summary = host::run_plans(plans, ctx, out->reporters, ro);
  } catch (...) {
    out->reporters.end();
    throw;
  }
  return finish(summary, *out);
}

// A child of an isolated run: the context line, then (unless context only) its unit's results, on
// the results descriptor; its exit code is that of a run of the unit alone.
int run_as_child(const options& o, const host::run_profile& profile, const std::vector<host::planned_lab>& plans) {
  host::run_context ctx = new_context(o);
  if (const int code = open_device(o, profile, plans, ctx); code != host::exit_ok) return code;
  std::ofstream pipe("/dev/fd/" + std::to_string(o.child.result_fd));
  if (!pipe) {
    fmt::print(stderr, "cudalab: cannot write to descriptor {}\n", o.child.result_fd);
    return host::exit_internal;
  }
  const auto out = host::make_jsonl_reporter(pipe);
  out->begin(ctx);
  if (o.child.context_only) {
    out->end();
    return host::exit_ok;
  }
  host::run_options ro;
  ro.variant_filter = o.variants;
  if (o.child.point >= 0) ro.only.point = static_cast<std::uint64_t>(o.child.point);
  ro.only.variant = o.child.variant;
  ro.only.baseline_gbps = o.child.baseline_gbps;
  const host::run_summary summary = host::run_plans(plans, ctx, *out, ro);
  out->end();
  return exit_code_of(summary, true);
}

// The arguments a child repeats from the command line: where plugins are, the profile, overrides.
std::vector<std::string> child_arguments(const options& o) {
  // "--name=value": a repeatable option given as "--name value" would take the lab file after it too.
  std::vector<std::string> args;
  for (const auto& p : o.plugin_paths) args.push_back("--plugin-path=" + p);
  if (!o.config.empty()) args.push_back("--config=" + o.config);
  for (const auto& s : o.sets) args.push_back("--set=" + s);
  for (const auto& v : o.variants) args.push_back("--variant=" + v);
  return args;
}

std::string self_executable(const options& o) {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? o.argv.at(0) : self.string();
}

std::string ceilings_text(const host::ceilings& c) {
  return fmt::format("{},{},{},{}", c.d2d_copy_gbps, c.h2d_gbps, c.d2h_gbps, c.bidir_gbps);
}

// Each unit in a child process (--isolate); see the comment at the top of this file.
int run_isolated(const options& o, const host::run_profile& profile, const std::vector<host::planned_lab>& plans,
                 host::isolation_mode mode) {
  const std::string self = self_executable(o);
  const std::vector<std::string> common = child_arguments(o);
  auto forward = [](const std::string& line) { fmt::print(stderr, "  child: {}\n", line); };
  std::signal(SIGINT, on_sigint);
  std::signal(SIGTERM, on_sigint);  // a `timeout` or kill: the same as Ctrl-C, what was measured is written

  // 1. The context, from a child: the parent itself never initialises CUDA.
  std::vector<std::string> argv{self, "run", "--internal-child-fd", "3", "--internal-context-only"};
  argv.insert(argv.end(), common.begin(), common.end());
  for (const auto& pl : plans) argv.push_back(pl.file_arg);
  std::optional<host::run_context> ctx;
  host::child_request probe;
  probe.argv = argv;
  probe.stop = &interrupted;
  probe.on_output_line = [](const std::string& line) { fmt::print(stderr, "{}\n", line); };  // its message is ours
  probe.on_result_line = [&](const std::string& line) {
    try {
      auto parsed = host::parse_results_line(line);
      if (parsed.is_context) ctx = parsed.context;
    } catch (const host::result_parse_error& e) {
      fmt::print(stderr, "cudalab: the GPU probe sent a bad context: {}\n", e.what());
    }
  };
  const host::child_outcome probed = host::run_child(probe);
  if (probed.stopped) return host::exit_interrupted;
  if (!probed.ended_normally()) {
    fmt::print(stderr, "cudalab: the process probing the GPU {}\n", probed.describe());
    return host::exit_cuda_error;
  }
  if (probed.exit_code != host::exit_ok) return probed.exit_code;
  if (!ctx) {
    fmt::print(stderr, "cudalab: the process probing the GPU sent no context\n");
    return host::exit_internal;
  }
  const host::run_context probe_context = *ctx;
  host::run_context context = new_context(o);
  context.device = probe_context.device;
  context.measured = probe_context.measured;

  // 2. The units, one child each.
  const auto out = open_results(o, profile);
  if (!out) return host::exit_usage;
  host::isolated_run_options io;
  io.timeout_s = o.timeout_s;
  io.stop = &interrupted;
  io.on_output_line = forward;
  io.command = [&](const host::isolation_unit& unit, double baseline_gbps) {
    std::vector<std::string> a{self, "run", "--internal-child-fd", "3", "--internal-ceilings", ceilings_text(context.measured)};
    if (unit.one_variant) {
      a.insert(a.end(), {"--internal-point", std::to_string(unit.point), "--internal-variant", unit.variant});
      if (baseline_gbps > 0) a.insert(a.end(), {"--internal-baseline-gbps", fmt::format("{}", baseline_gbps)});
    }
    a.insert(a.end(), common.begin(), common.end());
    a.push_back(unit.lab->file_arg);
    return a;
  };
  out->reporters.begin(context);
  host::run_summary summary;
  try {
    summary = host::run_isolated(host::isolation_units(plans, mode, o.variants), out->reporters, io);
  } catch (...) {
    out->reporters.end();
    throw;
  }
  return finish(summary, *out);
}

}  // namespace

int run_command(const options& o) {
  int code = host::exit_ok;
  const auto profile = load_profile(o, code);
  if (!profile) return code;
  const auto plans = plan(o, &*profile, code);
  if (!plans) return code;

  if (o.child.result_fd >= 0) return run_as_child(o, *profile, *plans);
  // The command line over the profile's [run]; --timeout alone means --isolate (a watchdog needs a
  // child to kill).
  options effective = o;
  if (effective.timeout_s <= 0) effective.timeout_s = profile->run.timeout_s;
  const host::isolation_mode mode =
      !o.isolate.empty() ? host::parse_isolation_mode(o.isolate).value_or(host::isolation_mode::none)
      : profile->run.isolate != host::isolation_mode::none ? profile->run.isolate
      : effective.timeout_s > 0                            ? host::isolation_mode::file
                                                           : host::isolation_mode::none;
  if (mode != host::isolation_mode::none) return run_isolated(effective, *profile, *plans, mode);
  return run_here(o, *profile, *plans);
}

}  // namespace cudalab::cli
