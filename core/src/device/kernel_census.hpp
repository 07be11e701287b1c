// The kernel census: CUPTI's activity records of every kernel, copy and memset one verified run puts on the
// GPU, on any stream. CUPTI (libcupti.so.13, or $CUDALAB_CUPTI_LIBRARY) is loaded at run time with dlopen,
// attached for the run only and detached (cuptiFinalize) before anything is timed, so its overhead never
// reaches a timing. A library that is missing or refuses, or another CUDA tool in the process (a
// sanitizer, a profiler: CUPTI serves one), makes the census unavailable with the reason, never a failed run.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>

#include "results/census.hpp"

namespace cudalab::host {

namespace detail {
struct census_state;  ///< a census being taken, as CUPTI's callbacks see it (kernel_census.cpp)
}

/// A census being taken, from construction to finish(). One at a time in a process.
class census_recording {
 public:
  /// Attaches CUPTI and records the work of every stream from now on; `session` is the stream the run
  /// is given (the census names its CUPTI id). Never throws: finish() says why there is no census.
  /// REQUIRES: the run's outputs are prepared and nothing else is running on the device.
  explicit census_recording(cudaStream_t session);
  /// Detaches CUPTI when finish() was not called (the run threw).
  ~census_recording();
  census_recording(const census_recording&) = delete;
  census_recording& operator=(const census_recording&) = delete;

  /// Once the session stream has finished the run: puts a marker (a small memset, not in the census) on
  /// the session stream, whose start the GPU stamps with the records' clock (work that ends after it did not
  /// finish within the session stream's work: after_session), waits for the whole device, collects the
  /// records and detaches CUPTI. Call once.
  kernel_census finish();

 private:
  std::unique_ptr<detail::census_state> impl_;
};

/// Makes the CUDA runtime of this process, and of the children it starts, load every kernel when it starts
/// (CUDA_MODULE_LOADING=EAGER), as a run that takes a census must. Lazy loading (CUDA's default) loads a
/// kernel at its first launch and may wait for the whole device to do it: in a verified run - the first
/// launch of everything - work a submission leaves running on a stream of its own then holds up the session
/// stream's, and the census cannot see it outlive the session stream, while every timed launch after it
/// escapes the timing (seen on the H100: a 100 ms kernel on an unjoined stream, flagged only when eager).
/// Call before the first CUDA call of the process.
void load_kernels_eagerly();

}  // namespace cudalab::host
