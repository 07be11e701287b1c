// Timing one variant on the GPU: CUDA events around batches of the plugin's run() on the session
// stream, repetitions until the median is precise (stopping_rule.hpp), launch-bound kernels held behind
// a blocking kernel (sample_timer.hpp).
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <functional>
#include <optional>
#include <vector>

#include "device/sample_timer.hpp"
#include "labfile/run_profile.hpp"
#include "results/result.hpp"

namespace cudalab::host {

/// How many of something that lasts `each_ms` last at least `target_ms` together: at least 1, at most
/// `most` (also when one lasts no measurable time). Sizes the launches of a timed sample (about
/// sample_target_ms, at most max_batch) and the samples of a repetition (min_time_ms, at most
/// max_samples_per_repetition).
std::uint64_t count_to_reach(double each_ms, double target_ms, std::uint64_t most);

inline constexpr double sample_target_ms = 1.0;                       ///< what a timed sample aims to last
inline constexpr std::uint64_t max_batch = 1000;                      ///< launches per sample, at most
inline constexpr std::uint64_t max_held_batch = 128;                  ///< launches queued behind the blocker
inline constexpr std::uint64_t max_samples_per_repetition = 1000000;  ///< samples per repetition, at most
/// A kernel is a launch-bound candidate when its host-paced time per launch is below this many launch
/// intervals: the GPU kept pace with the host, so its own time may be shorter (a held sample decides).
inline constexpr double launch_bound_ratio = 1.5;
/// ... and launch-bound when held, its time is below the launch interval and below this fraction of its
/// host-paced time (the GPU did wait for the host): a result on the edge then differs by at most 3%
/// whichever way it is timed.
inline constexpr double launch_bound_gain = 0.97;

/// A kernel whose time per launch as a CUDA graph of its batch (launch_graph.hpp) is below this (ms) is timed that
/// way, where its launches can be captured: one is tried where the host-paced time is below it or the kernel is
/// a launch-bound candidate. On the H100 (2026-11-27) the GPU's own cost of a
/// launch from a stream moved by about 0.2 us from one process to the next (0.2-0.45 us at 2-7 us; 3.5-7%),
/// more than 1% of any time below 20 us; at 33 us and 121 us streams held within 0.5%, and graphs ran each
/// launch 1.7-1.9 us faster, so longer kernels stay on the stream and keep the figures they had.
inline constexpr double graph_below_ms = 0.020;

/// Median, min, max and coefficient of variation of `values` (per-launch milliseconds).
/// REQUIRES: values non-empty.
timing summarize(std::vector<double> values);

/// Times `launch` on `stream` as `settings` says: picks the batch (settings.batch, or automatically from
/// one timed launch; 1 when flushing L2), warms up with whole samples for settings.warmup_ms (at least
/// one). A kernel with nothing enqueued between its launches whose host-paced time is below graph_below_ms, or
/// within launch_bound_ratio of the launch interval, is then captured as a graph of its batch, the batch chosen
/// again from the graph's time; below graph_below_ms each sample is one launch of that graph (timing.graph; where
/// the capture is refused, graph_refused says why and the next step decides). Otherwise it decides whether the kernel
/// is launch-bound (its host-paced time within launch_bound_ratio of the host's launch interval, and its time behind
/// the blocking kernel below that interval and below launch_bound_gain of its host-paced time): then every timed sample
/// is held behind the blocking kernel. A launch-bound result (held, or a graph whose time is below the interval and
/// below launch_bound_gain of the host-paced time) keeps its host-paced time as host_inclusive_ms. Repetitions of as
/// many samples as make settings.min_time_ms of GPU time follow until the stopping rule says (stopping_rule.hpp); each
/// yields its mean time per launch, and the result summarizes those, with why it stopped and the median's interval.
/// `prepare` (may be empty) is enqueued before every launch, and with settings.l2_flush a cold L2 before that
/// (cold_cache.hpp: persisting-L2 state reset, what was found set counted in persisting_l2_found, then the flush): all
/// outside the timed region. `stop` (may be null) is checked before every sample: once it is set, the timing ends there
/// and gives nullopt. REQUIRES: the launch has already run once successfully (verification). Throws cuda_error.
///
/// `handshake` (a launcher run in the submission's own process, isolation/submission_process.hpp: the same
/// ordering with another process that runs nothing): every timed sample is held behind the blocking kernel
/// whatever the kernel's length - the host's round trip to the other process then never reaches the GPU's
/// timeline. Before the first, handshake_samples samples of handshake.enqueue alone are made as the launch's are
/// (held, the same batch, the flush and `prepare` before each); their median is taken off each launch's (never
/// below 0) and kept as handshake_ms; then handshake.calibrated (if set) is called once, before the first timed
/// sample. On the H100 the handshake is two switches of the GPU between the processes' contexts, about
/// 0.28-0.33 ms; docs/grading.md states what that leaves uncertain.
struct remote_handshake {
  launch_fn enqueue;                 ///< one handshake with nothing between, on the stream given
  std::function<void()> calibrated;  ///< the calibration's samples are taken (may be empty)
};
std::optional<timing> time_launches(const launch_fn& launch, const launch_fn& prepare, cudaStream_t stream,
                                    const measure_settings& settings, std::uint64_t l2_bytes,
                                    const std::atomic<bool>* stop = nullptr,
                                    const remote_handshake* handshake = nullptr);

/// How many samples of the handshake alone make its time.
inline constexpr int handshake_samples = 31;

}  // namespace cudalab::host
