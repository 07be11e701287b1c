// Device code of the bank-conflict micro-lab (kernel nvcc-only) and the index math trace() shares with it.
#pragma once

#include <cstdint>

#include "cudalab/dispatch.hpp"
#include "cudalab/host_device.hpp"

namespace bank_conflicts {

/// The read widths in bytes the kernel is built for (one variant each); the launcher picks the
/// instance from this list.
using read_widths = cudalab::choices<4u, 8u, 16u>;

/// Elements in the shared buffer a block reads at `stride`: 32 lanes x stride, a multiple of 32, so
/// wrapping around it never changes which bank an element starts in.
CUDALAB_HD unsigned shared_elements(unsigned stride) { return 32u * stride; }

/// Element lane `lane` reads on its first step: lanes are `stride` elements apart.
CUDALAB_HD unsigned first_element(unsigned lane, unsigned stride) { return lane * stride; }

/// The element read on the next step: every lane moves on by one element (wrapping), which shifts
/// all lanes' banks alike and so keeps the conflict degree of the first step.
CUDALAB_HD unsigned next_element(unsigned element, unsigned elements) {
  return element + 1 == elements ? 0u : element + 1;
}

#if defined(__CUDACC__)

/// The word a read of `width_bytes` bytes loads.
template <unsigned width_bytes>
struct word_of;
template <>
struct word_of<4> {
  using type = unsigned;
};
template <>
struct word_of<8> {
  using type = uint2;
};
template <>
struct word_of<16> {
  using type = uint4;
};

__device__ __forceinline__ unsigned word_sum(unsigned v) { return v; }
__device__ __forceinline__ unsigned word_sum(uint2 v) { return v.x + v.y; }
__device__ __forceinline__ unsigned word_sum(uint4 v) { return v.x + v.y + v.z + v.w; }

/// Strided shared-memory reads: the block copies 32*stride elements of `word_t` (4, 8 or 16 bytes)
/// into shared memory, then each lane reads elements lane*stride, lane*stride+1, ... `iterations`
/// times and sums their words. With 4-byte words a warp's read hits gcd(stride, 32) words per bank:
/// a gcd(stride, 32)-way bank conflict. 8- and 16-byte reads are served in 2 or 4 phases of 16 or 8
/// lanes, each phase conflicting gcd(stride, 16)- or gcd(stride, 8)-way.
template <class word_t>
__global__ void strided_shared_read_kernel(const unsigned* __restrict__ d_words, unsigned* __restrict__ d_out,
                                           unsigned stride, unsigned iterations) {
  extern __shared__ uint4 shared_raw[];  // uint4: 16-byte alignment for the widest reads
  unsigned* words = reinterpret_cast<unsigned*>(shared_raw);
  const unsigned elements = shared_elements(stride);
  const unsigned n_words = elements * unsigned(sizeof(word_t) / sizeof(unsigned));
  for (unsigned w = threadIdx.x; w < n_words; w += blockDim.x) words[w] = d_words[w];
  __syncthreads();
  const word_t* element = reinterpret_cast<const word_t*>(shared_raw);
  unsigned e = first_element(threadIdx.x % 32u, stride);
  unsigned sum = 0;
  for (unsigned i = 0; i < iterations; ++i) {
    sum += word_sum(element[e]);
    e = next_element(e, elements);
  }
  d_out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

#endif  // __CUDACC__

}  // namespace bank_conflicts
