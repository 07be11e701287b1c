// Timing one variant on the GPU: Google Benchmark drives the loop (iterations, repetitions)
// with manual time taken by CUDA events around the plugin's run() on the session stream.
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <functional>
#include <optional>

#include "labfile/lab_file.hpp"
#include "results/result.hpp"

namespace cudalab::host {

/// Enqueues one execution of the thing being timed on the given stream (no synchronisation).
using launch_fn = std::function<void(cudaStream_t)>;

/// Launches per timed sample so that one sample lasts about `target_ms`: 1 when a single launch
/// already takes that long, at most `max_batch`. REQUIRES: single_launch_ms > 0.
std::uint64_t auto_batch(double single_launch_ms, double target_ms = 1.0, std::uint64_t max_batch = 1000);

/// Timed samples per repetition so that one repetition lasts at least `min_time_ms` when a sample
/// takes `sample_ms`: at least 1, at most `max_samples` (also for a sample of no measurable time).
std::uint64_t samples_per_repetition(double sample_ms, double min_time_ms, std::uint64_t max_samples = 1000000);

/// Median, min, max and coefficient of variation of `values` (per-launch milliseconds).
/// REQUIRES: values non-empty.
timing summarize(std::vector<double> values);

/// Times `launch` on `stream` as `settings` says: picks the batch (settings.batch, or automatically
/// from one timed launch; 1 when flushing L2), warms up with whole samples for settings.warmup_ms
/// (at least one), then runs settings.repetitions Google Benchmark repetitions of the same number of
/// samples each: as many as the warm-up's last samples say make settings.min_time_ms of GPU time. Each repetition
/// yields its mean time per launch; the result summarizes those. `prepare` (may be empty: nothing to do) is enqueued
/// before every launch, and the L2 flush (a memset of twice the L2 size) before that: both outside the timed region,
/// each launch then timed by its own event pair. `stop` (may be null) is checked before every sample: once it is set,
/// the timing ends there and gives nullopt. REQUIRES: the launch has already run once successfully (verification).
/// Throws cuda_error.
std::optional<timing> time_launches(const launch_fn& launch, const launch_fn& prepare, cudaStream_t stream,
                                    const measure_settings& settings, std::uint64_t l2_bytes,
                                    const std::atomic<bool>* stop = nullptr);

}  // namespace cudalab::host
