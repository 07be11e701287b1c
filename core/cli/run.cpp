// `cudalab run FILE...`: validate everything, then verify, time and report every variant on the GPU.
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <ctime>
#include <fstream>
#include <iostream>

#include "ceilings.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "cudalab/cuda_error.hpp"
#include "exit_codes.hpp"
#include "gpu_probe.hpp"
#include "reporter.hpp"
#include "runner.hpp"

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

std::unique_ptr<detail::reporter> console_reporter(const std::string& format, bool colour) {
  if (format == "json") return detail::make_json_reporter(std::cout);
  if (format == "csv") return detail::make_csv_reporter(std::cout);
  if (format == "md") return detail::make_markdown_reporter(std::cout, "");
  return detail::make_table_reporter(std::cout, colour);
}

}  // namespace

int run_command(const options& o) {
  int code = detail::exit_ok;
  const auto profile = load_profile(o, code);
  if (!profile) return code;
  const auto plans = plan(o, &*profile, code);
  if (!plans) return code;

  // Only now, with every lab file valid, is the GPU touched.
  const detail::gpu_status gpu = detail::probe_gpu();
  if (!gpu.usable) {
    fmt::print(stderr, "cudalab: {}\n", detail::no_gpu_message(gpu));
    return detail::exit_no_gpu;
  }

  detail::run_context ctx;
  ctx.cudalab_version = CUDALAB_VERSION;
  ctx.started_at = utc_now("%Y-%m-%dT%H:%M:%SZ");
  ctx.command_line = o.command_line;
  ctx.profile = o.config;
  try {
    ctx.device = detail::read_device_info(0);
  } catch (const cuda_error& e) {
    fmt::print(stderr, "cudalab: reading the device's properties failed: {}\n", e.what());
    return detail::exit_cuda_error;
  }
  // Refuse sizes that cannot fit before anything is allocated.
  std::size_t free_device = 0, total_device = 0;
  if (cudaMemGetInfo(&free_device, &total_device) == cudaSuccess) {
    const auto problems = detail::check_memory(*plans, free_device, detail::host_memory_available());
    if (!problems.empty()) {
      fmt::print(stderr, "{}\n", detail::lab_file_error(problems).what());
      return detail::exit_bad_lab_file;
    }
  }

  const bool timing = std::any_of(plans->begin(), plans->end(), [](const auto& pl) { return pl.plan.measure.timing; });
  try {
    if (timing) ctx.measured = detail::process_ceilings(ctx.device, profile->measure);
  } catch (const cuda_error& e) {
    fmt::print(stderr, "cudalab: measuring the device failed: {}\n", e.what());
    return detail::exit_cuda_error;
  }
  namespace fs = std::filesystem;
  const fs::path out_dir = !o.out_dir.empty()              ? fs::path(o.out_dir)
                           : !profile->output.dir.empty() ? fs::path(profile->output.dir)
                                                          : fs::path("results") / utc_now("%Y%m%d-%H%M%S");
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) {
    fmt::print(stderr, "cudalab: cannot create the results folder {}: {}\n", out_dir.string(), ec.message());
    return detail::exit_usage;
  }
  std::ofstream jsonl(out_dir / "results.jsonl"), json(out_dir / "results.json"), csv(out_dir / "results.csv"),
      md(out_dir / "report.md");
  const std::string format = !o.format.empty() ? o.format : profile->output.format;
  const bool colour = !o.no_color && format == "table" && ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");

  detail::reporter_set reporters;
  reporters.add_reporter(detail::make_jsonl_reporter(jsonl));
  reporters.add_reporter(console_reporter(format, colour));
  reporters.add_reporter(detail::make_json_reporter(json));
  reporters.add_reporter(detail::make_csv_reporter(csv));
  reporters.add_reporter(detail::make_markdown_reporter(md, "plots/"));

  std::signal(SIGINT, on_sigint);
  detail::run_options ro;
  ro.variant_filter = o.variants;
  ro.progress = ::isatty(STDERR_FILENO);
  ro.stop = &interrupted;
  reporters.begin(ctx);
  detail::run_summary summary;
  try {
    summary = detail::run_plans(*plans, ctx, reporters, ro);
  } catch (...) {
    reporters.end();
    throw;
  }
  reporters.end();
  std::signal(SIGINT, SIG_DFL);
  detail::write_sweep_plots(summary.all, out_dir / "plots");
  std::cout.flush();

  fmt::print(stderr, "cudalab: {} result(s) in {}\n", summary.results, out_dir.string());
  if (summary.interrupted) {
    fmt::print(stderr, "cudalab: interrupted; the results measured so far are written\n");
    return detail::exit_interrupted;
  }
  if (summary.cuda_fatal) {
    fmt::print(stderr, "cudalab: stopped early after a CUDA error that leaves the GPU unusable: {}\n",
               summary.fatal_message);
    return detail::exit_cuda_error;
  }
  if (summary.cuda_errors > 0) return detail::exit_cuda_error;
  if (summary.errors > 0) return detail::exit_lab_error;
  if (summary.verify_failures > 0) {
    fmt::print(stderr, "cudalab: {} variant(s) failed verification\n", summary.verify_failures);
    return detail::exit_verify_failed;
  }
  return detail::exit_ok;
}

}  // namespace cudalab::cli
