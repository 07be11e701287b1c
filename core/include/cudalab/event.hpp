// event: an owning, move-only CUDA event used for timing on a stream.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <type_traits>

#include "cudalab/cuda_error.hpp"

namespace cudalab {

namespace detail {
struct event_destroy {
  void operator()(cudaEvent_t e) const noexcept { CUDALAB_CUDA_LOG(cudaEventDestroy(e)); }
};
}  // namespace detail

/// A CUDA event with timing enabled.
class event {
 public:
  event() {
    cudaEvent_t e = nullptr;
    CUDALAB_CUDA_CHECK(cudaEventCreate(&e));
    handle_.reset(e);
  }
  cudaEvent_t get() const noexcept { return handle_.get(); }
  void record(cudaStream_t stream) { CUDALAB_CUDA_CHECK(cudaEventRecord(get(), stream)); }
  void synchronize() const { CUDALAB_CUDA_CHECK(cudaEventSynchronize(get())); }

  /// Milliseconds between two recorded events. REQUIRES: both have completed.
  static float elapsed_ms(const event& start, const event& stop) {
    float ms = 0.0f;
    CUDALAB_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    return ms;
  }

 private:
  std::unique_ptr<std::remove_pointer_t<cudaEvent_t>, detail::event_destroy> handle_;
};

}  // namespace cudalab
