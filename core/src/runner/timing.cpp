// Timing one variant on the GPU with Google Benchmark's loop and CUDA events (manual time).
#include "runner/timing.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <numeric>

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

float time_batch(const launch_fn& launch, cudaStream_t stream, std::uint64_t batch, event& start, event& stop) {
  start.record(stream);
  for (std::uint64_t i = 0; i < batch; ++i) launch(stream);
  stop.record(stream);
  stop.synchronize();
  CUDALAB_CUDA_CHECK(cudaPeekAtLastError());
  return event::elapsed_ms(start, stop);
}

}  // namespace

std::uint64_t auto_batch(double single_launch_ms, double target_ms, std::uint64_t max_batch) {
  if (!(single_launch_ms > 0)) return max_batch;
  const double want = std::ceil(target_ms / single_launch_ms);
  return static_cast<std::uint64_t>(std::clamp(want, 1.0, double(max_batch)));
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

timing time_launches(const launch_fn& launch, cudaStream_t stream, const measure_settings& settings,
                     std::uint64_t l2_bytes) {
  event start, stop;
  std::unique_ptr<l2_flusher> flusher;
  if (settings.l2_flush) flusher = std::make_unique<l2_flusher>(l2_bytes);

  std::uint64_t batch = settings.batch > 0 ? std::uint64_t(settings.batch) : 1;
  if (settings.l2_flush) {
    batch = 1;  // a flush between launches inside a batch would be timed
  } else if (settings.batch <= 0) {
    time_batch(launch, stream, 1, start, stop);  // warm caches and clocks before calibrating
    batch = auto_batch(time_batch(launch, stream, 1, start, stop));
  }

  // Google Benchmark runs the loop; the first exception from CUDA is kept and rethrown after it.
  std::exception_ptr failure;
  auto body = [&](benchmark::State& state) {
    for (auto _ : state) {
      try {
        if (flusher) flusher->flush(stream);
        const float ms = time_batch(launch, stream, batch, start, stop);
        state.SetIterationTime(ms / 1e3);
      } catch (...) {
        failure = std::current_exception();
        state.SkipWithError("CUDA error while timing");
        break;
      }
    }
  };
  benchmark::ClearRegisteredBenchmarks();
  benchmark::RegisterBenchmark("cudalab_variant", body)
      ->UseManualTime()
      ->Repetitions(std::max(1, settings.repetitions))
      ->MinTime(settings.min_time_ms / 1e3)
      ->MinWarmUpTime(settings.warmup_ms / 1e3)
      ->ReportAggregatesOnly(false);
  collecting_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter, "cudalab_variant");
  benchmark::ClearRegisteredBenchmarks();
  if (failure) std::rethrow_exception(failure);

  std::vector<double> per_launch_ms;
  std::uint64_t iterations = 0;
  for (const auto& r : reporter.repetitions) {
    if (r.error_occurred || r.iterations == 0) continue;
    per_launch_ms.push_back(r.real_accumulated_time * 1e3 / double(r.iterations) / double(batch));
    iterations += static_cast<std::uint64_t>(r.iterations);
  }
  if (per_launch_ms.empty()) throw std::runtime_error("timing produced no samples");
  timing t = summarize(per_launch_ms);
  t.samples = iterations;
  t.batch = batch;
  t.l2_flushed = settings.l2_flush;
  return t;
}

}  // namespace cudalab::host
