// The `run` use case: validated lab files verified, timed and reported on the GPU - in this process,
// or (isolated) in child processes - into a results folder; the answer is the process's exit code.
#include "run_labs.hpp"

#include <fmt/format.h>
#include <unistd.h>
#include <cstdio>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <stdexcept>

#include "device/kernel_census.hpp"
#include "device/nvml.hpp"
#include "device/open_device.hpp"
#include "exit_codes.hpp"
#include "isolation/child_protocol.hpp"
#include "isolation/gpu_workers.hpp"
#include "isolation/isolated_run.hpp"
#include "ncu/profiled_run.hpp"
#include "process/deadline.hpp"
#include "process/stop_signals.hpp"
#include "results/console_text.hpp"
#include "results/output_folder.hpp"
#include "results/plot_images.hpp"
#include "results/results_folder.hpp"
#include "results/safe_file.hpp"
#include "runner/progress.hpp"
#include "runner/run_submissions.hpp"
#include "runner/runner.hpp"
#include "slots/elf_symbols.hpp"
#include "slots/vendor_libraries.hpp"

namespace cudalab::host {
namespace {

// The results folder, or nullptr after saying why, with `code` the exit code.
std::unique_ptr<results_folder> open_folder(const run_request& r, const std::string& out_dir, output_format format,
                                            int& code) {
  try {
    return open_results_folder(out_dir, r.force, format, r.colour, r.console_width);
  } catch (const folder_error& e) {
    fmt::print(stderr, "cudalab: {}\n", e.what());
    code = exit_usage;
  } catch (const write_error& e) {
    fmt::print(stderr, "cudalab: {}\n", e.what());
    code = exit_write_error;
  }
  return nullptr;
}

// The run is over and its reporters have ended, which wrote the files: PNG copies of the plots are
// rendered when `png` names a renderer (--png), and the summary becomes the exit code, unless a file
// could not be written.
int finish(const run_summary& summary, results_folder& out, const std::optional<std::filesystem::path>& png) {
  bool written = true;
  if (png) {
    std::vector<std::string> failures;
    write_png_copies(*png, svg_files_in(out.dir / "plots"), failures);
    for (const std::string& failure : failures) fmt::print(stderr, "cudalab: {}\n", failure);
    written = failures.empty();
  }
  written = out.finish() && written;
  const int code = exit_code_of(summary, false);
  if (written) return code;
  if (code != exit_ok)
    fmt::print(stderr, "cudalab: exit {} for the files not written; the run's own exit code is {}\n",
               int(exit_write_error), code);
  return exit_write_error;
}

// The progress line's stream: stderr when it is a terminal or --progress asks for it, else none.
std::FILE* progress_stream(const run_request& r) { return r.progress || ::isatty(STDERR_FILENO) ? stderr : nullptr; }

// Runs `body` (which reports into `shown`, the results folder's reporters under the progress line,
// from begin to the last result) between the start and end samples of the run's GPUs (through NVML,
// into `context`), says which GPUs ran throttled, then finishes.
template <typename Body>
int report_run(const run_request& r, run_context& context, results_folder& out, progress_reporter& shown, Body body) {
  const nvml_library nvml;
  for (const std::string& note : record_gpu_start(nvml, context)) fmt::print(stderr, "cudalab: note: {}\n", note);
  shown.begin(context);
  run_summary summary;
  try {
    summary = body();
  } catch (...) {
    shown.end(context);
    throw;
  }
  const std::vector<std::string> warnings = record_gpu_end(nvml, context);
  shown.end(context);
  for (const std::string& w : warnings) fmt::print(stderr, "cudalab: warning: {}\n", w);
  return finish(summary, out, r.png_renderer);
}

// The run's submissions built for `device` into the results folder's submissions/; exit_ok, or the
// exit code after saying why.
int build_submissions(const run_request& r, const run_policy& policy, const device_info& device,
                      const results_folder& out, std::vector<submission_arg>& built) {
  try {
    return build_run_submissions(r.plans, r.submissions, device, policy.build, out.dir / "submissions", built);
  } catch (const std::exception& e) {  // no toolkit, a folder that cannot be written, a slot in two labs
    fmt::print(stderr, "cudalab: --submission: {}\n", e.what());
    return exit_submission;
  }
}

// Passes everything on to `inner`, each result marked with the GPU of --device (as a --devices
// worker's results are).
class device_marks final : public reporter {
 public:
  device_marks(reporter& inner, int device) : inner_(inner), device_(device) {}
  void begin(const run_context& c) override { inner_.begin(c); }
  void add(const variant_result& r) override {
    variant_result marked = r;
    marked.device = device_;
    inner_.add(marked);
  }
  void end(const run_context& c) override { inner_.end(c); }

