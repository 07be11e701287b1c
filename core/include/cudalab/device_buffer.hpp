// device_buffer<T>: an owning, move-only array in device memory.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>

#include "cudalab/cuda_error.hpp"

namespace cudalab {

namespace detail {
struct device_free {
  void operator()(void* p) const noexcept { CUDALAB_CUDA_LOG(cudaFree(p)); }
};
}  // namespace detail

/// `count` elements of T in device memory (cudaMalloc: at least 256-byte aligned). Uninitialised.
template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  explicit device_buffer(std::size_t count) : count_(count) {
    void* p = nullptr;
    if (count > 0) CUDALAB_CUDA_CHECK(cudaMalloc(&p, count * sizeof(T)));
    ptr_.reset(p);
  }

  T* data() noexcept { return static_cast<T*>(ptr_.get()); }
  const T* data() const noexcept { return static_cast<const T*>(ptr_.get()); }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }

  /// Copies `size()` elements from host memory. REQUIRES: h_src holds size() elements.
  void upload(const T* h_src, cudaStream_t stream) {
    CUDALAB_CUDA_CHECK(cudaMemcpyAsync(data(), h_src, bytes(), cudaMemcpyHostToDevice, stream));
  }
  /// Copies `size()` elements to host memory. REQUIRES: h_dst holds size() elements.
  void download(T* h_dst, cudaStream_t stream) const {
    CUDALAB_CUDA_CHECK(cudaMemcpyAsync(h_dst, data(), bytes(), cudaMemcpyDeviceToHost, stream));
  }
  /// Sets every byte to `byte`.
  void fill_bytes(int byte, cudaStream_t stream) { CUDALAB_CUDA_CHECK(cudaMemsetAsync(data(), byte, bytes(), stream)); }

 private:
  std::unique_ptr<void, detail::device_free> ptr_;
  std::size_t count_ = 0;
};

}  // namespace cudalab
