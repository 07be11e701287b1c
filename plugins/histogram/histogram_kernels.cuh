// Device code of the histogram lab (kernels nvcc-only), and what trace() shares with it: the input and the grid.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "cudalab/host_device.hpp"
#include "cudalab/random.hpp"

namespace histogram {

/// Lanes in a warp.
constexpr unsigned warp_size = 32;

/// How the input's values are spread over the bins.
enum class distribution {
  uniform,  ///< every value uniform in [0, bins): lanes scatter over the bins, rarely on one word
  skewed,   ///< a fraction `hot_fraction` of the values in bin 0, the rest uniform: lanes pile on one word
  cyclic,   ///< value i is i mod bins: a warp's lanes on consecutive bins, no two alike when bins >= 32
};

/// The lab's input, value i of n: a bin index in [0, bins), a pure function of (seed, i), the same on
/// the host and the device. The GPU fills the input with it, verify() counts the reference with it and
/// trace() gives the model the lanes' bins with it, so all three see the same values.
struct input_values {
  cudalab::random_stream stream;
  std::uint32_t bins = 1;
  /// skewed: value i is hot (bin 0) when the top 24 bits of its random word are below this;
  /// round(hot_fraction * 2^24), so 0 is never and 2^24 always.
  std::uint32_t hot_below = 0;
  distribution shape = distribution::uniform;

  CUDALAB_HD std::uint32_t operator()(std::uint64_t i) const {
    if (shape == distribution::cyclic) return static_cast<std::uint32_t>(i % bins);
    const std::uint64_t word = stream.bits(i);
    if (shape == distribution::skewed && (word >> 40) < hot_below) return 0;
    // The low 32 bits, scaled to [0, bins) by multiply-shift (independent of the top 24 the coin used).
    return static_cast<std::uint32_t>(((word & 0xffffffffull) * bins) >> 32);
  }
};

/// The number the skewed distribution compares a value's top 24 random bits with.
/// REQUIRES: 0 <= hot_fraction <= 1.
inline std::uint32_t hot_threshold(double hot_fraction) {
  return static_cast<std::uint32_t>(std::lround(hot_fraction * double(1u << 24)));
}

/// Blocks every hand-written kernel launches for n values at `block` threads: one wave of resident
/// blocks (sm_count x max_threads_per_sm / block), fewer when n needs fewer, at least one. The run
/// (from the GPU's properties) and trace() (from ctx.device) both size the grid with it, so the model
/// traces the grid the GPU runs. The kernels loop grid-stride, so any grid is correct.
inline unsigned grid_blocks(std::uint64_t n, unsigned block, int sm_count, int max_threads_per_sm) {
  const std::uint64_t per_sm = std::max<std::uint64_t>(1, std::uint64_t(std::max(0, max_threads_per_sm)) / block);
  const std::uint64_t wave = std::uint64_t(std::max(1, sm_count)) * per_sm;
  const std::uint64_t needed = (n + block - 1) / block;
  return static_cast<unsigned>(std::max<std::uint64_t>(1, std::min(wave, needed)));
}

/// Values shared_vectorized counts one by one before its first 16-byte aligned uint4: those of an array
/// at byte `address` (4-byte aligned) below its first 16-byte boundary, at most n. 0 at offset 0 (the
/// input's allocation is 256-byte aligned), so trace() models no head.
CUDALAB_HD std::uint64_t vector_head(std::uint64_t address, std::uint64_t n) {
  const std::uint64_t head = ((16 - address % 16) % 16) / 4;
  return head < n ? head : n;
}

#if defined(__CUDACC__)

/// Global atomics: every thread adds 1 to counts[v] for each of its values, straight to global memory
/// (a `red` instruction: the result is not used). Lanes of a warp whose values share a bin hit one word,
/// and the memory system serves them one after another: contention.
__global__ void histogram_global_atomics_kernel(const std::uint32_t* __restrict__ d_values, std::uint64_t n,
                                                std::uint32_t* __restrict__ d_counts) {
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x)
    atomicAdd(&d_counts[d_values[i]], 1u);
}

/// The privatized kernels' first step: the block's threads zero its shared histogram of `bins` words
/// block-stride (the trace's trace_shared_zeroing), and wait for one another.
__device__ inline void zero_block_histogram(std::uint32_t* block_counts, unsigned bins) {
  for (unsigned j = threadIdx.x; j < bins; j += blockDim.x) block_counts[j] = 0;
  __syncthreads();
}

