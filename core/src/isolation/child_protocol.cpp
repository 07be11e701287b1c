// The parent/child protocol of an isolated run: the children's command lines and plans, the probe child,
// and what a child does (child_protocol.hpp explains the protocol).
#include "isolation/child_protocol.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>
#include <ext/stdio_filebuf.h>

#include <filesystem>
#include <fstream>

#include "device/open_device.hpp"
#include "exit_codes.hpp"
#include "isolation/submission_process.hpp"
#include "labfile/spec_lookup.hpp"
#include "process/child_process.hpp"
#include "results/json.hpp"
#include "results/reporter.hpp"
#include "runner/run_submissions.hpp"
#include "slots/slot_loading.hpp"

namespace cudalab::host {
namespace {

// A plan's lab files: `labs`' names as given and the texts they were planned from.
std::vector<child_lab> labs_of(const std::vector<const planned_lab*>& labs) {
  std::vector<child_lab> out;
  for (const planned_lab* pl : labs) out.push_back({pl->file_arg, pl->text});
  return out;
}

std::vector<child_lab> labs_of(const std::vector<planned_lab>& plans) {
  std::vector<const planned_lab*> labs;
  for (const planned_lab& pl : plans) labs.push_back(&pl);
  return labs_of(labs);
}

// Where a child's selection of the plans comes from: its plan's share.
run_selection selection_of(const child_plan& plan) {
  run_selection only;
  if (plan.first_point >= 0) only.first_point = static_cast<std::uint64_t>(plan.first_point);
  if (plan.last_point >= 0) only.last_point = static_cast<std::uint64_t>(plan.last_point);
  only.variant = plan.variant;
  only.baseline_gbps = plan.baseline_gbps;
  return only;
}

}  // namespace

std::vector<std::string> child_argv(const std::string& argv0, child_role role) {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink(child_program, ec);
  return {ec ? argv0 : self.string(), child_entry, child_role_name(role)};
}

child_plan unit_child_plan(const child_plan& base, const isolation_unit& unit, const ceilings& measured,
                           double baseline_gbps) {
  child_plan plan = base;
  plan.role = child_role::unit;
  plan.parent_pid = ::getpid();
  plan.labs = labs_of({unit.lab});
  plan.measured = measured;
  if (unit.one_variant || is_part_of_file(unit)) {
    plan.first_point = std::int64_t(unit.point);
    plan.last_point = std::int64_t(unit.last_point);
  }
  if (unit.one_variant) {
    plan.variant = unit.variant;
    plan.baseline_gbps = baseline_gbps;
  }
  return plan;
}

child_plan profiled_child_plan(const child_plan& base, const std::vector<planned_lab>& plans,
                               const std::string& out_dir, std::optional<int> device) {
  child_plan plan = base;
  plan.role = child_role::whole_run;
  plan.parent_pid = 0;  // ncu starts it: its parent is ncu, which this process watches
  plan.labs = labs_of(plans);
  plan.out_dir = out_dir;
  plan.device = device;
  return plan;
}

int probe_in_child(const std::vector<planned_lab>& plans, const child_plan& base, double timeout_s,
                   const std::atomic<bool>* stop, run_context& probed, const isolation_worker& worker) {
  child_plan plan = base;
  plan.role = child_role::probe;
  plan.parent_pid = ::getpid();
  plan.labs = labs_of(plans);
  child_request probe;
  probe.program = child_program;
  probe.argv = child_argv("cudalab", child_role::probe);
  probe.input = child_plan_text(plan);
  probe.environment = worker.environment;
  probe.timeout_s = timeout_s;
  // The probe loads no submission: its empty line after each step of getting the device ready (F11) is
  // progress, so that the watchdog bounds each step, not the whole of them.
  probe.empty_lines_are_progress = true;
  probe.stop = stop;
  probe.on_output_line = [](const std::string& line) { fmt::print(stderr, "{}\n", line); };  // its message is ours
  std::optional<run_context> sent;
  probe.on_result_line = [&](const std::string& line) {
    try {
      auto parsed = parse_results_line(line);
      if (parsed.is_context && !sent) {
        sent = parsed.context;
        return true;
      }
    } catch (const result_parse_error& e) {
      fmt::print(stderr, "cudalab: the GPU probe sent a bad context: {}\n", e.what());
    }
    return false;
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

int run_as_child(const std::vector<planned_lab>& plans, const measure_settings& timing, run_context context,
                 const child_plan& plan) {
  const int result_fd = child_request{}.result_fd;
  // The descriptor itself, not /dev/fd/3 opened again: in a sandbox the pipe belongs to the grader's
  // user, and opening it again is refused to the sandbox's.
  __gnu_cxx::stdio_filebuf<char> buffer(::fcntl(result_fd, F_DUPFD_CLOEXEC, 0), std::ios::out);
  std::ostream pipe(&buffer);
  if (!buffer.is_open()) {
    fmt::print(stderr, "cudalab: cannot write to descriptor {}\n", result_fd);
    return exit_internal;
  }
  // An empty line after each step of getting the device ready (the ceilings take a while): the probe's
  // watchdog then bounds each step, not the whole of them. A unit's watchdog takes them for no progress
  // (its child is given the ceilings, and loads a submission that could write such lines forever).
  const progress_fn alive = [&] { pipe << '\n' << std::flush; };
  if (const int code = open_device(plans, timing, plan.measured, context, alive); code != exit_ok) return code;
  const auto out = make_jsonl_reporter(pipe, true);
  out->begin(context);
  if (plan.role == child_role::probe) {
    out->end(context);
    return exit_ok;
  }
  // A child that runs one of the lab's own variants (the baseline, isolated by variant beside a
  // submission) loads no submission: no student code ever runs in the process that times it, so none
  // can slow it down from a thread of its own (issue 31, the slowed baseline). Its plan still names the
  // submissions, which its lab file's student variant is planned with.
  submission_codes codes;
  const bool lab_variant_only = !plan.variant.empty() && plan.variant.rfind(student_prefix, 0) != 0;
  // Under grade a launcher's host code runs in a process of its own (submission_process.hpp); a kernel slot's
  // device code is loaded here, where the lab launches it.
  const submission_codes::loader load = [&plan](const slot_spec& slot,
                                                const std::string& artifact) -> std::unique_ptr<slot_code> {
    if (slot.kind == slot_kind::kernel || !plan.launchers_apart) return load_slot_code(slot.kind, artifact, slot.entry);
    return std::make_unique<submission_process>(child_program, artifact, slot.entry);
  };
  if (!lab_variant_only) load_run_submissions(plans, plan.submissions, codes, load);
  run_options ro;
  ro.variant_filter = plan.variants;
  ro.only = selection_of(plan);
  ro.submissions = &codes;
  const run_summary summary = run_plans(plans, context, *out, ro);
  out->end(context);
  return exit_code_of(summary, true);
}

}  // namespace cudalab::host
