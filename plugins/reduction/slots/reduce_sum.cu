// Slot `reduce_sum` of the reduction lab: *out = the sum of the n floats in[0, n), computed on the GPU.
// You choose the launches: how many passes, how many blocks, how many threads, and what each thread
// sums. The lab times your function from its first launch to its last, and compares the sum with the
// exact one within the rounding error a summation tree may make (the bound is printed with the
// result): partial sums added in a tree pass easily; one float that every element is added to in turn
// (an atomicAdd on *out) does not, since past 2^24 adding a number below 1 no longer changes it.
//
// How the lab calls it, once per run, inside its timing loop:
//   reduce_sum(in, n, out, scratch, scratch_count, stream)
// - in: n floats on the device (256-byte aligned), 1 <= n <= 2^31 - any n, odd or not a multiple of
//   anything; in [0, 1). Do not write them.
// - out: one float on the device. Write the sum there (do not add to it: before a checked run the lab
//   fills it with a NaN).
// - scratch: scratch_count floats of device memory for your partial sums, yours to overwrite;
//   scratch_count >= max(1, ceil(n / 1024)). Allocate nothing: cudaMalloc in the timed region would
//   be timed, and it synchronises the device.
// - stream: enqueue every launch (and copy, if any) on it, in order; do not synchronise: the lab
//   waits for the stream itself. Return the first error a launch reports (cudaGetLastError()), or
//   cudaSuccess.
#include <cuda_runtime.h>

// BEGIN SOLUTION
namespace {

constexpr unsigned threads = 256;  // per block: 8 warps
constexpr unsigned warp = 32;

/// The sum of v over the block, valid in thread 0: each warp adds in registers with shuffles, lane 0
/// of each warp parks its total in shared memory, warp 0 adds those.
__device__ float block_sum(float v) {
  __shared__ float warp_totals[threads / warp];
  for (unsigned offset = warp / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x % warp == 0) warp_totals[threadIdx.x / warp] = v;
  __syncthreads();
  if (threadIdx.x < warp) {
    v = threadIdx.x < threads / warp ? warp_totals[threadIdx.x] : 0.0f;
    for (unsigned offset = warp / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  }
  return v;
}

/// sums[b] = the sum of in[i] over the i that block b's threads visit in a grid-stride loop: every
/// trip of a warp is one coalesced 128-byte load, and the grid covers [0, n) whatever its size.
__global__ void __launch_bounds__(threads) partial_sums(const float* in, unsigned long long n, float* sums) {
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * threads;
  float v = 0.0f;
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * threads + threadIdx.x; i < n; i += stride)
    v += in[i];
  v = block_sum(v);
  if (threadIdx.x == 0) sums[blockIdx.x] = v;
}

}  // namespace
// END SOLUTION

extern "C" cudaError_t reduce_sum(const float* in, unsigned long long n, float* out, float* scratch,
                                  unsigned long long scratch_count, cudaStream_t stream) {
  // BEGIN SOLUTION
  // Pass 1: one wave of blocks (as many as the GPU keeps resident at once), so each thread sums many
  // elements in a register and the partials are few; no more blocks than elements or scratch.
  int device = 0, sms = 0, threads_per_sm = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device);
  if (e != cudaSuccess) return e;
  unsigned long long blocks = static_cast<unsigned long long>(sms) * (threads_per_sm / threads);
  if (blocks > (n + threads - 1) / threads) blocks = (n + threads - 1) / threads;
  if (blocks > scratch_count) blocks = scratch_count;
  if (blocks < 1) blocks = 1;
  partial_sums<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(in, n, scratch);
  // Pass 2: one block adds the partials into *out.
  partial_sums<<<1, threads, 0, stream>>>(scratch, blocks, out);
  return cudaGetLastError();
  // STARTER: return cudaSuccess;
  // END SOLUTION
}
