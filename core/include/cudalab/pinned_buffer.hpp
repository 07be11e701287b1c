// pinned_buffer<T>: an owning, move-only array in page-locked host memory that another process can map: the
// pages are a memfd's, registered with the CUDA runtime, so that a launcher slot run in the submission's own
// process (docs/grading.md) works on the very buffer the lab made.
#pragma once

#include <cuda_runtime_api.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

#include "cudalab/cuda_error.hpp"

namespace cudalab {

/// The name every pinned_buffer's memfd carries (/proc/self/maps shows "/memfd:cudalab-pinned"): how the
/// host tells a buffer it can hand to another process from other host memory.
inline constexpr const char* pinned_memfd_name = "cudalab-pinned";

/// `count` elements of T in pinned host memory. `flags` are cudaHostAlloc's: cudaHostAllocDefault,
/// cudaHostAllocMapped (a device view through cudaHostGetDevicePointer), cudaHostAllocPortable; the memory is
/// a memfd's pages registered with cudaHostRegister, pinned as cudaHostAlloc's are. Uninitialised. Throws
/// std::invalid_argument for cudaHostAllocWriteCombined (registered memory cannot be write-combined),
/// std::runtime_error when the memfd cannot be made, cuda_error when registering fails.
template <class T>
class pinned_buffer {
 public:
  pinned_buffer() = default;
  explicit pinned_buffer(std::size_t count, unsigned flags = cudaHostAllocDefault) : count_(count) {
    if (flags & cudaHostAllocWriteCombined)
      throw std::invalid_argument("pinned_buffer: write-combined memory cannot be registered; use cudaHostAlloc");
    if (count == 0) return;
    fd_ = memfd_create(pinned_memfd_name, MFD_CLOEXEC);
    if (fd_ < 0) throw std::runtime_error(std::string("pinned_buffer: memfd_create: ") + std::strerror(errno));
    if (ftruncate(fd_, static_cast<off_t>(bytes())) != 0) fail("ftruncate");
    void* p = mmap(nullptr, bytes(), PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    if (p == MAP_FAILED) fail("mmap");
    unsigned register_flags = cudaHostRegisterDefault;
    if (flags & cudaHostAllocMapped) register_flags |= cudaHostRegisterMapped;
    if (flags & cudaHostAllocPortable) register_flags |= cudaHostRegisterPortable;
    const cudaError_t registered = cudaHostRegister(p, bytes(), register_flags);
    if (registered != cudaSuccess) {
      munmap(p, bytes());
      close(fd_);
      fd_ = -1;
      CUDALAB_CUDA_CHECK(registered);
    }
    ptr_ = static_cast<T*>(p);
  }
  ~pinned_buffer() { release(); }
  pinned_buffer(pinned_buffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)), fd_(std::exchange(o.fd_, -1)) {}
  pinned_buffer& operator=(pinned_buffer&& o) noexcept {
    if (this != &o) {
      release();
      ptr_ = std::exchange(o.ptr_, nullptr);
      count_ = std::exchange(o.count_, 0);
      fd_ = std::exchange(o.fd_, -1);
    }
    return *this;
  }
  pinned_buffer(const pinned_buffer&) = delete;
  pinned_buffer& operator=(const pinned_buffer&) = delete;

  T* data() noexcept { return ptr_; }
  const T* data() const noexcept { return ptr_; }
  T& operator[](std::size_t i) noexcept { return ptr_[i]; }
  const T& operator[](std::size_t i) const noexcept { return ptr_[i]; }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }

 private:
  [[noreturn]] void fail(const char* what) {
    const std::string why = std::strerror(errno);
    close(fd_);
    fd_ = -1;
    throw std::runtime_error(std::string("pinned_buffer: ") + what + ": " + why);
  }
  void release() noexcept {
    if (ptr_) {
      CUDALAB_CUDA_LOG(cudaHostUnregister(ptr_));
      munmap(ptr_, bytes());
    }
    if (fd_ >= 0) close(fd_);
    ptr_ = nullptr;
    fd_ = -1;
  }

  T* ptr_ = nullptr;
  std::size_t count_ = 0;
  int fd_ = -1;  ///< the memfd, kept open so that the host can hand it to another process
};

}  // namespace cudalab