 private:
  reporter& inner_;
  int device_;
};

// What every child of this run plans from: the texts this process planned from (each child's own lab
// files are added to it), the options it repeats, the submissions as built.
child_plan base_child_plan(const run_request& r, const std::vector<submission_arg>& built, bool launchers_apart) {
  child_plan plan;
  plan.launchers_apart = launchers_apart;
  plan.plugin_paths = r.plugin_paths;
  plan.sets = r.sets;
  plan.variants = r.variant_filter;
  plan.profile_file = r.profile.file;
  plan.profile_text = r.profile.text;
  plan.submissions = built;
  return plan;
}

// Everything in this process (with --device N, on that GPU alone).
int run_here(const run_request& r, const run_policy& policy, const std::string& out_dir, output_format format) {
  if (r.device) {
    try {
      // Before the first CUDA call, open_device's probe: the plugins loaded so far only registered
      // their kernels, which starts nothing (CUDA reads CUDA_VISIBLE_DEVICES when it starts).
      see_only_device(*r.device);
    } catch (const std::invalid_argument& e) {
      fmt::print(stderr, "cudalab: --device: {}\n", e.what());
      return exit_no_gpu;
    }
  }
  run_context ctx = new_context(r.command_line, r.profile.file);
  ctx.labs = describe_plans(r.plans, r.variant_filter);
  if (const int code = open_device(r.plans, r.profile.measure, std::nullopt, ctx); code != exit_ok) {
    if (r.device && code == exit_no_gpu)
      fmt::print(stderr, "cudalab: GPU {} of --device cannot run these lab files\n", *r.device);
    return code;
  }
  if (r.device) {
    ctx.device.ordinal = *r.device;
    ctx.devices = {run_device{*r.device, ctx.device, ctx.measured, ctx.gpu}};
  }
  int code = exit_ok;
  const auto out = open_folder(r, out_dir, format, code);
  if (!out) return code;
  std::vector<submission_arg> built;
  if (const int c = build_submissions(r, policy, ctx.device, *out, built); c != exit_ok) return c;
  submission_codes codes;
  load_run_submissions(r.plans, built, codes);

  const stop_signals signals;
  run_options ro;
  ro.variant_filter = r.variant_filter;
  ro.stop = signals.requested();
  ro.submissions = &codes;
  device_marks marked(out->reporters, r.device.value_or(-1));
  reporter& results = r.device ? static_cast<reporter&>(marked) : out->reporters;
  progress_reporter shown(results, progress_stream(r), result_count(r.plans, r.variant_filter));
  return report_run(r, ctx, *out, shown, [&] { return run_plans(r.plans, ctx, shown, ro); });
}

// What the child probing the GPU learnt, into the parent's context (which never initialises CUDA).
void take_device_facts(run_context& context, const run_context& probed) {
  context.device = probed.device;
  context.measured = probed.measured;
  context.cuda_runtime = probed.cuda_runtime;
  context.cuda_driver = probed.cuda_driver;
  context.sm_clock_mhz = probed.sm_clock_mhz;
  context.gpu = probed.gpu;  // its PCI bus id: this process samples the GPU through NVML
}

// The context of a run over `workers`' GPUs, each probed in a child of its own (the parent itself
// never initialises CUDA), one after the other (the ceilings of the host bus are measured alone);
// `measured[w]` becomes the ceilings of worker w's GPU. Returns an exit code.
int probe_devices(const run_request& r, const child_plan& command, double timeout_s, const std::atomic<bool>* stop,
                  const std::vector<isolation_worker>& workers, run_context& context, std::vector<ceilings>& measured) {
  if (workers.empty()) {
    run_context probed;
    if (const int code = probe_in_child(r.plans, command, timeout_s, stop, probed); code != exit_ok) return code;
    take_device_facts(context, probed);
    measured = {probed.measured};
    return exit_ok;
  }
  std::vector<int> ordinals;
  for (const isolation_worker& w : workers) ordinals.push_back(w.device);
  for (const int ordinal : distinct_devices(ordinals)) {
    const auto worker =
        std::find_if(workers.begin(), workers.end(), [&](const auto& w) { return w.device == ordinal; });
    run_context probed;
    if (const int code = probe_in_child(r.plans, command, timeout_s, stop, probed, *worker); code != exit_ok) {
      if (code != exit_interrupted)
        fmt::print(stderr, "cudalab: GPU {} of {} cannot run these lab files\n", ordinal,
                   r.device ? "--device" : "--devices");
      return code;
    }
    probed.device.ordinal = ordinal;
    context.devices.push_back(run_device{ordinal, probed.device, probed.measured, probed.gpu});
    if (context.devices.size() == 1) take_device_facts(context, probed);
  }
  context.device = context.devices.front().device;
  context.measured = context.devices.front().measured;
  for (const run_device& d : context.devices)
    if (d.device.name != context.device.name)
      fmt::print(stderr,
                 "cudalab: warning: the GPUs of --devices differ ({}: {}, {}: {}); every result is compared only with "
                 "the baseline and ceilings of its own GPU, but figures of different lab files are not comparable\n",
                 context.devices.front().ordinal, context.device.name, d.ordinal, d.device.name);
  for (const isolation_worker& w : workers)
    for (const run_device& d : context.devices)
      if (d.ordinal == w.device) measured.push_back(d.measured);
  return exit_ok;
}

// The sandbox of the children that run submissions: `base` with the GPU, this executable, the plans'
// plugins, and a read-only copy of each built submission, staged where the sandbox's user reaches it
// (the results folder may be closed to it); `submissions` name the copies. The toolkit's vendor libraries
// that no plan's plugin needs are hidden (slots/vendor_libraries.hpp).
child_sandbox submissions_sandbox(child_sandbox base, const std::vector<planned_lab>& plans,
                                  std::vector<submission_arg>& submissions) {
  namespace fs = std::filesystem;
  base.gpu = true;
  std::error_code ec;
  const fs::path self = fs::canonical("/proc/self/exe", ec);
  if (!ec) base.readable.push_back(self.string());
  std::vector<std::string> needed;
  for (const planned_lab& p : plans) {
    const std::string plugin = fs::canonical(p.plugin->file, ec).string();
    if (!ec && std::find(base.readable.begin(), base.readable.end(), plugin) == base.readable.end())
      base.readable.push_back(plugin);
    try {
      const std::vector<std::string> n = needed_libraries(plugin);
      needed.insert(needed.end(), n.begin(), n.end());
    } catch (const std::runtime_error&) {  // loaded already, so an ELF file: nothing it needs is hidden then
    }
  }
  if (!submissions.empty())
    for (const std::string& f : vendor_library_files(library_search_folders(), needed)) base.hidden.push_back(f);
  if (submissions.empty()) return base;
  const std::string box = new_sandbox_folder("submissions");
  for (submission_arg& s : submissions)
    s.file = copy_into_sandbox_folder(s.file, box, fs::path(s.file).filename().string());
  base.readable.push_back(box);
  return base;
}

// Each unit in a child process (child_protocol.hpp explains the protocol), on one GPU or, with
// `devices` (--devices, or --device's one), on each GPU's worker.
int run_in_children(const run_request& r, const run_policy& policy, const std::vector<int>& devices,
                    const std::string& out_dir, output_format format, isolation_mode mode, double timeout_s) {
  const auto started = std::chrono::steady_clock::now();  // the schedule's times count from here
  const stop_signals signals;
  const stop_or_deadline stop(signals.requested(), policy.time_limit_s);
  // Every child plans from the texts this process planned from, never from the files again.
  // The probe plans with the slots of --submission (it loads none), or a lab file that lists a
  // student variant is refused there; the units get the submissions as built.
  child_plan command = base_child_plan(r, r.submissions, policy.launchers_apart);
  std::vector<isolation_worker> workers;
  try {
    workers = gpu_workers(devices, std::getenv("CUDA_VISIBLE_DEVICES"));
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "cudalab: {}: {}\n", r.device ? "--device" : "--devices", e.what());
    return exit_no_gpu;
  }
  // 1. The context, from a child per GPU.
  run_context context = new_context(r.command_line, r.profile.file);
  context.labs = describe_plans(r.plans, r.variant_filter);
  std::vector<ceilings> measured;
  if (const int code = probe_devices(r, command, timeout_s, stop.requested(), workers, context, measured);
      code != exit_ok)
    return code;
  context.schedule = run_schedule{};
  context.schedule->probe_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  // 2. The units, one child each.
  int code = exit_ok;
  const auto out = open_folder(r, out_dir, format, code);
  if (!out) return code;
  std::vector<submission_arg> built;
  if (const int c = build_submissions(r, policy, context.device, *out, built); c != exit_ok) return c;
  command.submissions = built;
  std::optional<child_sandbox> sandbox;
  try {
    if (policy.children_sandbox) sandbox = submissions_sandbox(*policy.children_sandbox, r.plans, command.submissions);
  } catch (const std::runtime_error& e) {
    fmt::print(stderr, "cudalab: the children's sandbox: {}\n", e.what());
    return exit_write_error;
  }
  isolated_run_options io;
  io.program = child_program;
  io.timeout_s = timeout_s;
  io.limits = policy.children_limits;
  io.sandbox = sandbox;
  if (sandbox)
    if (const sandbox_support& s = sandbox_support_of(sandbox->bwrap); !s.usable)
      fmt::print(stderr, "cudalab: note: {}\n", s.why);
  io.stop = stop.requested();
  io.workers = workers;
  io.started = started;
  io.schedule = &*context.schedule;
  progress_reporter shown(out->reporters, progress_stream(r), result_count(r.plans, r.variant_filter));
  // What a child prints may be a student's: its escape sequences are shown, not obeyed.
  io.on_output_line = [&](const std::string& line) { shown.note("  child: " + printable(line)); };
  io.command = [&](const isolation_unit&, double, std::size_t) { return child_argv(r.argv0, child_role::unit); };
  io.input = [&](const isolation_unit& unit, double baseline_gbps, std::size_t worker) {
    child_plan plan = unit_child_plan(command, unit, measured.at(worker), baseline_gbps);
    // In its own process ids a sandboxed child cannot see this process; the sandbox dies with it instead.
    if (sandbox) plan.parent_pid = 0;
    return child_plan_text(plan);
  };
  const auto arrived = [&](const variant_result& result) { shown.arrived(result); };
  return report_run(r, context, *out, shown, [&] {
    return run_isolated(isolation_units(r.plans, mode, r.variant_filter, std::max<std::size_t>(workers.size(), 1)),
                        shown, io, workers.size() > 1 ? arrived : std::function<void(const variant_result&)>{});
  });
}

// The raw data of --profile beside the results: ncu's raw page and its report (for the Nsight Compute
// GUI). False after saying which could not be written.
bool write_ncu_files(const profiled_run& run, const results_folder& out) {
  bool written = true;
  for (const auto& [name, bytes] : {std::pair{"ncu.csv", &run.raw_csv}, std::pair{"ncu.ncu-rep", &run.report}}) {
    if (bytes->empty()) continue;
    try {
      write_file_atomically(out.dir / name, *bytes);
    } catch (const write_error& e) {
      fmt::print(stderr, "cudalab: {}\n", e.what());
      written = false;
    }
  }
  return written;
}

// --profile: the whole run in a child process under ncu (profile/profiled_run.hpp); its results
// reported here at its end, each with its counters, in a context made of the child's facts.
int run_counted(const run_request& r, const std::string& out_dir, output_format format) {
  const stop_signals signals;
  child_plan command = base_child_plan(r, r.submissions, false);
  fmt::print(stderr,
             "cudalab: --profile: every variant runs once, verified, in a child process under Nsight Compute's ncu, "
             "which replays each kernel to count its memory traffic; the results come at the end\n");
  const auto say = [](const std::string& line) { fmt::print(stderr, "{}\n", line); };
  profiled_run run;
  try {
    run = run_profiled(r.plans, command, r.argv0, r.device, signals.requested(), say);
  } catch (const std::runtime_error& e) {  // no work folder, or its input file cannot be written
    fmt::print(stderr, "cudalab: {}\n", e.what());
    return exit_internal;
  }
  for (const std::string& note : run.notes) fmt::print(stderr, "cudalab: note: --profile: {}\n", note);
  if (!run.results) {
    for (const std::string& line : run.last_output) fmt::print(stderr, "{}\n", printable(line));
    if (run.interrupted) return exit_interrupted;
    return run.child_exit > 0 ? run.child_exit : exit_internal;
  }
  int code = exit_ok;
  const auto out = open_folder(r, out_dir, format, code);
  if (!out) return code;
  run_context context = new_context(r.command_line, r.profile.file);
  context.labs = describe_plans(r.plans, r.variant_filter);
  const run_context& child = run.results->context;
  take_device_facts(context, child);
  context.nvml = child.nvml;
  context.devices = child.devices;
  context.counters = run.counters;
  if (run.counted) attach_counters(run.results->results, *run.counted);
  out->reporters.begin(context);
  run_summary summary;
  for (variant_result& result : run.results->results) summary.record(std::move(result), out->reporters);
  if (run.child_exit == exit_cuda_error) summary.cuda_errors = summary.errors;  // as an isolated run counts them
  summary.interrupted = run.interrupted;
  if (summary.results < result_count(r.plans, r.variant_filter) && !run.interrupted) {
    for (const std::string& line : run.last_output) fmt::print(stderr, "  child: {}\n", printable(line));
    fmt::print(stderr, "cudalab: the profiled run ended after {} of {} results\n", summary.results,
               result_count(r.plans, r.variant_filter));
    summary.errors++;
  }
  out->reporters.end(context);
  const bool written = write_ncu_files(run, *out);
  const int finished = finish(summary, *out, r.png_renderer);
  return written || finished == exit_write_error ? finished : exit_write_error;
}

}  // namespace

