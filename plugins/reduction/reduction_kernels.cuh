// Device code of the reduction lab: nine sum kernels from the textbook tree to a single-pass float4 kernel, with the
// index math shared with trace().
#pragma once

#include <cstdint>

#include "cudalab/dispatch.hpp"
#include "cudalab/host_device.hpp"

namespace reduction {

/// The hand-written kernels, in the order of the classic progression.
enum class kernel {
  interleaved_divergent,  ///< 1: tid % (2s) == 0 picks the adders: divergent warps, a modulo per step
  interleaved_strided,    ///< 2: thread tid adds at 2*s*tid: no divergence, bank conflicts
  sequential,             ///< 3: tid < s adds tid + s: contiguous active threads, no conflicts
  first_add,              ///< 4: each thread adds two elements while loading: half the blocks
  unroll_last_warp,       ///< 5: the last six steps done by one warp without __syncthreads
  unroll_complete,        ///< 6: every step unrolled for a compile-time block size
  grid_stride,            ///< 7: a fixed grid, each thread sums many elements in a grid-stride loop
  warp_shuffle,           ///< 8: grid-stride loop, __shfl_down_sync in registers, one shared stage
  vector_single_pass,     ///< 9: 16-byte loads, shuffles, one launch finished by the last block
};

/// The block sizes the lab runs at: powers of two from 64, as the unrolled trees need. The `block`
/// parameter accepts these, and kernels 6 and 7 are built for each (the launcher picks the instance).
using block_sizes = cudalab::choices<64u, 128u, 256u, 512u, 1024u>;

/// Threads in a warp.
inline constexpr unsigned warp_size = 32;
/// Independent 16-byte loads each thread of the vector kernel keeps in flight per loop trip.
inline constexpr unsigned vector_unroll = 4;
/// Elements in one 16-byte vector of a 4-byte type.
inline constexpr unsigned vector_width = 4;

/// Elements each thread reads in a tree kernel's load phase (1, or 2 with the first add).
CUDALAB_HD unsigned loads_per_thread(kernel k) {
  return k == kernel::interleaved_divergent || k == kernel::interleaved_strided || k == kernel::sequential ? 1u : 2u;
}

/// True for the kernels whose grid is fixed (a wave of resident blocks) and whose threads loop.
CUDALAB_HD bool is_grid_stride(kernel k) {
  return k == kernel::grid_stride || k == kernel::warp_shuffle || k == kernel::vector_single_pass;
}

/// Element thread `tid` of block `block` loads in a tree kernel; load `j` (0 or 1) is one block
/// further on, so both loads of a warp are contiguous.
CUDALAB_HD std::uint64_t tree_load_index(std::uint64_t block, unsigned block_dim, unsigned tid, unsigned per_thread,
                                         unsigned j) {
  return block * block_dim * per_thread + std::uint64_t(j) * block_dim + tid;
}

/// First element of thread `tid` in a grid-stride loop; the stride is grid * block_dim.
CUDALAB_HD std::uint64_t grid_stride_start(std::uint64_t block, unsigned block_dim, unsigned tid) {
  return block * block_dim + tid;
}

/// Kernel 1: does thread `tid` add at step `s` (the original course chapter's test, with its slow modulo)?
CUDALAB_HD bool divergent_adds(unsigned tid, unsigned s) { return tid % (2 * s) == 0; }

/// Kernel 2: the shared word thread `tid` adds into at step `s` (it adds word + s); valid while < block_dim.
CUDALAB_HD unsigned strided_word(unsigned tid, unsigned s) { return 2 * s * tid; }

/// Elements at or below which a grid-stride pass runs as one block (each thread then loops at
/// most 32 times): the finishing pass over the partials of a wave is always a single block.
CUDALAB_HD std::uint64_t single_block_elements(unsigned block_dim) { return std::uint64_t(32) * block_dim; }

/// Blocks a pass of kernel `k` launches over `count` elements: one block per block_dim *
/// loads_per_thread elements for the tree kernels; for the grid-stride ones enough blocks to give
/// every thread work (a 16-byte vector for kernel 9), at most `wave_blocks`, and one block for
/// counts up to single_block_elements. Always at least 1.
CUDALAB_HD std::uint64_t pass_blocks(kernel k, std::uint64_t count, unsigned block_dim, std::uint64_t wave_blocks) {
  if (!is_grid_stride(k)) {
    const std::uint64_t per_block = std::uint64_t(block_dim) * loads_per_thread(k);
    const std::uint64_t b = (count + per_block - 1) / per_block;
    return b > 0 ? b : 1;
  }
  if (count <= single_block_elements(block_dim)) return 1;
  const std::uint64_t work = k == kernel::vector_single_pass ? count / vector_width : count;
  std::uint64_t b = (work + block_dim - 1) / block_dim;
  if (b > wave_blocks) b = wave_blocks;
  return b > 0 ? b : 1;
}

#if defined(__CUDACC__)

namespace detail {

/// The block's shared array of block_dim partial sums (dynamic shared memory, sized by the launcher).
template <class T>
__device__ T* shared_partials() {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  return reinterpret_cast<T*>(shared_bytes);
}

/// Last six steps on the shared array by warp 0 alone (strides 32..1). No __syncthreads is needed
/// inside one warp, but since Volta its lanes may drift apart, so each read and write is fenced
/// with __syncwarp (the old `volatile` trick alone is no longer enough). REQUIRES: tid < 32, and
/// 64 valid words.
template <class T>
__device__ void warp_reduce_shared(T* sdata, unsigned tid) {
  T v = sdata[tid] + sdata[tid + 32];
#pragma unroll
  for (unsigned s = 16; s > 0; s >>= 1) {
    __syncwarp();
    sdata[tid] = v;
    __syncwarp();
    v += sdata[tid + s];
  }
  if (tid == 0) sdata[0] = v;
}

/// Sum of a value over the warp in registers: after five shuffles lane 0 holds the total.
template <class T>
__device__ T warp_reduce_shuffle(T v) {
#pragma unroll
  for (unsigned offset = warp_size / 2; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

/// Block-wide sum with shuffles and one shared stage: warps reduce in registers, lane 0 of each
/// parks its total in shared word `warp`, warp 0 reduces those. Result valid in thread 0.
/// REQUIRES: blockDim.x a multiple of 32, at most 1024; all threads call it.
template <class T>
__device__ T block_reduce_shuffle(T v) {
  __shared__ T warp_totals[warp_size];
  const unsigned lane = threadIdx.x % warp_size;
  const unsigned warp = threadIdx.x / warp_size;
  v = warp_reduce_shuffle(v);
  if (lane == 0) warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / warp_size ? warp_totals[lane] : T(0);
    v = warp_reduce_shuffle(v);
  }
  return v;
}

/// Complete unrolled tree on the shared array for a compile-time block size: the `if`s on
/// block_size vanish at compile time, and the last 64 words go to warp_reduce_shared.
template <class T, unsigned block_size>
__device__ void block_reduce_unrolled(T* sdata, unsigned tid) {
  if (block_size >= 1024) {
    if (tid < 512) sdata[tid] += sdata[tid + 512];
    __syncthreads();
  }
  if (block_size >= 512) {
    if (tid < 256) sdata[tid] += sdata[tid + 256];
    __syncthreads();
  }
  if (block_size >= 256) {
    if (tid < 128) sdata[tid] += sdata[tid + 128];
    __syncthreads();
  }
  if (block_size >= 128) {
    if (tid < 64) sdata[tid] += sdata[tid + 64];
    __syncthreads();
  }
  if (tid < 32) warp_reduce_shared(sdata, tid);
}

/// The 16-byte vector type of T and the sum of its four lanes.
template <class T>
struct vec4;
template <>
struct vec4<float> {
  using type = float4;
};
template <>
struct vec4<int> {
  using type = int4;
};

template <class V>
__device__ auto lane_sum(const V& v) -> decltype(v.x) {
  return (v.x + v.y) + (v.z + v.w);
}

}  // namespace detail

/// 1. Interleaved addressing, divergent: at step s only threads with tid % (2s) == 0 add, so every
/// warp stays busy for the active few of its lanes, and the modulo costs tens of cycles per step.
/// Shared accesses are contiguous per warp (no bank conflicts); global loads are coalesced.
template <class T>
__global__ void reduce_interleaved_divergent_kernel(const T* __restrict__ d_in, T* __restrict__ d_out,
                                                    std::uint64_t n) {
  T* sdata = detail::shared_partials<T>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = tree_load_index(blockIdx.x, blockDim.x, tid, 1, 0);
  sdata[tid] = i < n ? d_in[i] : T(0);
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (divergent_adds(tid, s)) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) d_out[blockIdx.x] = sdata[0];
}

/// 2. Interleaved addressing, strided index: thread tid works on word 2*s*tid, so the active threads
/// are the first ones (no divergence until fewer than 32 remain), but a warp's words are 2s apart:
/// 2-, 4-, ... up to 32-way shared-memory bank conflicts.
template <class T>
__global__ void reduce_interleaved_strided_kernel(const T* __restrict__ d_in, T* __restrict__ d_out, std::uint64_t n) {
  T* sdata = detail::shared_partials<T>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = tree_load_index(blockIdx.x, blockDim.x, tid, 1, 0);
  sdata[tid] = i < n ? d_in[i] : T(0);
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    const unsigned w = strided_word(tid, s);
    if (w < blockDim.x) sdata[w] += sdata[w + s];
    __syncthreads();
  }
  if (tid == 0) d_out[blockIdx.x] = sdata[0];
}

