// Device code of the aos_soa lab (kernels nvcc-only) and the record layouts and index math trace() shares with them.
#pragma once

#include <cstdint>

#include "cudalab/dispatch.hpp"
#include "cudalab/host_device.hpp"

namespace aos_soa {

/// Most fields a record of this lab has (a record of 8 floats is one 32-byte sector).
inline constexpr int max_fields = 8;

/// Elements of one field array a thread of the SoA kernels handles: 4 floats are one 16-byte
/// vector load (4 doubles are two).
inline constexpr unsigned soa_group = 4;

/// A record of F floats with the alignment of a float (4 bytes): a 12-byte float3-like struct for
/// F = 3. The compiler must load it field by field, one 4-byte load per field.
template <int F>
struct float_record {
  float f[F];
};

/// A record whose fields differ in size: 4 bytes of padding after `a` and after `c` keep `b` and
/// the next record's `b` on 8-byte boundaries, so 24 bytes carry 16 bytes of data.
struct mixed_record {
  float a;
  double b;
  float c;
};

/// Where the fields of a record lie: count, byte offset and size of field k (4 or 8).
template <class S>
struct record_traits;

template <int F>
struct record_traits<float_record<F>> {
  static constexpr int fields = F;
  CUDALAB_HD static constexpr unsigned offset(int k) { return 4u * unsigned(k); }
  CUDALAB_HD static constexpr unsigned size(int) { return 4u; }
};

template <>
struct record_traits<mixed_record> {
  static constexpr int fields = 3;
  CUDALAB_HD static constexpr unsigned offset(int k) { return k == 0 ? 0u : k == 1 ? 8u : 16u; }
  CUDALAB_HD static constexpr unsigned size(int k) { return k == 1 ? 8u : 4u; }
};

/// Alignment that lets one vector instruction move a record (or a 16-byte piece of it): the size
/// rounded up to a power of two, at most 16 (the widest load, LDG.128).
template <class S>
constexpr unsigned vector_alignment() {
  return sizeof(S) <= 4 ? 4u : sizeof(S) <= 8 ? 8u : 16u;
}

/// The same record declared with CUDA's __align__(8/16) (spelled alignas here so g++ reads it too):
/// padded up to a multiple of its alignment (float3-like 12 -> 16 bytes, mixed 24 -> 32), so every
/// record starts on a vector boundary and is loaded with 16-byte (or 8-byte) vector instructions.
template <class S>
struct alignas(vector_alignment<S>()) aligned_record {
  S s;
};

/// 4-byte words in a record (every record here is a whole number of words).
template <class S>
constexpr unsigned record_words() {
  return unsigned(sizeof(S) / 4);
}

/// True if no field of S covers 4-byte word j of the record (padding).
template <class S>
CUDALAB_HD constexpr bool padding_word(unsigned j) {
  for (int k = 0; k < record_traits<S>::fields; ++k)
    if (4 * j >= record_traits<S>::offset(k) && 4 * j < record_traits<S>::offset(k) + record_traits<S>::size(k))
      return false;
  return true;
}

/// The record shape a run uses, as the parameters give it.
struct record_shape {
  bool mixed = false;  ///< mixed_record; otherwise float_record<fields>
  int fields = 2;      ///< REQUIRES: 1..max_fields, 3 when mixed
};

/// A type tag, so generic lambdas can receive a record type.
template <class S>
struct record_tag {
  using type = S;
};

/// The float record widths the kernels are built for (fields = 1..max_fields).
using float_widths = cudalab::choices<1, 2, 3, 4, 5, 6, 7, 8>;

/// Calls f(record_tag<S>{}) with the record type the shape names and returns what it returns.
/// REQUIRES: shape.fields is 3 when shape.mixed (the lab's check_params sees to it).
template <class F>
decltype(auto) with_record(record_shape shape, F&& f) {
  if (shape.mixed) return f(record_tag<mixed_record>{});
  return cudalab::dispatch(float_widths{}, shape.fields, "fields",
                           [&](auto width) { return f(record_tag<float_record<decltype(width)::value>>{}); });
}

/// The field arrays of a struct-of-arrays: field k of element i is at field[k] + i * size(k).
struct soa_arrays {
  void* field[max_fields] = {};
};
/// Read-only view of soa_arrays.
struct soa_const_arrays {
  const void* field[max_fields] = {};
};

/// The update every variant applies to a field value; exact in float and double (2v is exact), so
/// the reference (expected_word) matches the kernels bit for bit with or without a fused multiply-add.
template <class T>
CUDALAB_HD T updated(T v) {
  return v * T(2) + T(1);
}

/// Element (record) a thread of the one-record-per-thread kernels handles.
CUDALAB_HD std::uint64_t thread_element(std::uint64_t block, std::uint64_t block_dim, std::uint64_t thread) {
  return block * block_dim + thread;
}

/// First element of the v-th 16-byte vector (of `per_vector` elements) that thread `thread` of an SoA
/// kernel moves: the thread's warp owns 32 * soa_group consecutive elements, and vector v of lane l is
/// the warp's (32 v + l)-th vector, so each instruction of the warp covers 512 consecutive bytes.
CUDALAB_HD std::uint64_t soa_vector_first(std::uint64_t thread, unsigned v, unsigned per_vector) {
  const std::uint64_t lane = thread % 32u;
  return (thread - lane) * soa_group + (32u * v + lane) * per_vector;
}

/// Largest power of two dividing `words`, at most 32: records of this many words, read one field per
/// lane, put that many lanes on each shared-memory bank.
CUDALAB_HD unsigned bank_repeat(unsigned words) {
  const unsigned low = words & (~words + 1u);
  return low == 0 || low > 32u ? 32u : low;
}

/// Shared-memory slot of word w of a block's tile of records of `words` words. Within each row of 32
/// words the column is XORed with the row number modulo bank_repeat(words): a row copied in from
/// global memory stays conflict-free (a permutation of its banks), and the 32 lanes reading the same
/// field of 32 consecutive records, which without the swizzle share bank_repeat(words) banks each,
/// land on 32 different banks.
CUDALAB_HD unsigned swizzled_word(unsigned w, unsigned words) {
  return (w & ~31u) | ((w & 31u) ^ ((w >> 5) & (bank_repeat(words) - 1u)));
}

/// Bytes of field k's array in the SoA layout, rounded up to 256 so the next array is aligned.
CUDALAB_HD std::uint64_t soa_array_bytes(std::uint64_t n, unsigned field_size) {
  return (n * field_size + 255u) / 256u * 256u;
}

#if defined(__CUDACC__)

namespace detail {

template <class T>
__device__ __forceinline__ const T* field_ptr(const void* record, unsigned offset) {
  return reinterpret_cast<const T*>(static_cast<const char*>(record) + offset);
}
template <class T>
__device__ __forceinline__ T* field_ptr(void* record, unsigned offset) {
  return reinterpret_cast<T*>(static_cast<char*>(record) + offset);
}

/// Updates field k of one record: one load and one store of the field's own width.
template <class S>
__device__ __forceinline__ void update_field(const S* d_in, S* d_out, std::uint64_t i, int k) {
  using traits = record_traits<S>;
  const unsigned off = traits::offset(k);
  if (traits::size(k) == 8)
    *field_ptr<double>(d_out + i, off) = updated(*field_ptr<double>(d_in + i, off));
  else
    *field_ptr<float>(d_out + i, off) = updated(*field_ptr<float>(d_in + i, off));
}

/// The 4-, 8- or 16-byte word an aligned record is moved in.
template <unsigned A>
struct vector_word;
template <>
struct vector_word<4> {
  using type = unsigned;
};
template <>
struct vector_word<8> {
  using type = uint2;
};
template <>
struct vector_word<16> {
  using type = uint4;
};

/// Updates the 16-byte vectors of one field array that thread `thread` owns: a warp owns 32 *
/// soa_group consecutive elements, and its v-th instruction moves the warp's v-th run of 32
/// consecutive 16-byte vectors (one per lane), so every instruction is fully coalesced whether the
/// elements are floats (one vector each of 4) or doubles (two vectors each of 2). Element by element
/// where a vector would run past n.
template <class T>
__device__ __forceinline__ void update_soa_vectors(const void* d_in, void* d_out, std::uint64_t thread,
                                                   std::uint64_t n) {
  constexpr unsigned per_vector = 16 / sizeof(T);
  const T* in = static_cast<const T*>(d_in);
  T* out = static_cast<T*>(d_out);
#pragma unroll
  for (unsigned v = 0; v < soa_group / per_vector; ++v) {
    const std::uint64_t first = soa_vector_first(thread, v, per_vector);
    if (first + per_vector <= n) {
      union {
        uint4 word;
        T value[per_vector];
      } u;
      u.word = *reinterpret_cast<const uint4*>(in + first);
#pragma unroll
      for (unsigned j = 0; j < per_vector; ++j) u.value[j] = updated(u.value[j]);
      *reinterpret_cast<uint4*>(out + first) = u.word;
    } else {
      for (std::uint64_t e = first; e < n && e < first + per_vector; ++e) out[e] = updated(in[e]);
    }
  }
}

template <class S>
__device__ __forceinline__ void update_soa_field(const soa_const_arrays& in, const soa_arrays& out, int k,
                                                 std::uint64_t thread, std::uint64_t n) {
  if (record_traits<S>::size(k) == 8)
    update_soa_vectors<double>(in.field[k], out.field[k], thread, n);
  else
    update_soa_vectors<float>(in.field[k], out.field[k], thread, n);
}

}  // namespace detail

/// Baseline: copies `bytes` bytes (a multiple of 4), one 16-byte word per thread; the thread at the
/// end copies the last 1-3 words one by one. Fully coalesced, the fastest plain copy of the records.
__global__ void record_copy_kernel(const unsigned* __restrict__ d_in, unsigned* __restrict__ d_out,
                                   std::uint64_t bytes) {
  const std::uint64_t t = thread_element(blockIdx.x, blockDim.x, threadIdx.x);
  const std::uint64_t words = bytes / 4;
  if (4 * t + 4 <= words) {
    reinterpret_cast<uint4*>(d_out)[t] = reinterpret_cast<const uint4*>(d_in)[t];
  } else {
    for (std::uint64_t w = 4 * t; w < words; ++w) d_out[w] = d_in[w];
  }
}

/// AoS, every field: one record per thread, one load and one store per field. Each instruction's 32
/// lanes are sizeof(S) bytes apart, so a request touches sizeof(S)/4 times the sectors it uses; the
/// L1 (loads) and L2 (stores) merge the fields, so DRAM still sees each byte once.
template <class S>
__global__ void aos_update_all_kernel(const S* __restrict__ d_in, S* __restrict__ d_out, std::uint64_t n) {
  const std::uint64_t i = thread_element(blockIdx.x, blockDim.x, threadIdx.x);
  if (i >= n) return;
#pragma unroll
  for (int k = 0; k < record_traits<S>::fields; ++k) detail::update_field(d_in, d_out, i, k);
}

/// AoS of __align__(8/16) records, every field: each record moves in whole 8- or 16-byte vector loads
/// and stores (one for a float2- or float4-like record), consecutive lanes on consecutive records;
/// requests are fully used, but the padding bytes travel too.
template <class S>
__global__ void aos_update_all_aligned_kernel(const aligned_record<S>* __restrict__ d_in,
                                              aligned_record<S>* __restrict__ d_out, std::uint64_t n) {
  using A = aligned_record<S>;
  using word = typename detail::vector_word<alignof(A)>::type;
  constexpr unsigned words = sizeof(A) / sizeof(word);
  const std::uint64_t i = thread_element(blockIdx.x, blockDim.x, threadIdx.x);
  if (i >= n) return;
  union {
    A record;
    word w[words];
  } u;
#pragma unroll
  for (unsigned c = 0; c < words; ++c) u.w[c] = reinterpret_cast<const word*>(d_in + i)[c];
#pragma unroll
  for (int k = 0; k < record_traits<S>::fields; ++k) {
    const unsigned off = record_traits<S>::offset(k);
    if (record_traits<S>::size(k) == 8)
      *detail::field_ptr<double>(&u.record.s, off) = updated(*detail::field_ptr<double>(&u.record.s, off));
    else
      *detail::field_ptr<float>(&u.record.s, off) = updated(*detail::field_ptr<float>(&u.record.s, off));
  }
#pragma unroll
  for (unsigned c = 0; c < words; ++c) reinterpret_cast<word*>(d_out + i)[c] = u.w[c];
}

/// AoS, one field (the course chapter's res[i].a = ...): lanes touch 4 (or 8) bytes every sizeof(S) bytes, so
/// of each 32-byte sector moved only field_size / sizeof(S) is used: 50 % for two floats.
template <class S>
__global__ void aos_update_one_kernel(const S* __restrict__ d_in, S* __restrict__ d_out, std::uint64_t n, int field) {
  const std::uint64_t i = thread_element(blockIdx.x, blockDim.x, threadIdx.x);
  if (i < n) detail::update_field(d_in, d_out, i, field);
}

/// SoA, every field: each field is its own array; a thread updates soa_group elements of each array
/// with 16-byte vector loads and stores, consecutive lanes on consecutive 16-byte words.
template <class S>
__global__ void soa_update_all_kernel(soa_const_arrays d_in, soa_arrays d_out, std::uint64_t n) {
  const std::uint64_t thread = thread_element(blockIdx.x, blockDim.x, threadIdx.x);
#pragma unroll
  for (int k = 0; k < record_traits<S>::fields; ++k) detail::update_soa_field<S>(d_in, d_out, k, thread, n);
}

/// SoA, one field: only that field's array (of T, float or double) is read and written, every byte of
/// every sector used. It takes the array itself: indexing soa_arrays with a runtime field would copy
/// the whole parameter block to local memory in every thread.
template <class T>
__global__ void soa_update_one_kernel(const T* __restrict__ d_in, T* __restrict__ d_out, std::uint64_t n) {
  const std::uint64_t thread = thread_element(blockIdx.x, blockDim.x, threadIdx.x);
  detail::update_soa_vectors<T>(d_in, d_out, thread, n);
}

/// AoS -> SoA through shared memory: the block's blockDim.x records are read as consecutive 4-byte
/// words (coalesced), stored in a swizzled shared tile, and each thread then writes the fields of one
/// record to the field arrays (coalesced per field). Dynamic shared memory: blockDim.x * words * 4 bytes.
template <class S>
__global__ void aos_to_soa_kernel(const S* __restrict__ d_in, soa_arrays d_out, std::uint64_t n) {
  extern __shared__ unsigned tile_words[];
  constexpr unsigned words = unsigned(sizeof(S) / 4);  // record_words<S>(), usable on the device
  const std::uint64_t base = thread_element(blockIdx.x, blockDim.x, 0);
  const unsigned count = unsigned(n - base < blockDim.x ? n - base : blockDim.x);
  const unsigned* src = reinterpret_cast<const unsigned*>(d_in + base);
  for (unsigned w = threadIdx.x; w < count * words; w += blockDim.x) tile_words[swizzled_word(w, words)] = src[w];
  __syncthreads();
  const unsigned t = threadIdx.x;
  if (t >= count) return;
#pragma unroll
  for (int k = 0; k < record_traits<S>::fields; ++k) {
    const unsigned first_word = t * words + record_traits<S>::offset(k) / 4;
    if (record_traits<S>::size(k) == 8) {
      union {
        unsigned w[2];
        double d;
      } u;
      u.w[0] = tile_words[swizzled_word(first_word, words)];
      u.w[1] = tile_words[swizzled_word(first_word + 1, words)];
      static_cast<double*>(d_out.field[k])[base + t] = u.d;
    } else {
      static_cast<unsigned*>(d_out.field[k])[base + t] = tile_words[swizzled_word(first_word, words)];
    }
  }
}

/// SoA -> AoS through shared memory, the reverse: each thread reads one element of every field array
/// (coalesced per field) into the swizzled tile (padding words set to zero), then the block writes its
/// records out as consecutive 4-byte words (coalesced).
template <class S>
__global__ void soa_to_aos_kernel(soa_const_arrays d_in, S* __restrict__ d_out, std::uint64_t n) {
  extern __shared__ unsigned tile_words[];
  constexpr unsigned words = unsigned(sizeof(S) / 4);  // record_words<S>(), usable on the device
  const std::uint64_t base = thread_element(blockIdx.x, blockDim.x, 0);
  const unsigned count = unsigned(n - base < blockDim.x ? n - base : blockDim.x);
  const unsigned t = threadIdx.x;
  if (t < count) {
    // Padding words are zeroed, so the record image is fully defined.
#pragma unroll
    for (unsigned j = 0; j < words; ++j)
      if (padding_word<S>(j)) tile_words[swizzled_word(t * words + j, words)] = 0u;
#pragma unroll
    for (int k = 0; k < record_traits<S>::fields; ++k) {
      const unsigned first_word = t * words + record_traits<S>::offset(k) / 4;
      if (record_traits<S>::size(k) == 8) {
        union {
          unsigned w[2];
          double d;
        } u;
        u.d = static_cast<const double*>(d_in.field[k])[base + t];
        tile_words[swizzled_word(first_word, words)] = u.w[0];
        tile_words[swizzled_word(first_word + 1, words)] = u.w[1];
      } else {
        tile_words[swizzled_word(first_word, words)] = static_cast<const unsigned*>(d_in.field[k])[base + t];
      }
    }
  }
  __syncthreads();
  unsigned* dst = reinterpret_cast<unsigned*>(d_out + base);
  for (unsigned w = threadIdx.x; w < count * words; w += blockDim.x) dst[w] = tile_words[swizzled_word(w, words)];
}

#endif  // __CUDACC__

}  // namespace aos_soa
