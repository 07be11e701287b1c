// Timing one variant: the batch, the warm-up, the launch-bound check, then repetitions until the
// stopping rule ends them.
#include "device/timing.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <utility>

#include "device/stopping_rule.hpp"
#include "results/median_interval.hpp"

namespace cudalab::host {

namespace {

double median_of(std::vector<double> v) { return summarize(std::move(v)).median_ms; }

// The timed samples of one result: the batch, and whether they are held behind the blocking kernel.
struct sampling {
  sample_timer& timer;
  std::uint64_t batch = 1;
  bool held = false;
  bool graph = false;          // each sample is one launch of the batch captured as a graph (sample_timer::capture)
  double taken_off_ms = 0;     // a launcher in another process: the handshake's time, off each launch's
  std::uint64_t timeouts = 0;  // held samples whose blocker ran out

  /// One sample's time per launch; held samples whose blocker timed out are retaken with half the batch,
  /// and host-paced from then on once a batch of one does not fit twice in a row (once may be a one-off: the
  /// calibration peer's start, a first registration of host memory in the other process).
  double per_launch_ms() {
    for (int single_timeouts = 0;;) {
      const sample_time t = timer.time(batch, held);
      if (!held || t.held) return std::max(0.0, t.gpu_ms / double(batch) - taken_off_ms);
      ++timeouts;
      if (batch > 1)
        batch /= 2;
      else if (++single_timeouts == 2)
        held = false;
    }
  }
};

// The handshake's time per launch: handshake_samples samples of it alone, made as the launch's are (held,
// the same batch, the flush and the preparation before each), after three to warm up; their median. Adds
// the blocker's timeouts to `timeouts`.
double handshake_ms(sample_timer& handshake, std::uint64_t batch, std::uint64_t& timeouts) {
  sampling s{handshake, batch, true};
  for (int i = 0; i < 3; ++i) s.per_launch_ms();
  std::vector<double> times;
  for (int i = 0; i < handshake_samples; ++i) times.push_back(s.per_launch_ms());
  timeouts += s.timeouts;
  return median_of(std::move(times));
}

// The batch: given, one when each launch must find a flushed L2, else what lasts about sample_target_ms.
std::uint64_t choose_batch(sample_timer& timer, const measure_settings& settings) {
  if (settings.l2_flush) return 1;
  if (settings.batch > 0) return std::uint64_t(settings.batch);
  timer.time(1, false);  // warm caches and clocks before calibrating
  return count_to_reach(timer.time(1, false).gpu_ms, sample_target_ms, max_batch);
}

// The warm-up: host-paced samples until warmup_ms of GPU time (at least one). Gives the last three's
// median time per launch and the median launch interval (host enqueue time per launch); nullopt if stopped.
struct warm_state {
  double paced_ms = 0, interval_ms = 0;
};
std::optional<warm_state> warm_up(sampling& s, const measure_settings& settings, const std::atomic<bool>* stop) {
  std::vector<double> paced, interval;
  double warmed = 0;
  do {
    if (stop && stop->load()) return std::nullopt;
    const sample_time t = s.timer.time(s.batch, false);
    paced.push_back(t.gpu_ms / double(s.batch));
    interval.push_back(t.enqueue_ms / double(s.batch));
    warmed += t.gpu_ms;
  } while (warmed < settings.warmup_ms);
  const auto last = [](const std::vector<double>& v) {
    return median_of({v.end() - std::ptrdiff_t(std::min<std::size_t>(v.size(), 3)), v.end()});
  };
  return warm_state{last(paced), last(interval)};
}

// Whether the GPU's own time per launch, `own_ms`, is shorter than the host's launch interval and than the
// host-paced time (the GPU did wait for the host): a launch-bound kernel.
bool shorter_than_host(double own_ms, const warm_state& warm) {
  return own_ms < warm.interval_ms && own_ms < launch_bound_gain * warm.paced_ms;
}

// The median time per launch of three samples.
double three_samples_ms(sampling& s) {
  std::vector<double> times;
  for (int i = 0; i < 3; ++i) times.push_back(s.per_launch_ms());
  return median_of(std::move(times));
}

// Whether the kernel is shorter than the host's launch interval: three held samples (batch capped at
// max_held_batch) against the warm-up's interval and host-paced time. When it is, the sampling is held from then on,
// and this gives the held samples' median time per launch.
std::optional<double> check_launch_bound(sampling& s, const warm_state& warm) {
  if (!(warm.paced_ms < launch_bound_ratio * warm.interval_ms)) return std::nullopt;
  sampling held{s.timer, std::min(s.batch, max_held_batch), true};
  const double held_ms = three_samples_ms(held);
  s.timeouts += held.timeouts;
  if (!held.held || !shorter_than_host(held_ms, warm)) return std::nullopt;
  s.batch = held.batch;
  s.held = true;
  return held_ms;
}

// A launch-bound candidate, or a kernel whose host-paced time is below graph_below_ms, timed as one graph of its
// batch per sample. The batch is chosen again from the graph's own time per launch (the host-paced time it was
// chosen from moves with the host: a warm-up slowed by the host once gave a launch-bound kernel a batch of 15 where
// it had 70-81, and kept it off the graph). Gives the median time per launch of three samples, and the sampling
// launches the graph from then on, when that is below graph_below_ms; nullopt otherwise - a longer kernel, or
// launches that cannot be captured (`refused` then says why) - and the sampling is left on the stream.
std::optional<double> time_as_graph(sampling& s, std::string& refused) {
  refused = s.timer.capture(s.batch);
  if (!refused.empty()) return std::nullopt;
  const double first_ms = s.timer.time(s.batch, false).gpu_ms / double(s.batch);
  if (const std::uint64_t batch = count_to_reach(first_ms, sample_target_ms, max_batch); batch != s.batch) {
    refused = s.timer.capture(batch);
    if (!refused.empty()) return std::nullopt;
    s.batch = batch;
  }
  s.graph = true;
  const double ms = three_samples_ms(s);
  if (ms < graph_below_ms) return ms;
  s.graph = false;
  s.timer.forget_graph();
  return std::nullopt;
}

}  // namespace

std::uint64_t count_to_reach(double each_ms, double target_ms, std::uint64_t most) {
  if (!(each_ms > 0)) return most;
  const double want = std::ceil(target_ms / each_ms);
  return static_cast<std::uint64_t>(std::clamp(want, 1.0, double(most)));
}

timing summarize(std::vector<double> v) {
  timing t;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  t.samples = n;
  t.min_ms = v.front();
  t.max_ms = v.back();
  t.median_ms = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  t.mean_ms = std::accumulate(v.begin(), v.end(), 0.0) / double(n);
  double var = 0;
  for (double x : v) var += (x - t.mean_ms) * (x - t.mean_ms);
  var = n > 1 ? var / double(n - 1) : 0.0;
  t.cv = t.mean_ms > 0 ? std::sqrt(var) / t.mean_ms : 0.0;
  t.timed = true;
  return t;
}

std::optional<timing> time_launches(const launch_fn& launch, const launch_fn& prepare, cudaStream_t stream,
                                    const measure_settings& settings, std::uint64_t l2_bytes,
                                    const std::atomic<bool>* stop, const remote_handshake* handshake) {
  sample_timer timer(launch, prepare, stream, settings.l2_flush, l2_bytes);
  std::optional<sample_timer> handshake_timer;
  if (handshake) handshake_timer.emplace(handshake->enqueue, prepare, stream, settings.l2_flush, l2_bytes);
  sampling s{timer, choose_batch(timer, settings), false};
  const std::optional<warm_state> warm = warm_up(s, settings, stop);
  if (!warm) return std::nullopt;
  // The GPU's own time per launch, where the host's pace is taken out of the samples: held behind the blocking
  // kernel, or (a short kernel) launched as a graph.
  std::optional<double> held_ms;
  std::string graph_refused;
  if (handshake) {
    s.batch = std::min(s.batch, max_held_batch);
    s.held = true;
    s.taken_off_ms = handshake_ms(*handshake_timer, s.batch, s.timeouts);
    if (handshake->calibrated) handshake->calibrated();
    held_ms = s.per_launch_ms();
  } else {
    const bool candidate = warm->paced_ms < launch_bound_ratio * warm->interval_ms;
    if (timer.can_capture() && (warm->paced_ms < graph_below_ms || candidate))
      held_ms = time_as_graph(s, graph_refused);
    if (!s.graph) held_ms = check_launch_bound(s, *warm);
  }
  // What a sample costs the GPU, the handshake taken off included: a launcher that enqueues nothing is timed
  // at about 0, and its repetitions must still end (one did only at the unit's time limit on the H100).
  const double sample_ms = (held_ms.value_or(warm->paced_ms) + s.taken_off_ms) * double(s.batch);
  const std::uint64_t per_repetition = count_to_reach(sample_ms, settings.min_time_ms, max_samples_per_repetition);

  // Repetitions until the rule stops them; a stop request (Ctrl-C) is honoured between samples.
  const stopping_rule rule = stopping_rule::of(settings);
  std::vector<double> per_launch_ms;
  std::uint64_t samples = 0;
  double spent_ms = 0;
  std::optional<stop_reason> why;
  while (!why) {
    double sum_ms = 0;
    std::uint64_t launches = 0;
    for (std::uint64_t i = 0; i < per_repetition; ++i) {
      if (stop && stop->load()) return std::nullopt;
      const double ms = s.per_launch_ms();  // which may halve the batch: count what it took
      sum_ms += ms * double(s.batch);
      launches += s.batch;
    }
    samples += per_repetition;
    spent_ms += sum_ms + s.taken_off_ms * double(launches);
    per_launch_ms.push_back(sum_ms / double(launches));
    why = should_stop(rule, per_launch_ms, spent_ms);
  }

  timing t = summarize(per_launch_ms);
  if (const std::optional<median_interval> interval = interval_of_median(per_launch_ms)) {
    t.interval_lo_ms = interval->lo_ms;
    t.interval_hi_ms = interval->hi_ms;
  }
  t.repetition_ms = std::move(per_launch_ms);
  t.samples = samples;
  t.batch = s.batch;
  t.l2_flushed = settings.l2_flush;
  t.stopped_by = why;
  // With a handshake, its samples' cold caches come first and find what the verified run left set.
  t.persisting_l2_found = timer.persisting_found();
  t.persisting_l2_note = timer.persisting_note();
  if (handshake_timer) {
    t.persisting_l2_found += handshake_timer->persisting_found();
    if (t.persisting_l2_note.empty()) t.persisting_l2_note = handshake_timer->persisting_note();
  }
  t.launch_bound = !handshake && held_ms && (s.held || (s.graph && shorter_than_host(*held_ms, *warm)));
  if (t.launch_bound) t.host_inclusive_ms = warm->paced_ms;
  if (handshake) t.handshake_ms = s.taken_off_ms;
  t.hold_timeouts = s.timeouts;
  t.held = s.held;
  t.graph = s.graph;
  t.graph_refused = graph_refused;
  return t;
}

}  // namespace cudalab::host