/// 3. Sequential addressing: at step s the first s threads add word tid + s into word tid, halving s
/// from blockDim/2. Active threads are contiguous and a warp reads 32 consecutive words: no bank
/// conflicts, no divergence until s < 32. Half the threads still idle from the first step on.
template <class T>
__global__ void reduce_sequential_kernel(const T* __restrict__ d_in, T* __restrict__ d_out, std::uint64_t n) {
  T* sdata = detail::shared_partials<T>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = tree_load_index(blockIdx.x, blockDim.x, tid, 1, 0);
  sdata[tid] = i < n ? d_in[i] : T(0);
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) d_out[blockIdx.x] = sdata[0];
}

/// 4. First add during load: each thread loads two elements a block apart (two coalesced loads)
/// and stores their sum, so half as many blocks do the same tree as kernel 3.
template <class T>
__global__ void reduce_first_add_kernel(const T* __restrict__ d_in, T* __restrict__ d_out, std::uint64_t n) {
  T* sdata = detail::shared_partials<T>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i0 = tree_load_index(blockIdx.x, blockDim.x, tid, 2, 0);
  const std::uint64_t i1 = tree_load_index(blockIdx.x, blockDim.x, tid, 2, 1);
  sdata[tid] = (i0 < n ? d_in[i0] : T(0)) + (i1 < n ? d_in[i1] : T(0));
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) d_out[blockIdx.x] = sdata[0];
}

