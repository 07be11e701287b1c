// The runner: drives validated lab files through setup -> (poison, run, verify, time) -> teardown.
#include "runner/runner.hpp"

#include <fmt/format.h>

#include <utility>

#include "cudalab/cuda_error.hpp"
#include "device/kernel_census.hpp"
#include "device/timing.hpp"
#include "exit_codes.hpp"
#include "labfile/spec_lookup.hpp"
#include "model/access_model.hpp"
#include "plugin/plugin_call.hpp"
#include "results/format.hpp"
#include "results/roofline.hpp"
#include "runner/host_session.hpp"
#include "runner/nvtx_range.hpp"
#include "runner/verified_run.hpp"
#include "slots/remote_launcher.hpp"
#include "slots/submission.hpp"

namespace cudalab::host {

void run_summary::record(variant_result r, reporter& out) {
  results++;
  if (r.status == result_status::verify_failed) verify_failures++;
  if (r.status == result_status::error) errors++;
  out.add(r);
  all.push_back(std::move(r));
}

int exit_code_of(const run_summary& summary, bool quiet) {
  if (summary.interrupted) {
    if (!quiet) fmt::print(stderr, "cudalab: interrupted; the results measured so far are written\n");
    return exit_interrupted;
  }
  if (summary.cuda_fatal) {
    fmt::print(stderr, "cudalab: stopped early after a CUDA error that leaves the GPU unusable: {}\n",
               summary.fatal_message);
    return exit_cuda_error;
  }
  if (summary.cuda_errors > 0) return exit_cuda_error;
  if (summary.errors > 0) return exit_lab_error;
  if (summary.verify_failures > 0) {
    if (!quiet) fmt::print(stderr, "cudalab: {} variant(s) failed verification\n", summary.verify_failures);
    return exit_verify_failed;
  }
  return exit_ok;
}

void compute_rates(variant_result& r, const run_context& context, double baseline_gbps) {
  if (!r.time.timed || r.time.median_ms <= 0) return;
  r.gbps = double(r.bytes.total()) / (r.time.median_ms * 1e6);
  if (baseline_gbps > 0) r.pct_of_baseline = 100.0 * r.gbps / baseline_gbps;
  const ceilings& c = context.measured;
  if (r.bytes.path == memory_path::device) {
    if (c.d2d_copy_gbps > 0) r.pct_of_ceiling = 100.0 * r.gbps / c.d2d_copy_gbps;
    const double peak = context.device.peak_dram_gbps();
    if (peak > 0) r.pct_of_peak = 100.0 * r.gbps / peak;
  } else {
    // Bus traffic in both directions is compared with both directions at once; one way with one way.
    const double ceiling = bus_ceiling(r.bytes, c).gbps;
    if (ceiling > 0) r.pct_of_ceiling = 100.0 * r.gbps / ceiling;
  }
}

variant_result point_result(const planned_lab& pl, std::uint64_t point) {
  variant_result base;
  base.lab_file = pl.file_arg;
  base.plugin = pl.plugin->spec.name;
  base.title = pl.plan.title;
  base.point_index = point;
  base.point = pl.plan.point_labels(point);
  return base;
}

namespace {

// A run of the plans in progress: where results go, how far it got, and whether it must stop.
struct plan_run {
  const run_context& context;
  const run_options& options;
  reporter& out;
  run_summary summary;

