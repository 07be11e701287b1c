// Timing one variant on the GPU with Google Benchmark's loop and CUDA events (manual time).
#include "device/timing.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "cudalab/device_buffer.hpp"
#include "cudalab/event.hpp"

namespace cudalab::host {

namespace {

// Collects the per-repetition runs Google Benchmark reports; prints nothing.
class collecting_reporter final : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs)
      if (r.run_type == Run::RT_Iteration) repetitions.push_back(r);
  }
  std::vector<Run> repetitions;
};

// A scratch buffer as large as twice the L2, written to evict whatever the last launch left there.
class l2_flusher {
 public:
  explicit l2_flusher(std::uint64_t l2_bytes) : scratch_(std::max<std::uint64_t>(2 * l2_bytes, 1 << 20)) {}
  void flush(cudaStream_t stream) { scratch_.fill_bytes(0x5A, stream); }

 private:
  device_buffer<unsigned char> scratch_;
};

// Event pairs for one timed sample. Without a preparation one pair brackets the whole batch; with
// one, each launch gets its own pair, so the preparation enqueued between them is not timed.
class sample_timer {
 public:
  sample_timer(const launch_fn& launch, const launch_fn& prepare, cudaStream_t stream)
      : launch_(launch), prepare_(prepare), stream_(stream) {}

  /// Milliseconds of GPU time `batch` launches took.
  float time(std::uint64_t batch) {
    const std::uint64_t pairs = prepare_ ? batch : 1;
    while (starts_.size() < pairs) {
      starts_.emplace_back();
      stops_.emplace_back();
    }
    if (!prepare_) starts_[0].record(stream_);
    for (std::uint64_t i = 0; i < batch; ++i) {
      if (prepare_) {
        prepare_(stream_);
        starts_[i].record(stream_);
      }
      launch_(stream_);
      if (prepare_) stops_[i].record(stream_);
    }
    if (!prepare_) stops_[0].record(stream_);
    stops_[pairs - 1].synchronize();
    CUDALAB_CUDA_CHECK(cudaGetLastError());
    float ms = 0;
    for (std::uint64_t i = 0; i < pairs; ++i) ms += event::elapsed_ms(starts_[i], stops_[i]);
    return ms;
  }

 private:
  const launch_fn& launch_;
  const launch_fn& prepare_;
  cudaStream_t stream_;
  std::vector<event> starts_, stops_;
};

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
                                    const std::atomic<bool>* stop) {
  std::unique_ptr<l2_flusher> flusher;
  if (settings.l2_flush) flusher = std::make_unique<l2_flusher>(l2_bytes);
  // The flush and the lab's own preparation, both before the launch's start event.
  const launch_fn before_each = !flusher ? prepare : launch_fn([&](cudaStream_t s) {
    flusher->flush(s);
    if (prepare) prepare(s);
  });
  sample_timer timer(launch, before_each, stream);

  std::uint64_t batch = settings.batch > 0 ? std::uint64_t(settings.batch) : 1;
  if (settings.l2_flush) {
    batch = 1;  // every launch of a sample finds a flushed L2: one launch per sample
  } else if (settings.batch <= 0) {
    timer.time(1);  // warm caches and clocks before calibrating
    batch = count_to_reach(timer.time(1), sample_target_ms, max_batch);
  }
  // The warm-up: whole samples until warmup_ms of GPU time (at least one), whose last ones size
  // the repetitions.
  std::vector<double> warm_ms;
  double warmed = 0;
  do {
    if (stop && stop->load()) return std::nullopt;
    warm_ms.push_back(timer.time(batch));
    warmed += warm_ms.back();
  } while (warmed < settings.warmup_ms);
  const std::vector<double> last(warm_ms.end() - std::ptrdiff_t(std::min<std::size_t>(warm_ms.size(), 3)),
                                 warm_ms.end());
  const std::uint64_t per_repetition =
      count_to_reach(summarize(last).median_ms, settings.min_time_ms, max_samples_per_repetition);

  // Google Benchmark runs the loop; the first exception from CUDA is kept and rethrown after it. A stop
  // request (Ctrl-C) is honoured between samples: however long the settings make the loop, it ends.
  std::exception_ptr failure;
  bool stopped = false;
  auto body = [&](benchmark::State& state) {
    for (auto _ : state) {
      if (stop && stop->load()) {
        stopped = true;
        state.SkipWithError("stopped");
        break;
      }
      try {
        const float ms = timer.time(batch);
        state.SetIterationTime(ms / 1e3);
      } catch (...) {
        failure = std::current_exception();
        state.SkipWithError("CUDA error while timing");
        break;
      }
    }
  };
  benchmark::ClearRegisteredBenchmarks();
  // A fixed number of samples per repetition: Google Benchmark's own estimate would first run
  // repetitions it throws away, then aim 40 % past the minimum time.
  benchmark::RegisterBenchmark("cudalab_variant", body)
      ->UseManualTime()
      ->Repetitions(std::max(1, settings.repetitions))
      ->Iterations(benchmark::IterationCount(per_repetition))
      ->ReportAggregatesOnly(false);
  collecting_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter, "cudalab_variant");
  benchmark::ClearRegisteredBenchmarks();
  if (failure) std::rethrow_exception(failure);
  if (stopped) return std::nullopt;

  std::vector<double> per_launch_ms;
  std::uint64_t iterations = 0;
  for (const auto& r : reporter.repetitions) {
    if (r.error_occurred || r.iterations == 0) continue;
    per_launch_ms.push_back(r.real_accumulated_time * 1e3 / double(r.iterations) / double(batch));
    iterations += static_cast<std::uint64_t>(r.iterations);
  }
  if (per_launch_ms.empty()) throw std::runtime_error("timing produced no samples");
  timing t = summarize(per_launch_ms);
  t.repetition_ms = std::move(per_launch_ms);
  t.samples = iterations;
  t.batch = batch;
  t.l2_flushed = settings.l2_flush;
  return t;
}

}  // namespace cudalab::host
