// Launchers for fake.submission_process (submission_process_test.cpp), built into a shared library the way a
// student's is loaded: extern "C" host functions that use only the CUDA runtime (the fake one runs no kernels).
#include <cuda_runtime_api.h>
#include <unistd.h>

// Fills n bytes of `device` with `value` on `stream`, then copies them into `host` (pinned) and adds `bias` to
// the first byte there once the copy is done: the order of the two processes' work on the harness's streams.
extern "C" cudaError_t fill_and_copy(unsigned char* device, unsigned long long n, int value, unsigned char* host,
                                     cudaStream_t stream) {
  if (cudaMemsetAsync(device, value, n, stream) != cudaSuccess) return cudaGetLastError();
  return cudaMemcpyAsync(host, device, n, cudaMemcpyDeviceToHost, stream);
}

// Sets n bytes of `device` to `value` on each of `count` streams, a slice each (the mapped_pinned lab's shape:
// streams of the lab's own, handed over as an array).
extern "C" cudaError_t fill_on_streams(unsigned char* device, unsigned long long n, int value,
                                       const cudaStream_t* streams, int count) {
  const unsigned long long slice = n / static_cast<unsigned long long>(count);
  for (int k = 0; k < count; ++k) {
    const unsigned long long bytes = k + 1 == count ? n - slice * static_cast<unsigned long long>(k) : slice;
    if (cudaMemsetAsync(device + slice * static_cast<unsigned long long>(k), value, bytes, streams[k]) != cudaSuccess)
      return cudaGetLastError();
  }
  return cudaSuccess;
}

// Returns what it is told to: the harness's call gives back the launcher's own cudaError_t.
extern "C" cudaError_t returns(int code) { return static_cast<cudaError_t>(code); }

// Writes on descriptor 3 - where a launcher in the unit child found the results pipe - before it returns.
extern "C" cudaError_t writes_on_fd3(int) {
  const char line[] = "{\"nonce\":0,\"status\":0,\"error\":\"\"}";
  (void)!write(3, line, sizeof line - 1);
  return cudaSuccess;
}

// Ends its process in the middle of a call.
extern "C" cudaError_t exits(int code) { _exit(code); }

// Closes its descriptor 3 (its socket) and never returns.
extern "C" cudaError_t closes_its_socket(int) {
  close(3);
  for (;;) pause();
}