  bool stopped() const { return options.stop && options.stop->load(); }
  bool over() const { return stopped() || summary.cuda_fatal; }
  void emit(variant_result r) { summary.record(std::move(r), out); }
};

// After a failure: reads the CUDA runtime's last error, which it keeps until read, so that the next
// check does not report it again against another variant or point - a failed allocation, a bad launch
// configuration, errors the context survives. True when the context still fails afterwards: a sticky
// error, whatever its code, which only a new process recovers from.
bool cuda_context_lost() {
  (void)cudaGetLastError();
  return cudaPeekAtLastError() != cudaSuccess;
}

// Records a failure of `r` and counts it: a CUDA error (the lab's or the host's) is counted as one,
// and one that leaves the GPU unusable ends the run.
void record_failure(plan_run& run, variant_result& r, const std::string& message, bool cuda, bool sticky) {
  r.status = result_status::error;
  r.failure = cuda ? result_failure::cuda_error : result_failure::lab_error;
  r.error = message;
  if (cuda) run.summary.cuda_errors++;
  if (cuda_context_lost()) sticky = true;
  if (sticky) {
    run.summary.cuda_fatal = true;
    run.summary.fatal_message = message;
  }
}

// Runs `f`, recording a lab_call_error or cuda_error it throws against `r`. Returns false then.
template <class F>
bool recorded(plan_run& run, variant_result& r, F&& f) {
  try {
    f();
    return true;
  } catch (const lab_call_error& e) {
    record_failure(run, r, e.what(), e.is_cuda(), e.sticky());
  } catch (const cuda_error& e) {
    record_failure(run, r, e.what(), true, e.sticky());
  }
  return false;
}

// [measure] verify_after_timing: one more verified run after the timed ones (outputs poisoned, one
// launch, verify), so that a variant that computes on its first launch only - a static counter that
// skips the work afterwards, an answer cached on the side - fails as it would had it been wrong at
// first. The result keeps its timing; a failure replaces the verification and says when it happened:
// after `launches` calls of the lab's run, or, timed as a graph (whose launches the GPU repeats without
// calling it), after its timed launches.
void verify_after_timing(plan_run& run, variant_result& r, live_point& point, variant_index v, plugin_call call,
                         const student_code& student, std::uint64_t launches) {
  recorded(run, r, [&] {
    checked_run after = point.verified_run(v, call, student);
    if (after.verdict.passed) return;
    const std::string count = r.time.graph ? std::string("its timed launches (a CUDA graph)")
                                           : std::to_string(launches) + " timed launch" + (launches == 1 ? "" : "es");
    const std::string when = "failed after timing: the output was right on the first launch and wrong after " + count;
    after.verdict.note = when + (after.verdict.note.empty() ? "" : "; " + after.verdict.note);
    r.verification = std::move(after.verdict);
    r.status = result_status::verify_failed;
    r.failure = after.input_changed ? result_failure::input_changed : result_failure::wrong_after_timing;
  });
}

// [measure] census: CUPTI attached for the verified run's own launch, from the moment its outputs are
// prepared until its stream has finished it, and detached before anything is timed. A launcher run in the
// submission's own process (`remote`) takes its census there, of the call the run makes.
class census_watch final : public run_watch {
 public:
  explicit census_watch(const remote_launcher* remote) : remote_(remote) {}
  void started(cudaStream_t stream) override {
    if (remote_)
      remote_->census_next_call();
    else
      recording_ = std::make_unique<census_recording>(stream);
    started_ = true;
  }
  void finished(cudaStream_t) override {
    if (remote_) {
      census_ = remote_->census_of_last_call().value_or(
          unavailable_census("the submission's process made no call in the verified run"));
    } else if (recording_) {
      census_ = recording_->finish();
      recording_.reset();
    }
    started_ = false;
  }
  /// The census; when the run threw before it finished, unavailable (CUPTI detached here).
  kernel_census result() {
    if (started_) {
      recording_.reset();
      return unavailable_census("the verified run failed before its census ended (see the error)");
    }
    return census_;
  }

