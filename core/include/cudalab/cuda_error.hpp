// cuda_error and the checking macros: every CUDA call in cudalab and its plugins goes through them.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "cudalab/abi.hpp"

namespace cudalab {

/// A failed CUDA runtime call: carries the call's text, where it was made and the CUDA error.
class CUDALAB_API cuda_error : public std::runtime_error {
 public:
  cuda_error(cudaError_t code, const char* call, const char* file, int line)
      : std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + call +
                           " failed: " + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")"),
        code_(code) {}

  /// The CUDA error code the call returned.
  cudaError_t code() const noexcept { return code_; }

  /// True for errors that leave the CUDA context unusable (the process must end to recover).
  bool sticky() const noexcept {
    switch (code_) {
      case cudaErrorIllegalAddress:
      case cudaErrorLaunchFailure:
      case cudaErrorHardwareStackError:
      case cudaErrorIllegalInstruction:
      case cudaErrorMisalignedAddress:
      case cudaErrorInvalidAddressSpace:
      case cudaErrorInvalidPc:
      case cudaErrorAssert:
        return true;
      default:
        return false;
    }
  }

 private:
  cudaError_t code_;
};

namespace detail {

inline void throw_on_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
  if (code != cudaSuccess) throw cuda_error(code, call, file, line);
}

/// For destructors, which must not throw: reports a failed release on stderr and goes on.
inline void log_on_cuda_error(cudaError_t code, const char* call, const char* file, int line) noexcept {
  if (code != cudaSuccess)
    std::fprintf(stderr, "cudalab: %s:%d: %s failed: %s\n", file, line, call, cudaGetErrorName(code));
}

}  // namespace detail
}  // namespace cudalab

/// Runs a CUDA runtime call and throws cudalab::cuda_error if it fails.
#define CUDALAB_CUDA_CHECK(call) ::cudalab::detail::throw_on_cuda_error((call), #call, __FILE__, __LINE__)

/// Checks the launch just made (bad configuration, missing kernel image) without synchronising. It
/// reads the error with cudaGetLastError, which clears one that leaves the context usable: the next
/// check does not report a launch that failed once again.
#define CUDALAB_CHECK_LAUNCH() \
  ::cudalab::detail::throw_on_cuda_error(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

/// Like CUDALAB_CUDA_CHECK for destructors: logs a failure instead of throwing.
#define CUDALAB_CUDA_LOG(call) ::cudalab::detail::log_on_cuda_error((call), #call, __FILE__, __LINE__)
