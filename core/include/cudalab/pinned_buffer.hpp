// pinned_buffer<T>: an owning, move-only array in page-locked host memory.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>

#include "cudalab/cuda_error.hpp"

namespace cudalab {

namespace detail {
struct host_free {
  void operator()(void* p) const noexcept { CUDALAB_CUDA_LOG(cudaFreeHost(p)); }
};
}  // namespace detail

/// `count` elements of T in pinned host memory (cudaHostAlloc with `flags`). Uninitialised.
template <class T>
class pinned_buffer {
 public:
  pinned_buffer() = default;
  explicit pinned_buffer(std::size_t count, unsigned flags = cudaHostAllocDefault) : count_(count) {
    void* p = nullptr;
    if (count > 0) CUDALAB_CUDA_CHECK(cudaHostAlloc(&p, count * sizeof(T), flags));
    ptr_.reset(p);
  }

  T* data() noexcept { return static_cast<T*>(ptr_.get()); }
  const T* data() const noexcept { return static_cast<const T*>(ptr_.get()); }
  T& operator[](std::size_t i) noexcept { return data()[i]; }
  const T& operator[](std::size_t i) const noexcept { return data()[i]; }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }

 private:
  std::unique_ptr<void, detail::host_free> ptr_;
  std::size_t count_ = 0;
};

}  // namespace cudalab