 private:
  const remote_launcher* remote_;
  bool started_ = false;
  std::unique_ptr<census_recording> recording_;
  kernel_census census_;
};

// One variant at a set-up point: trace (model), verified run, then time it if it verified and
// timing is on. An error is recorded against the variant; a sticky CUDA error ends the run.
// `baseline_gbps` is the baseline's GB/s at this point, set here when `v` is the baseline.
// A student variant runs its submission in place of the lab's code for its slot's variant, which
// gives its traffic and verifies it; the access model has nothing to say of code it has not seen.
void run_variant(plan_run& run, const planned_lab& pl, const params& p, const std::string& name,
                 const variant_result& base, live_point& point, host_session& session, double& baseline_gbps) {
  const lab& l = *pl.plugin->instance;
  const lab_spec& spec = pl.plugin->spec;
  const variant_index v = variant_of(spec, name);
  student_code student;
  student.slot = slot_of(spec, name);
  if (student.slot && run.options.submissions)
    student.code = run.options.submissions->find(spec.name, student.slot->name);
  variant_result r = base;
  r.variant = name;
  r.variant_summary = variant_summary(spec, name);
  r.is_baseline = name == pl.plan.baseline;
  plugin_call call{base.plugin, "", name, point_text(base)};
  if (student.slot && !student.code) {
    r.status = result_status::error;
    r.failure = result_failure::submission_not_loaded;
    const std::string why =
        run.options.submissions ? run.options.submissions->why(spec.name, student.slot->name) : std::string();
    r.error = !why.empty()
                  ? why
                  : "no submission is loaded for slot '" + student.slot->name + "' (give it with --submission)";
    run.emit(std::move(r));
    return;
  }
  lab_context trace_context = session.context();
  trace_context.stream = nullptr;  // trace() is CPU only
  call.function = "traffic_of";
  if (!recorded(run, r, [&] { r.bytes = call_plugin(call, [&] { return l.traffic_of(p, v); }); })) {
    run.emit(std::move(r));
    return;
  }
  if (r.bytes.total() == 0) {  // planning refused a variant that moves nothing anywhere; here, only this point
    r.status = result_status::skipped;
    r.failure = result_failure::nothing_to_measure;
    r.error = "nothing to measure at this point: " + call.text() + " gives 0 bytes to move";
    run.emit(std::move(r));
    return;
  }
  const auto* remote = dynamic_cast<const remote_launcher*>(student.code);
  if (remote) remote->order_through(session.context().stream);  // the stream the timing's events are on
  census_watch census(remote);
  bool input_changed = false;
  const bool ok = recorded(run, r, [&] {
    if (!student) {
      call.function = "trace";
      access_model model;
      call_plugin(call, [&] { l.trace(p, v, trace_context, model); });
      r.model = model.stats();
      r.has_model = !r.model.empty();
    }
    checked_run checked = point.verified_run(v, call, student, range_name({base.lab_file, base.point_index, name}),
                                             pl.plan.measure.census ? &census : nullptr);
    r.verification = std::move(checked.verdict);
    input_changed = checked.input_changed;
  });
  if (pl.plan.measure.census) r.census = census.result();
  if (ok && !r.verification.passed) {
    r.status = result_status::verify_failed;
    r.failure = input_changed ? result_failure::input_changed : result_failure::wrong_output;
  }
  bool stopped = false;
  if (ok && r.verification.passed && pl.plan.measure.timing) {
    std::uint64_t launches = 0;  // every call of run() by the timing loop: warm-up, calibration, samples, captures
    const bool timed = recorded(run, r, [&] {
      call.function = student ? "run_slot" : "run";
      const launch_fn launch = [&](cudaStream_t s) {
        ++launches;
        call_plugin(call, [&] { point.run(v, s, student); });
      };
      // Outputs reset before every timed launch, outside its events: zeroed ones always, poisoned ones too
      // with poison_each_launch, so that no timed launch finds the last one's answer in place.
      const bool poison = pl.plan.measure.poison_each_launch;
      const launch_fn prepare = session.resets_outputs(poison)
                                    ? launch_fn([&](cudaStream_t s) { session.prepare_timed_run(s, poison); })
                                    : launch_fn();
      // A launcher in the submission's own process: the handshake alone is timed first, and taken off; its peer
      // process is started by one handshake before any held sample (its start, a process and a CUDA context,
      // would run a held sample's blocker out) and ended once the calibration is done.
      const remote_handshake handshake{[&](cudaStream_t s) { remote->handshake(s); },
                                       [&] { remote->end_handshakes(); }};
      if (remote) remote->handshake(session.context().stream);
      const std::uint64_t persisting_before = remote ? remote->persisting_l2().calls : 0;
      const std::optional<timing> t =
          time_launches(launch, prepare, session.context().stream, pl.plan.measure, run.context.device.l2_cache_bytes,
                        run.options.stop, remote ? &handshake : nullptr);
      stopped = !t;
      if (stopped) return;
      r.time = *t;
      if (remote) {  // what the submission's process found set at the timed calls, as a cold cache counts it
        const remote_launcher::persisting_found found = remote->persisting_l2();
        r.time.persisting_l2_found += found.calls - persisting_before;
        if (r.time.persisting_l2_note.empty() && found.calls > persisting_before)
          r.time.persisting_l2_note = found.first;
      }
      compute_rates(r, run.context, r.is_baseline ? 0.0 : baseline_gbps);
      if (r.is_baseline) {
        baseline_gbps = r.gbps;
        r.pct_of_baseline = 100.0;
      }
    });
    if (timed && !stopped && pl.plan.measure.verify_after_timing)
      verify_after_timing(run, r, point, v, call, student, launches);
  }
  // Interrupted while timing: not reported, like the results an isolated run's stopped child never sent.
  if (!stopped) run.emit(std::move(r));
}

// The point of a plan that is set up, kept across sweep points that differ only in tuning parameters.
struct kept_point {
  std::unique_ptr<live_point> point;
  params at;  ///< the parameters it runs at
};

// Makes `kept` a point at `p`: retuned when only tuning parameters changed, else torn down (first, to
// free its memory) and set up again. Throws like live_point's constructor and retune().
void ready_point(kept_point& kept, const planned_lab& pl, const params& p, host_session& session,
                 const plugin_call& call) {
  if (kept.point && same_data(pl.plugin->spec, kept.at, p)) {
    try {
      kept.point->retune(p, call);
    } catch (...) {
      kept.point.reset();
      throw;
    }
  } else {
    kept.point.reset();
    kept.point = std::make_unique<live_point>(*pl.plugin->instance, p, session, call);
  }
  kept.at = p;
}

// Point `pi` of a plan: setup (or retune), each of `names`. A failed setup is recorded against every
// variant of the point (and a sticky CUDA error in it ends the run).
void run_point(plan_run& run, const planned_lab& pl, const std::vector<std::string>& names, std::uint64_t pi,
               host_session& session, kept_point& kept) {
  const params p = pl.plan.point(pi);
  const variant_result base = point_result(pl, pi);
  variant_result failed = base;
  if (!recorded(run, failed, [&] {
        ready_point(kept, pl, p, session, plugin_call{base.plugin, "setup", "", point_text(base)});
      })) {
    for (const auto& name : names) {
      variant_result r = failed;
      r.variant = name;
      r.is_baseline = name == pl.plan.baseline;
      run.emit(std::move(r));
    }
    // The failure was counted once above; each variant's result says it.
    return;
  }

  double baseline_gbps = run.options.only.variant.empty() ? 0.0 : run.options.only.baseline_gbps;
  for (const auto& name : names) {
    if (run.over()) break;
    run_variant(run, pl, p, name, base, *kept.point, session, baseline_gbps);
  }
}

}  // namespace

run_summary run_plans(const std::vector<planned_lab>& plans, const run_context& context, reporter& out,
                      const run_options& options) {
  const run_selection& only = options.only;
  auto names_of = [&](const lab_plan& plan) {
    if (!only.variant.empty()) return std::vector<std::string>{only.variant};
    return variants_to_run(plan, options.variant_filter);
  };
  plan_run run{context, options, out, {}};

  for (const planned_lab& pl : plans) {
    const std::vector<std::string> names = names_of(pl.plan);
    host_session session(context.device, pl.plan.measure.seed);
    kept_point kept;  // destroyed before the session whose registrations it holds
    for (std::uint64_t pi = only.first_point; pi < pl.plan.point_count() && pi <= only.last_point; ++pi) {
      if (run.over()) break;
      run_point(run, pl, names, pi, session, kept);
    }
  }
  run.summary.interrupted = run.stopped();
  return std::move(run.summary);
}

}  // namespace cudalab::host
