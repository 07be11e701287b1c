// Slot `add_overlapped` of the mapped_pinned lab: h_out[i] = h_in[i] + increment * cycles for the n ints
// of pinned host memory h_in, with the host-to-device copies, the add kernel and the device-to-host
// copies of different pieces of the data running at the same time.
//
// One copy in, one add over everything, one copy out, all on one stream, leave the copy engines and
// the SMs waiting on each other: the bus carries nothing while the kernel runs, and the kernel waits
// for the whole input. Cut the data into `chunks` pieces and give each piece its own copy in, add and
// copy out, on one of the `stream_count` streams: the order within a stream keeps each piece correct,
// and pieces on different streams overlap (a copy in each direction and kernels at once).
//
// How the lab calls it, once per run, inside its timing loop:
//   add_overlapped(h_in, h_out, d_in, d_out, n, increment, cycles, chunks, streams, stream_count)
// - h_in, h_out: n ints each of pinned (page-locked) host memory: the input, and where the results
//   must be when the work ends (the lab checks h_out). Do not write h_in.
// - d_in, d_out: n ints each of device memory, yours to use (for staging the pieces).
// - n: 1 to 2^33 (so 64-bit sizes); increment and cycles: the add (cycles adds of increment, with
//   32-bit wrap-around; add_chunk below does it); chunks: the lab's `chunks` parameter (1 to 4096, at
//   least stream_count), how many pieces to cut the data into.
// - streams: stream_count (1 to 32) streams the lab owns. Before the call the lab makes each of them
//   wait for the work already queued before the run; after it, the lab's own stream waits for all of
//   them. So enqueue all your work on these streams, do not synchronise (the lab waits), create no
//   stream or event and allocate nothing (all of that would be timed). Return the first error a CUDA
//   call reports, or cudaSuccess.
#include <cuda_runtime.h>

/// d_out[i] = d_in[i] + increment, `cycles` times, for i < count, in a grid-stride loop (any grid).
/// One dependent add after the other, through a volatile asm the compiler may not fold into one
/// multiply-add: `cycles` is the work per element the lab sets.
__global__ void add_chunk(const int* d_in, int* d_out, unsigned long long count, int increment, int cycles) {
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    int v = d_in[i];
    for (int k = 0; k < cycles; ++k) asm volatile("add.s32 %0, %0, %1;" : "+r"(v) : "r"(increment));
    d_out[i] = v;
  }
}

extern "C" cudaError_t add_overlapped(const int* h_in, int* h_out, int* d_in, int* d_out, unsigned long long n,
                                      int increment, int cycles, int chunks, const cudaStream_t* streams,
                                      int stream_count) {
  // BEGIN SOLUTION
  // Pieces of ceil(n / chunks) ints rounded up to 32 (128 bytes): every piece starts aligned, so its
  // warps stay coalesced.
  const unsigned long long even = (n + chunks - 1) / chunks;
  const unsigned long long piece = (even + 31) / 32 * 32;
  const unsigned threads = 256;
  int c = 0;
  for (unsigned long long begin = 0; begin < n; begin += piece, ++c) {
    const unsigned long long count = n - begin < piece ? n - begin : piece;
    const size_t bytes = count * sizeof(int);
    const cudaStream_t s = streams[c % stream_count];
    cudaError_t e = cudaMemcpyAsync(d_in + begin, h_in + begin, bytes, cudaMemcpyHostToDevice, s);
    if (e != cudaSuccess) return e;
    unsigned long long blocks = (count + threads - 1) / threads;
    if (blocks > 65535) blocks = 65535;  // the grid-stride loop covers the rest
    add_chunk<<<static_cast<unsigned>(blocks), threads, 0, s>>>(d_in + begin, d_out + begin, count, increment, cycles);
    e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    e = cudaMemcpyAsync(h_out + begin, d_out + begin, bytes, cudaMemcpyDeviceToHost, s);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
  // STARTER: return cudaSuccess;
  // END SOLUTION
}