/// 5. Last warp unrolled: as kernel 4 while s > 32, then warp 0 finishes the last six steps with
/// __syncwarp instead of block-wide barriers. REQUIRES: blockDim.x >= 64.
template <class T>
__global__ void reduce_unroll_last_warp_kernel(const T* __restrict__ d_in, T* __restrict__ d_out, std::uint64_t n) {
  T* sdata = detail::shared_partials<T>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i0 = tree_load_index(blockIdx.x, blockDim.x, tid, 2, 0);
  const std::uint64_t i1 = tree_load_index(blockIdx.x, blockDim.x, tid, 2, 1);
  sdata[tid] = (i0 < n ? d_in[i0] : T(0)) + (i1 < n ? d_in[i1] : T(0));
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) detail::warp_reduce_shared(sdata, tid);
  if (tid == 0) d_out[blockIdx.x] = sdata[0];
}

/// 6. Completely unrolled: the block size is a template parameter, so the loop of kernel 5 becomes
/// straight-line code with no loop counter or compare. Same accesses as kernel 5.
/// REQUIRES: blockDim.x == block_size, a power of two in [64, 1024].
template <class T, unsigned block_size>
__global__ void __launch_bounds__(block_size)
    reduce_unroll_complete_kernel(const T* __restrict__ d_in, T* __restrict__ d_out, std::uint64_t n) {
  T* sdata = detail::shared_partials<T>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i0 = tree_load_index(blockIdx.x, block_size, tid, 2, 0);
  const std::uint64_t i1 = tree_load_index(blockIdx.x, block_size, tid, 2, 1);
  sdata[tid] = (i0 < n ? d_in[i0] : T(0)) + (i1 < n ? d_in[i1] : T(0));
  __syncthreads();
  detail::block_reduce_unrolled<T, block_size>(sdata, tid);
  if (tid == 0) d_out[blockIdx.x] = sdata[0];
}

