// A batch of launches captured once into a CUDA graph and launched as one: the GPU then runs them back to back
// from its own memory, without fetching each launch from the host's command queue. On the H100 (2026-11-27) a
// 2 to 7 us kernel launched on a stream, even queued behind the blocking kernel, took 0.2 to 0.45 us more or less
// from one process to the next (3.5 to 7%), each process steady within itself; the same launches as a graph
// moved by 0.6% at most (device/timing.cpp says which results are timed this way).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <string>

#include "device/sample_timer.hpp"

namespace cudalab::host {

class launch_graph {
 public:
  /// Captures `count` calls of `launch` on `stream` (stream capture, this thread's mode) into a graph, made
  /// ready to launch. When the launches cannot be captured - one synchronises, uses the legacy stream or a stream
  /// it does not join back, or throws - gives null and sets `why` to the reason, and the stream is left as it was
  /// (out of capture, the runtime's last error cleared). Nothing of the launches runs while they are captured.
  static std::unique_ptr<launch_graph> capture(const launch_fn& launch, cudaStream_t stream, std::uint64_t count,
                                               std::string& why);
  ~launch_graph();
  launch_graph(const launch_graph&) = delete;
  launch_graph& operator=(const launch_graph&) = delete;

  /// Enqueues the captured launches on `stream`, as one graph launch. Throws cuda_error.
  void launch(cudaStream_t stream) const;
  /// How many launches it holds.
  std::uint64_t count() const { return count_; }

 private:
  launch_graph(cudaGraph_t graph, cudaGraphExec_t exec, std::uint64_t count)
      : graph_(graph), exec_(exec), count_(count) {}
  cudaGraph_t graph_;
  cudaGraphExec_t exec_;
  std::uint64_t count_;
};

}  // namespace cudalab::host
