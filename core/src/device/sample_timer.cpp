// Timed samples (sample_timer.hpp): event pairs around batches, the cold L2, the blocking kernel, the graph.
#include "device/sample_timer.hpp"

#include <chrono>

#include "cudalab/cuda_error.hpp"
#include "device/launch_graph.hpp"

namespace cudalab::host {

sample_timer::sample_timer(const launch_fn& launch, const launch_fn& prepare, cudaStream_t stream, bool l2_flush,
                           std::uint64_t l2_bytes)
    : launch_(launch), before_each_(prepare), stream_(stream) {
  if (l2_flush) {
    cold_ = std::make_unique<cold_cache>(l2_bytes);
    before_each_ = [this, &prepare](cudaStream_t s) {
      cold_->flush(s);
      if (prepare) prepare(s);
    };
  }
}

sample_timer::~sample_timer() = default;

std::string sample_timer::capture(std::uint64_t batch) {
  std::string why;
  graph_ = launch_graph::capture(launch_, stream_, batch, why);
  return why;
}

void sample_timer::forget_graph() { graph_.reset(); }

void sample_timer::enqueue(std::uint64_t batch, std::uint64_t pairs) {
  while (starts_.size() < pairs) {
    starts_.emplace_back();
    stops_.emplace_back();
  }
  if (graph_ && graph_->count() == batch && pairs == 1) {
    starts_[0].record(stream_);
    graph_->launch(stream_);
    stops_[0].record(stream_);
    return;
  }
  if (!before_each_) starts_[0].record(stream_);
  for (std::uint64_t i = 0; i < batch; ++i) {
    if (before_each_) {
      before_each_(stream_);
      starts_[i].record(stream_);
    }
    launch_(stream_);
    if (before_each_) stops_[i].record(stream_);
  }
  if (!before_each_) stops_[0].record(stream_);
}

sample_time sample_timer::time(std::uint64_t batch, bool hold) {
  const std::uint64_t pairs = before_each_ ? batch : 1;
  // The persisting-L2 state is reset from the host, so before the blocking kernel holds the stream: the
  // last sample has been waited for, and nothing of the launch to come is queued yet.
  if (cold_) {
    const persisting_l2_state found = cold_->reset_state(stream_);
    if (found.any() && persisting_found_++ == 0) persisting_note_ = found.text();
  }
  if (hold && !blocker_) blocker_ = std::make_unique<stream_blocker>();
  if (hold) blocker_->block(stream_, hold_timeout_ms);
  using clock = std::chrono::steady_clock;
  const clock::time_point start = clock::now();
  enqueue(batch, pairs);
  const double enqueue_ms = std::chrono::duration<double, std::milli>(clock::now() - start).count();
  if (hold) blocker_->release();
  stops_[pairs - 1].synchronize();
  CUDALAB_CUDA_CHECK(cudaGetLastError());
  sample_time t;
  for (std::uint64_t i = 0; i < pairs; ++i) t.gpu_ms += event::elapsed_ms(starts_[i], stops_[i]);
  t.enqueue_ms = enqueue_ms;
  t.held = hold && !blocker_->timed_out();
  return t;
}

}  // namespace cudalab::host
