// mapped_buffer<T>: pinned host memory mapped into the device's address space (zero-copy).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "cudalab/cuda_error.hpp"
#include "cudalab/pinned_buffer.hpp"

namespace cudalab {

/// `count` elements of T in mapped pinned host memory: kernels read and write it over the bus
/// through device_data(). REQUIRES: the device can map host memory (device_info::can_map_host_memory).
template <class T>
class mapped_buffer {
 public:
  mapped_buffer() = default;
  explicit mapped_buffer(std::size_t count) : host_(count, cudaHostAllocMapped) {
    if (count > 0) {
      void* d = nullptr;
      CUDALAB_CUDA_CHECK(cudaHostGetDevicePointer(&d, host_.data(), 0));
      d_ptr_ = static_cast<T*>(d);
    }
  }

  /// The host's view.
  T* data() noexcept { return host_.data(); }
  const T* data() const noexcept { return host_.data(); }
  /// The device's view of the same memory; pass this to kernels.
  T* device_data() noexcept { return d_ptr_; }
  std::size_t size() const noexcept { return host_.size(); }
  std::size_t bytes() const noexcept { return host_.bytes(); }

 private:
  pinned_buffer<T> host_;
  T* d_ptr_ = nullptr;
};

}  // namespace cudalab