int run_labs(const run_request& r, const run_policy& policy) {
  // Before any CUDA call, here and in every child.
  if (std::any_of(r.plans.begin(), r.plans.end(), [](const planned_lab& p) { return p.plan.measure.census; }))
    load_kernels_eagerly();
  // The command line over the profile's [output] and [run].
  const std::string out_dir = !r.out_dir.empty() ? r.out_dir : r.profile.output.dir;
  const output_format format = r.format.value_or(r.profile.output.format);
  const double timeout_s = r.timeout_s > 0 ? r.timeout_s : r.profile.run.timeout_s;
  const isolation_mode mode = r.isolate                                       ? *r.isolate
                              : r.profile.run.isolate != isolation_mode::none ? r.profile.run.isolate
                              : timeout_s > 0 || !r.devices.empty()           ? isolation_mode::file
                                                                              : isolation_mode::none;
  if (r.counters) return run_counted(r, out_dir, format);
  if (mode == isolation_mode::none && !r.devices.empty()) {
    fmt::print(stderr,
               "cudalab: --devices runs every lab file in a child process on its GPU; it cannot go with "
               "--isolate=none\n");
    return exit_usage;
  }
  if (mode == isolation_mode::none) return run_here(r, policy, out_dir, format);
  // --device N, isolated: the one-GPU case of --devices.
  return run_in_children(r, policy, r.device ? std::vector<int>{*r.device} : r.devices, out_dir, format, mode,
                         timeout_s);
}

}  // namespace cudalab::host
