// The blocking kernel (blocking_kernel.hpp): one thread spinning on a flag in mapped host memory.
#include "device/blocking_kernel.hpp"

#include <atomic>

#include "cudalab/cuda_error.hpp"

namespace cudalab::host {

namespace {

// The GPU's global nanosecond timer, which runs at a fixed rate whatever the SM clock.
__device__ std::uint64_t global_ns() {
  std::uint64_t ns;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(ns));
  return ns;
}

// Spins until the host sets flags[0], or until `timeout_ns` have passed: then flags[1] says so.
__global__ void cudalab_blocking_kernel(volatile std::uint32_t* flags, std::uint64_t timeout_ns) {
  const std::uint64_t start = global_ns();
  while (flags[0] == 0) {
    if (global_ns() - start > timeout_ns) {
      flags[1] = 1;
      break;
    }
  }
  __threadfence_system();
}

}  // namespace

stream_blocker::stream_blocker() : flags_(2) {}

void stream_blocker::block(cudaStream_t stream, double timeout_ms) {
  flags_.data()[0] = 0;
  flags_.data()[1] = 0;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  cudalab_blocking_kernel<<<1, 1, 0, stream>>>(flags_.device_data(), std::uint64_t(timeout_ms * 1e6));
  CUDALAB_CUDA_CHECK(cudaGetLastError());
}

void stream_blocker::release() {
  // The kernel reads the flag over the bus; a release store makes everything before it visible first.
  reinterpret_cast<std::atomic<std::uint32_t>*>(flags_.data())->store(1, std::memory_order_release);
}

bool stream_blocker::timed_out() const {
  return reinterpret_cast<const std::atomic<std::uint32_t>*>(flags_.data() + 1)->load() != 0;
}

}  // namespace cudalab::host
