// stream: an owning, move-only CUDA stream.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <type_traits>

#include "cudalab/cuda_error.hpp"

namespace cudalab {

namespace detail {
struct stream_destroy {
  void operator()(cudaStream_t s) const noexcept { CUDALAB_CUDA_LOG(cudaStreamDestroy(s)); }
};
}  // namespace detail

/// A non-blocking CUDA stream (it does not synchronise with the legacy default stream).
class stream {
 public:
  stream() {
    cudaStream_t s = nullptr;
    CUDALAB_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    handle_.reset(s);
  }
  cudaStream_t get() const noexcept { return handle_.get(); }
  /// Blocks until all work enqueued so far has finished; throws on an asynchronous error.
  void synchronize() const { CUDALAB_CUDA_CHECK(cudaStreamSynchronize(get())); }

 private:
  std::unique_ptr<std::remove_pointer_t<cudaStream_t>, detail::stream_destroy> handle_;
};

}  // namespace cudalab
