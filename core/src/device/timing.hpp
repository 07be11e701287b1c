// Timing one variant on the GPU: Google Benchmark drives the loop (iterations, repetitions)
// with manual time taken by CUDA events around the plugin's run() on the session stream.
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <functional>
#include <optional>

#include "labfile/run_profile.hpp"
#include "results/result.hpp"

namespace cudalab::host {

/// Enqueues one execution of the thing being timed on the given stream (no synchronisation).
using launch_fn = std::function<void(cudaStream_t)>;

/// How many of something that lasts `each_ms` last at least `target_ms` together: at least 1, at most
/// `most` (also when one lasts no measurable time). Sizes the launches of a timed sample (about
/// sample_target_ms, at most max_batch) and the samples of a repetition (min_time_ms, at most
/// max_samples_per_repetition).
std::uint64_t count_to_reach(double each_ms, double target_ms, std::uint64_t most);

inline constexpr double sample_target_ms = 1.0;                       ///< what a timed sample aims to last
inline constexpr std::uint64_t max_batch = 1000;                      ///< launches per sample, at most
inline constexpr std::uint64_t max_samples_per_repetition = 1000000;  ///< samples per repetition, at most

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
