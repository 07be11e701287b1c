// A kernel that holds a stream until the host releases it (nvbench's blocking kernel): the launches a
// timed sample enqueues behind it wait there, then run back to back at the GPU's own pace, so that the
// host's launch interval is not in their time.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cudalab/mapped_buffer.hpp"

namespace cudalab::host {

/// One blocking kernel's flags, in mapped pinned memory that both sides see.
class stream_blocker {
 public:
  /// REQUIRES: the device can map host memory. Throws cuda_error.
  stream_blocker();

  /// Enqueues the blocking kernel on `stream`: it spins until release() or `timeout_ms` of GPU time.
  /// Throws cuda_error.
  void block(cudaStream_t stream, double timeout_ms);
  /// Lets the blocking kernel end.
  void release();
  /// Whether the last block() ended by its timeout instead of release(): the launches behind it did not
  /// all fit in the stream's queue (or one waited for the host), so the sample is host-paced after all.
  /// REQUIRES: the stream has been synchronised since.
  bool timed_out() const;

 private:
  mapped_buffer<std::uint32_t> flags_;  // [0]: released, [1]: timed out
};

}  // namespace cudalab::host