/// 7. Many elements per thread: a grid of one wave of resident blocks, each thread summing in a
/// register every grid-stride-th element (each trip a coalesced warp load), then the unrolled tree.
/// REQUIRES: blockDim.x == block_size, a power of two in [64, 1024].
template <class T, unsigned block_size>
__global__ void __launch_bounds__(block_size)
    reduce_grid_stride_kernel(const T* __restrict__ d_in, T* __restrict__ d_out, std::uint64_t n) {
  T* sdata = detail::shared_partials<T>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t stride = std::uint64_t(gridDim.x) * block_size;
  T sum = T(0);
  for (std::uint64_t i = grid_stride_start(blockIdx.x, block_size, tid); i < n; i += stride) sum += d_in[i];
  sdata[tid] = sum;
  __syncthreads();
  detail::block_reduce_unrolled<T, block_size>(sdata, tid);
  if (tid == 0) d_out[blockIdx.x] = sdata[0];
}

/// 8. Warp shuffle: the grid-stride loop of kernel 7, then each warp reduces in registers with
/// __shfl_down_sync and only 32 words go through shared memory (one stage, one barrier).
template <class T>
__global__ void reduce_warp_shuffle_kernel(const T* __restrict__ d_in, T* __restrict__ d_out, std::uint64_t n) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  T sum = T(0);
  for (std::uint64_t i = grid_stride_start(blockIdx.x, blockDim.x, threadIdx.x); i < n; i += stride) sum += d_in[i];
  sum = detail::block_reduce_shuffle(sum);
  if (threadIdx.x == 0) d_out[blockIdx.x] = sum;
}

/// 9. Vectorised single pass: grid-stride over 16-byte vectors (a warp load moves 512 contiguous
/// bytes, 16 sectors), `unroll` independent loads in flight per thread, each marked streaming
/// (__ldcs: evict-first, the data is read once; ~3% faster at 2^24 floats on the H100), shuffle reduction,
/// one partial per block; the last block to finish (counted with an atomic after a fence) sums the
/// partials and writes the result, so one launch does the whole reduction. The < 4 trailing
/// elements are read by the first threads. REQUIRES: d_in 16-byte aligned; *d_counter == 0 at
/// launch (the last block resets it); d_partials holds gridDim.x elements.
template <class T, unsigned unroll = vector_unroll>
__global__ void reduce_vector_single_pass_kernel(const T* __restrict__ d_in, T* __restrict__ d_partials,
                                                 unsigned* __restrict__ d_counter, T* __restrict__ d_result,
                                                 std::uint64_t n) {
  using V = typename detail::vec4<T>::type;
  const V* d_vec = reinterpret_cast<const V*>(d_in);
  const std::uint64_t vectors = n / vector_width;
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  std::uint64_t i = grid_stride_start(blockIdx.x, blockDim.x, threadIdx.x);
  T sum = T(0);
  for (; i + (unroll - 1) * stride < vectors; i += unroll * stride) {
    V v[unroll];
#pragma unroll
    for (unsigned u = 0; u < unroll; ++u) v[u] = __ldcs(d_vec + i + u * stride);
#pragma unroll
    for (unsigned u = 0; u < unroll; ++u) sum += detail::lane_sum(v[u]);
  }
  for (; i < vectors; i += stride) sum += detail::lane_sum(__ldcs(d_vec + i));
  const std::uint64_t tail = vectors * vector_width + grid_stride_start(blockIdx.x, blockDim.x, threadIdx.x);
  if (tail < n) sum += d_in[tail];

  sum = detail::block_reduce_shuffle(sum);
  __shared__ bool last_block;
  if (threadIdx.x == 0) {
    d_partials[blockIdx.x] = sum;
    __threadfence();  // the partial is visible device-wide before the ticket is taken
    last_block = atomicAdd(d_counter, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last_block) return;
  // Every other block's partial is written; read them from L2 (__ldcg), not a stale L1 line.
  T total = T(0);
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) total += __ldcg(d_partials + b);
  total = detail::block_reduce_shuffle(total);
  if (threadIdx.x == 0) {
    *d_result = total;
    *d_counter = 0;  // ready for the next launch
  }
}

#endif  // __CUDACC__

}  // namespace reduction