/// The privatized kernels' last step: once every thread has counted, each bin the block counted anything
/// in is added to the global histogram with one atomic, block-stride (the trace's trace_flush).
__device__ inline void flush_block_histogram(const std::uint32_t* block_counts, unsigned bins,
                                             std::uint32_t* __restrict__ d_counts) {
  __syncthreads();
  for (unsigned j = threadIdx.x; j < bins; j += blockDim.x) {
    const std::uint32_t count = block_counts[j];
    if (count != 0) atomicAdd(&d_counts[j], count);
  }
}

/// Privatized in shared memory: each block counts its values into a histogram of its own in shared
/// memory (shared atomics: contention costs bank wavefronts, not trips to L2), then adds each bin it
/// counted anything in to the global histogram with one atomic. REQUIRES: dynamic shared memory of
/// bins words.
__global__ void histogram_shared_privatized_kernel(const std::uint32_t* __restrict__ d_values, std::uint64_t n,
                                                   std::uint32_t* __restrict__ d_counts, unsigned bins) {
  extern __shared__ std::uint32_t block_counts[];
  zero_block_histogram(block_counts, bins);
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x)
    atomicAdd(&block_counts[d_values[i]], 1u);
  flush_block_histogram(block_counts, bins, d_counts);
}

/// shared_privatized with 16-byte loads: after the head (vector_head: values before the first 16-byte
/// boundary) each thread loads 4 values as one uint4 per grid-stride step and does their 4 shared
/// atomics, so a thread has 16 bytes in flight per load instead of 4. The head and the tail (n - head)
/// % 4 (at most 6 values) are counted one by one by threads 0.. of the grid (block 0, warp 0), after the
/// loop. REQUIRES: dynamic shared memory of bins words; d_values 4-byte aligned.
__global__ void histogram_shared_vectorized_kernel(const std::uint32_t* __restrict__ d_values, std::uint64_t n,
                                                   std::uint32_t* __restrict__ d_counts, unsigned bins) {
  extern __shared__ std::uint32_t block_counts[];
  zero_block_histogram(block_counts, bins);
  const std::uint64_t head = vector_head(reinterpret_cast<std::uintptr_t>(d_values), n);
  const std::uint64_t quads = (n - head) / 4;
  const uint4* __restrict__ d_quads = reinterpret_cast<const uint4*>(d_values + head);
  const std::uint64_t thread = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (std::uint64_t q = thread; q < quads; q += std::uint64_t(gridDim.x) * blockDim.x) {
    const uint4 v = d_quads[q];
    atomicAdd(&block_counts[v.x], 1u);
    atomicAdd(&block_counts[v.y], 1u);
    atomicAdd(&block_counts[v.z], 1u);
    atomicAdd(&block_counts[v.w], 1u);
  }
  // The leftovers: thread t < head counts value t, thread head + t counts tail value t.
  const std::uint64_t tail_first = head + 4 * quads;
  if (thread < head + (n - tail_first))
    atomicAdd(&block_counts[d_values[thread < head ? thread : tail_first + (thread - head)]], 1u);
  flush_block_histogram(block_counts, bins, d_counts);
}

/// Warp-aggregated global atomics: the lanes of a warp step that hold the same bin find each other
/// with __match_any_sync (sm_70 and later), and only the lowest of them adds their number, so a warp
/// sends one atomic per distinct bin instead of one per lane. The loop is warp-uniform (every lane
/// steps together, those past n idle), as __match_any_sync needs the mask of the lanes taking part.
/// REQUIRES: blockDim.x a multiple of 32.
__global__ void histogram_warp_aggregated_kernel(const std::uint32_t* __restrict__ d_values, std::uint64_t n,
                                                 std::uint32_t* __restrict__ d_counts) {
  const unsigned lane = threadIdx.x % warp_size;
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t first = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x - lane; first < n; first += stride) {
    const std::uint64_t i = first + lane;
    const unsigned working = __ballot_sync(0xffffffffu, i < n);
    if (i < n) {
      const std::uint32_t v = d_values[i];
      const unsigned same = __match_any_sync(working, v);
      if (lane == unsigned(__ffs(same)) - 1) atomicAdd(&d_counts[v], unsigned(__popc(same)));
    }
  }
}

#endif  // __CUDACC__

}  // namespace histogram
