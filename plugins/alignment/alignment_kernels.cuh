// Device code of the alignment lab (kernels nvcc-only) and the index math its trace() shares with them.
#pragma once

#include <cstdint>

#include "cudalab/dispatch.hpp"
#include "cudalab/host_device.hpp"

namespace alignment {

/// The unroll factors the kernels are built for: the `unroll` parameter accepts these, and the
/// launchers pick the kernel instance from the same list.
using unrolls = cudalab::choices<1, 2, 4>;

// ---- Index math shared by the kernels (nvcc) and trace() (g++) ------------------------------------

/// Elements the offset variants move: those i with i + offset < n (none when offset >= n).
CUDALAB_HD std::uint64_t offset_count(std::uint64_t n, std::uint64_t offset) { return offset < n ? n - offset : 0; }

/// Elements the strided variant moves: one per stride, ceil(n / stride).
/// REQUIRES: stride >= 1.
CUDALAB_HD std::uint64_t strided_count(std::uint64_t n, std::uint64_t stride) { return (n + stride - 1) / stride; }

/// Item handled by step k (0 <= k < unroll) of thread `thread` in block `block`. A block owns
/// block_dim * unroll consecutive items; at each step its threads touch block_dim consecutive items,
/// so every step is a coalesced warp access and the `unroll` steps of a thread are independent.
CUDALAB_HD std::uint64_t unrolled_index(std::uint64_t block, std::uint64_t block_dim, std::uint64_t thread,
                                        std::uint64_t k, std::uint64_t unroll) {
  return (block * unroll + k) * block_dim + thread;
}

/// Blocks a one-pass launch needs so that block_dim * unroll items per block cover `items`.
CUDALAB_HD std::uint64_t blocks_for(std::uint64_t items, std::uint64_t block_dim, std::uint64_t unroll) {
  return (items + block_dim * unroll - 1) / (block_dim * unroll);
}

/// Misaligned read: thread item i reads element i + offset and writes element i.
CUDALAB_HD std::uint64_t offset_read_source(std::uint64_t i, std::uint64_t offset) { return i + offset; }
/// Misaligned write: thread item i reads element i and writes element i + offset.
CUDALAB_HD std::uint64_t offset_write_target(std::uint64_t i, std::uint64_t offset) { return i + offset; }
/// Offset copy: thread item i reads and writes element i + offset (both sides misaligned).
CUDALAB_HD std::uint64_t offset_copy_element(std::uint64_t i, std::uint64_t offset) { return i + offset; }
/// Strided read: thread item i reads element i * stride and writes element i.
CUDALAB_HD std::uint64_t strided_source(std::uint64_t i, std::uint64_t stride) { return i * stride; }

/// Vector index handled by a grid-stride thread `global_thread` at iteration `iteration`.
CUDALAB_HD std::uint64_t grid_stride_index(std::uint64_t global_thread, std::uint64_t iteration,
                                           std::uint64_t grid_threads) {
  return global_thread + iteration * grid_threads;
}

#if defined(__CUDACC__)

// ---- Cache operators: how a load (or store) travels through L1/L2 ---------------------------------

/// Plain load: the compiler's default path (ld.global, cached in L1 and L2 on sm_90).
struct load_default {
  template <class T>
  static __device__ __forceinline__ T load(const T* p) {
    return *p;
  }
};
/// __ldg: through the read-only (non-coherent texture) path, ld.global.nc.
struct load_ldg {
  template <class T>
  static __device__ __forceinline__ T load(const T* p) {
    return __ldg(p);
  }
};
/// __ldca: cache at all levels (the course chapter's -Xptxas -dlcm=ca compiler flag), ld.global.ca.
struct load_ldca {
  template <class T>
  static __device__ __forceinline__ T load(const T* p) {
    return __ldca(p);
  }
};
/// __ldcg: cache in L2 only, bypass L1 (the course chapter's -Xptxas -dlcm=cg flag), ld.global.cg.
struct load_ldcg {
  template <class T>
  static __device__ __forceinline__ T load(const T* p) {
    return __ldcg(p);
  }
};
/// __ldcs: streaming, likely read once (evict-first), ld.global.cs.
struct load_ldcs {
  template <class T>
  static __device__ __forceinline__ T load(const T* p) {
    return __ldcs(p);
  }
};

/// Plain loads and stores.
struct plain_access {
  template <class T>
  static __device__ __forceinline__ T load(const T* p) {
    return *p;
  }
  template <class T>
  static __device__ __forceinline__ void store(T* p, const T& v) {
    *p = v;
  }
};
/// Streaming loads and stores (ld.global.cs / st.global.cs): each byte is touched once, so ask the
/// caches to evict it first instead of keeping it.
struct streaming_access {
  template <class T>
  static __device__ __forceinline__ T load(const T* p) {
    return __ldcs(p);
  }
  template <class T>
  static __device__ __forceinline__ void store(T* p, const T& v) {
    __stcs(p, v);
  }
};

// ---- Kernels ---------------------------------------------------------------------------------------
// The pointers are deliberately not __restrict__: with it the compiler may turn plain loads into
// read-only (ld.global.nc) loads, and the "default" cache operator would no longer be the default.

/// Misaligned read: out[i] = in[i + offset] for i < count. The loads of a warp start `offset`
/// elements past a 128-byte boundary (5 sectors instead of 4 unless offset is a multiple of 8);
/// the stores stay aligned. `Load` picks the cache operator; each thread issues `Unroll`
/// independent loads before its stores (memory-level parallelism, as in the course chapter's unrolled sum).
template <class Load, int Unroll>
__global__ void offset_read_kernel(const float* d_in, float* d_out, std::uint64_t count, std::uint64_t offset) {
  float v[Unroll];
#pragma unroll
  for (int k = 0; k < Unroll; ++k) {
    const std::uint64_t i = unrolled_index(blockIdx.x, blockDim.x, threadIdx.x, k, Unroll);
    if (i < count) v[k] = Load::load(d_in + offset_read_source(i, offset));
  }
#pragma unroll
  for (int k = 0; k < Unroll; ++k) {
    const std::uint64_t i = unrolled_index(blockIdx.x, blockDim.x, threadIdx.x, k, Unroll);
    if (i < count) d_out[i] = v[k];
  }
}

/// Misaligned write: out[i + offset] = in[i] for i < count. Aligned loads, stores shifted by
/// `offset` elements (5 sectors per store request unless offset is a multiple of 8).
template <int Unroll>
__global__ void offset_write_kernel(const float* d_in, float* d_out, std::uint64_t count, std::uint64_t offset) {
  float v[Unroll];
#pragma unroll
  for (int k = 0; k < Unroll; ++k) {
    const std::uint64_t i = unrolled_index(blockIdx.x, blockDim.x, threadIdx.x, k, Unroll);
    if (i < count) v[k] = d_in[i];
  }
#pragma unroll
  for (int k = 0; k < Unroll; ++k) {
    const std::uint64_t i = unrolled_index(blockIdx.x, blockDim.x, threadIdx.x, k, Unroll);
    if (i < count) d_out[offset_write_target(i, offset)] = v[k];
  }
}

/// Offset copy (the CUDA guide's offsetCopy): out[i + offset] = in[i + offset] for i < count. Both
/// the loads and the stores of a warp are shifted off the 128-byte boundary.
template <int Unroll>
__global__ void offset_copy_kernel(const float* d_in, float* d_out, std::uint64_t count, std::uint64_t offset) {
  float v[Unroll];
#pragma unroll
  for (int k = 0; k < Unroll; ++k) {
    const std::uint64_t i = unrolled_index(blockIdx.x, blockDim.x, threadIdx.x, k, Unroll);
    if (i < count) v[k] = d_in[offset_copy_element(i, offset)];
  }
#pragma unroll
  for (int k = 0; k < Unroll; ++k) {
    const std::uint64_t i = unrolled_index(blockIdx.x, blockDim.x, threadIdx.x, k, Unroll);
    if (i < count) d_out[offset_copy_element(i, offset)] = v[k];
  }
}

/// Strided read: out[i] = in[i * stride] for i < count. Neighbouring lanes read elements
/// stride * 4 bytes apart, so a warp's load touches up to 32 sectors for 128 useful bytes; the
/// stores are compact and coalesced.
template <int Unroll>
__global__ void strided_read_kernel(const float* d_in, float* d_out, std::uint64_t count, std::uint64_t stride) {
  float v[Unroll];
#pragma unroll
  for (int k = 0; k < Unroll; ++k) {
    const std::uint64_t i = unrolled_index(blockIdx.x, blockDim.x, threadIdx.x, k, Unroll);
    if (i < count) v[k] = d_in[strided_source(i, stride)];
  }
#pragma unroll
  for (int k = 0; k < Unroll; ++k) {
    const std::uint64_t i = unrolled_index(blockIdx.x, blockDim.x, threadIdx.x, k, Unroll);
    if (i < count) d_out[i] = v[k];
  }
}

/// Copies the `tail` (< 4) floats left after the last whole vector; block 0 does it.
__device__ __forceinline__ void copy_scalar_tail(const float* d_in, float* d_out, std::uint64_t first,
                                                 std::uint64_t tail) {
  if (blockIdx.x == 0 && threadIdx.x < tail) d_out[first + threadIdx.x] = d_in[first + threadIdx.x];
}

/// Aligned vector copy: each lane moves one `Vec` (float, float2 or float4: 4, 8 or 16 bytes) per
/// step, so a warp request covers 128, 256 or 512 contiguous aligned bytes (4, 8 or 16 sectors,
/// all useful) and a thread needs 1/2 or 1/4 as many instructions. `Unroll` independent vectors
/// per thread. The floats after the last whole vector are copied one by one.
template <class Vec, int Unroll>
__global__ void vector_copy_kernel(const float* d_in, float* d_out, std::uint64_t n) {
  constexpr std::uint64_t width = sizeof(Vec) / sizeof(float);
  const std::uint64_t vectors = n / width;
  const Vec* in = reinterpret_cast<const Vec*>(d_in);
  Vec* out = reinterpret_cast<Vec*>(d_out);
  Vec v[Unroll];
#pragma unroll
  for (int k = 0; k < Unroll; ++k) {
    const std::uint64_t i = unrolled_index(blockIdx.x, blockDim.x, threadIdx.x, k, Unroll);
    if (i < vectors) v[k] = in[i];
  }
#pragma unroll
  for (int k = 0; k < Unroll; ++k) {
    const std::uint64_t i = unrolled_index(blockIdx.x, blockDim.x, threadIdx.x, k, Unroll);
    if (i < vectors) out[i] = v[k];
  }
  copy_scalar_tail(d_in, d_out, vectors * width, n - vectors * width);
}

/// Grid-stride float4 copy: a grid sized to the GPU (a few blocks per SM) walks the whole array,
/// each warp moving 512 contiguous aligned bytes per step. Each pass of the loop issues `Unroll`
/// independent loads (steps it*Unroll .. it*Unroll+Unroll-1) before their stores, so a thread keeps
/// more bytes in flight. `Access` chooses plain or streaming (evict-first) loads and stores.
template <class Access, int Unroll>
__global__ void grid_stride_copy_kernel(const float* d_in, float* d_out, std::uint64_t n) {
  const std::uint64_t vectors = n / 4;
  const float4* in = reinterpret_cast<const float4*>(d_in);
  float4* out = reinterpret_cast<float4*>(d_out);
  const std::uint64_t first = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint64_t grid_threads = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t it = 0; grid_stride_index(first, it * Unroll, grid_threads) < vectors; ++it) {
    float4 v[Unroll];
#pragma unroll
    for (int k = 0; k < Unroll; ++k) {
      const std::uint64_t i = grid_stride_index(first, it * Unroll + k, grid_threads);
      if (i < vectors) v[k] = Access::load(in + i);
    }
#pragma unroll
    for (int k = 0; k < Unroll; ++k) {
      const std::uint64_t i = grid_stride_index(first, it * Unroll + k, grid_threads);
      if (i < vectors) Access::store(out + i, v[k]);
    }
  }
  copy_scalar_tail(d_in, d_out, vectors * 4, n - vectors * 4);
}

#endif  // __CUDACC__

}  // namespace alignment
