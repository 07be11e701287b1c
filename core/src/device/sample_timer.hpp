// One timed sample: a batch of launches between CUDA events, each after a cold L2 and the lab's
// preparation (both outside the timed region), paced by the host, queued behind a blocking kernel, or
// launched as one CUDA graph.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cudalab/event.hpp"
#include "device/blocking_kernel.hpp"
#include "device/cold_cache.hpp"

namespace cudalab::host {
class launch_graph;
}

namespace cudalab::host {

/// Enqueues one execution of the thing being timed on the given stream (no synchronisation).
using launch_fn = std::function<void(cudaStream_t)>;

/// What one sample took.
struct sample_time {
  double gpu_ms = 0;      ///< event time of the batch's launches (their preparations left out)
  double enqueue_ms = 0;  ///< host wall time spent enqueueing them (preparations included): the launch interval
  bool held = false;      ///< queued behind the blocking kernel, which the host released in time
};

/// Times batches of `launch` on `stream`. `prepare` (may be empty) is enqueued before every launch, and
/// with `l2_flush` a memset of twice the L2 size before that; with `l2_flush` each sample also starts
/// with the persisting-L2 state reset (cold_cache.hpp), so REQUIRES batch 1 then for a cold start of
/// every launch.
class sample_timer {
 public:
  /// Keeps references to `launch` and `prepare`: REQUIRES they outlive it. Throws cuda_error.
  sample_timer(const launch_fn& launch, const launch_fn& prepare, cudaStream_t stream, bool l2_flush,
               std::uint64_t l2_bytes);
  ~sample_timer();

  /// `batch` launches, timed. Without a preparation one event pair brackets the whole batch; with one,
  /// each launch gets its own pair, so the preparation between them is not timed. `hold`: the batch is
  /// enqueued behind the blocking kernel and released once all of it is queued (held says whether the
  /// release came before the kernel's timeout). After capture(batch), a batch of that size is the graph's
  /// one launch instead (never held: it is one call to enqueue). Throws cuda_error.
  sample_time time(std::uint64_t batch, bool hold);

  /// Whether a batch can be a graph: nothing is enqueued between its launches (no preparation, no flush).
  bool can_capture() const { return !before_each_; }
  /// Captures a batch of `batch` launches into a graph (launch_graph.hpp) that time() launches from then on;
  /// "" when it did, else why not (the samples then stay launches on the stream). REQUIRES can_capture().
  std::string capture(std::uint64_t batch);
  /// Back to launches on the stream for every batch.
  void forget_graph();

  /// How many samples found persisting-L2 state set (and reset it) at their start: l2_flush only.
  std::uint64_t persisting_found() const { return persisting_found_; }
  /// What the first of them found (persisting_l2_state::text()); "" when none did.
  const std::string& persisting_note() const { return persisting_note_; }

 private:
  void enqueue(std::uint64_t batch, std::uint64_t pairs);

  const launch_fn& launch_;
  launch_fn before_each_;  // the flush, then the lab's preparation; empty when neither
  cudaStream_t stream_;
  std::vector<event> starts_, stops_;
  std::unique_ptr<cold_cache> cold_;         // with l2_flush
  std::unique_ptr<stream_blocker> blocker_;  // made on the first held sample
  std::unique_ptr<launch_graph> graph_;      // after capture()
  std::uint64_t persisting_found_ = 0;
  std::string persisting_note_;
};

/// The blocking kernel's timeout, ms of GPU time: far more than enqueueing a held batch takes.
inline constexpr double hold_timeout_ms = 200.0;

}  // namespace cudalab::host
