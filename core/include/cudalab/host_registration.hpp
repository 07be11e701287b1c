// host_registration: ordinary (malloc'ed) host memory page-locked and mapped with cudaHostRegister.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

#include "cudalab/cuda_error.hpp"

namespace cudalab {

/// Registers `bytes` at `h_ptr` for the lifetime of this object (cudaHostRegisterMapped), so kernels
/// can reach it through device_data(). Does not own the memory. REQUIRES: h_ptr outlives this object.
class host_registration {
 public:
  host_registration() = default;
  host_registration(void* h_ptr, std::size_t bytes) : h_ptr_(h_ptr) {
    CUDALAB_CUDA_CHECK(cudaHostRegister(h_ptr, bytes, cudaHostRegisterMapped));
    CUDALAB_CUDA_CHECK(cudaHostGetDevicePointer(&d_ptr_, h_ptr, 0));
  }
  host_registration(const host_registration&) = delete;
  host_registration& operator=(const host_registration&) = delete;
  host_registration(host_registration&& o) noexcept
      : h_ptr_(std::exchange(o.h_ptr_, nullptr)), d_ptr_(std::exchange(o.d_ptr_, nullptr)) {}
  host_registration& operator=(host_registration&& o) noexcept {
    if (this != &o) {
      release();
      h_ptr_ = std::exchange(o.h_ptr_, nullptr);
      d_ptr_ = std::exchange(o.d_ptr_, nullptr);
    }
    return *this;
  }
  ~host_registration() { release(); }

  /// The device's view of the registered memory.
  void* device_data() const noexcept { return d_ptr_; }

 private:
  void release() noexcept {
    if (h_ptr_) CUDALAB_CUDA_LOG(cudaHostUnregister(h_ptr_));
    h_ptr_ = nullptr;
  }
  void* h_ptr_ = nullptr;
  void* d_ptr_ = nullptr;
};

}  // namespace cudalab
