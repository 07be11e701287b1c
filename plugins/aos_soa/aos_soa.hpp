// What the aos_soa lab's files share: the record layout in numbers, a point's settings and the table that
// declares and reads them, the launchers (the only door to its kernels) and the trace of each kernel.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <iosfwd>

#include "aos_soa_kernels.cuh"
#include "cudalab/param_table.hpp"
#include "cudalab/random.hpp"
#include "cudalab/trace.hpp"
#include "cudalab/verification.hpp"

namespace aos_soa {

/// Which kernel a variant launches.
enum class kernel { copy, aos_all, aos_all_aligned, aos_one, soa_all, soa_one, aos_to_soa, soa_to_aos };

/// Where each field of a record shape lies, in the three layouts.
struct layout {
  int fields = 0;
  unsigned record_bytes = 0;   ///< sizeof the natural record
  unsigned aligned_bytes = 0;  ///< sizeof aligned_record<>
  unsigned vector_bytes = 0;   ///< width of the aligned record's vector loads
  unsigned payload_bytes = 0;  ///< sum of the field sizes (no padding)
  unsigned offset[max_fields] = {};
  unsigned size[max_fields] = {};
};

/// The layout of the record type `shape` names.
inline layout layout_of(record_shape shape) {
  return with_record(shape, [](auto tag) {
    using S = typename decltype(tag)::type;
    using traits = record_traits<S>;
    layout l;
    l.fields = traits::fields;
    l.record_bytes = sizeof(S);
    l.aligned_bytes = sizeof(aligned_record<S>);
    l.vector_bytes = alignof(aligned_record<S>);
    for (int k = 0; k < traits::fields; ++k) {
      l.offset[k] = traits::offset(k);
      l.size[k] = traits::size(k);
      l.payload_bytes += l.size[k];
    }
    return l;
  });
}

/// Byte offset of each field array in the SoA allocation, and the allocation's size.
struct soa_offsets {
  std::uint64_t start[max_fields] = {};
  std::uint64_t bytes = 0;
};

/// Field arrays of n elements one after another, each starting on a 256-byte boundary.
inline soa_offsets soa_offsets_of(const layout& l, std::uint64_t n) {
  soa_offsets o;
  for (int k = 0; k < l.fields; ++k) {
    o.start[k] = o.bytes;
    o.bytes += soa_array_bytes(n, l.size[k]);
  }
  return o;
}

/// The parameters of one point, and the layout they give.
struct settings {
  std::uint64_t n;
  int fields;
  bool mixed;  ///< record = "mixed"
  int field;
  int block;
  // Derived by parameters.read():
  record_shape shape;
  layout l;
  soa_offsets soa;
};

/// The record parameter's choices: float records, or the mixed record.
inline const cudalab::choice_names<bool> record_choices = {{"float", false}, {"mixed", true}};

using settings_table = cudalab::param_table<settings>;

/// The lab's parameters, each said once: spec() lists them, read() gives a point's settings and its
/// layout. `field` and `block` are tuning parameters (lab_point::retune).
inline const settings_table parameters(
    {
        settings_table::integer(&settings::n, "n", std::int64_t(1) << 26, 1, std::int64_t(1) << 31, "elements",
                                "records (AoS) or elements per field array (SoA)"),
        settings_table::integer(&settings::fields, "fields", 2, 1, max_fields, "fields",
                                "fields per record: float records have 1..8 floats; the mixed record has 3")
            .only(float_widths::values()),
        settings_table::choice(&settings::mixed, "record", false, record_choices,
                               "float: struct {float f[fields];}; mixed: struct {float a; double b; float c;} "
                               "(24 bytes with 8 of padding; needs fields = 3)"),
        settings_table::integer(&settings::field, "field", 0, 0, max_fields - 1, "index",
                                "the field aos_one and soa_one update (below fields)")
            .tunes(),
        settings_table::integer(&settings::block, "block", 512, 32, 1024, "threads",
                                "threads per block (a multiple of 32)")
            .multiple(32)
            .tunes(),
    },
    [](settings& s) {
      s.shape = {s.mixed, s.fields};
      s.l = layout_of(s.shape);
      s.soa = soa_offsets_of(s.l, s.n);
    });

/// The three ways the lab stores its elements: records, aligned records, field arrays.
enum class storage { aos, aligned, soa };

/// How a buffer of one storage lays out its 4-byte words (every field, record and SoA array is a
/// whole number of words): records of `record_words` words with field k at byte offset[k] (AoS and
/// aligned AoS), or one array per field, field k's starting start[k] bytes in (SoA).
struct word_layout {
  bool arrays = false;  ///< SoA
  int fields = 0;
  unsigned record_words = 0;             ///< AoS: words per record, padding included
  unsigned offset[max_fields] = {};      ///< AoS: byte offset of field k in a record
  unsigned size[max_fields] = {};        ///< bytes of field k: 4 or 8
  std::uint64_t start[max_fields] = {};  ///< SoA: byte offset of field k's array
  std::uint64_t n = 0;                   ///< elements
  std::uint64_t words = 0;               ///< words in the buffer
};

/// What word w of a buffer is: word `part` (0 = low, 1 = high half of a double) of field `field` of
/// element `element`, or padding (field -1): a record's padding, or the rounding after a field array.
struct word_place {
  std::uint64_t element = 0;
  int field = -1;
  unsigned part = 0;
};

/// Where word w of a buffer laid out as `l` lies. REQUIRES: w < l.words.
CUDALAB_HD word_place place_of(const word_layout& l, std::uint64_t w) {
  word_place p;
  const std::uint64_t byte = 4 * w;
  if (l.arrays) {
    // The last array starting at or before the word; past its n elements is the rounding.
    int k = 0;
    for (int f = 1; f < max_fields; ++f)
      if (f < l.fields && l.start[f] <= byte) k = f;
    const std::uint64_t in_array = byte - l.start[k];
    const std::uint64_t element = in_array / l.size[k];
    if (element < l.n) {
      p.element = element;
      p.field = k;
      p.part = unsigned(in_array % l.size[k]) / 4u;
    }
    return p;
  }
  p.element = w / l.record_words;
  const unsigned in_record = unsigned(w % l.record_words) * 4u;
  for (int f = 0; f < max_fields; ++f)
    if (f < l.fields && in_record >= l.offset[f] && in_record < l.offset[f] + l.size[f]) {
      p.field = f;
      p.part = (in_record - l.offset[f]) / 4u;
    }
  return p;
}

/// The word a variant must leave where it writes nothing: the host fills outputs with 0xFF bytes
/// before every verified run.
inline constexpr std::uint32_t poison_word = 0xFFFFFFFFu;

/// What a buffer must hold: the point's random field values (field k of element i is
/// cudalab::random_stream(seed, k)'s signed_float(i), or signed_double(i) for a double field: exact
/// binary fractions in [-1, 1)), updated or as they are, in every field or in one; padding zero or
/// the poison. The inputs are every field as it is with zero padding.
struct word_rule {
  word_layout where;
  std::uint64_t seed = 0;
  int only_field = -1;        ///< the one field written (-1: every field); the others keep the poison
  bool update = false;        ///< fields hold updated(v), else v
  bool zero_padding = false;  ///< padding words are 0 (whole records written), else the poison
};

/// What one word must hold, and what it is (for the report of a mismatch).
struct word_expectation {
  std::uint32_t bits = 0;
  word_place at;
  bool written = false;      ///< a field the rule writes, holding `value`
  double value = 0.0;        ///< that field's value (a float one widened)
  unsigned field_bytes = 0;  ///< 4 or 8 (then the word is half of the value); 0 for padding
};

/// A float's or a double's bit pattern, on the host and on the device.
CUDALAB_HD std::uint32_t bits_of(float v) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(v);
#else
  std::uint32_t u;
  std::memcpy(&u, &v, sizeof u);
  return u;
#endif
}
CUDALAB_HD std::uint64_t bits_of(double v) {
#if defined(__CUDA_ARCH__)
  return static_cast<std::uint64_t>(__double_as_longlong(v));
#else
  std::uint64_t u;
  std::memcpy(&u, &v, sizeof u);
  return u;
#endif
}

/// Word w of a buffer the rule describes.
CUDALAB_HD word_expectation expected_word(const word_rule& r, std::uint64_t w) {
  word_expectation e;
  e.at = place_of(r.where, w);
  const int k = e.at.field;
  if (k < 0) {
    e.bits = r.zero_padding ? 0u : poison_word;
    return e;
  }
  if (r.only_field >= 0 && k != r.only_field) {
    e.field_bytes = r.where.size[k];
    e.bits = poison_word;
    return e;
  }
  e.written = true;
  e.field_bytes = r.where.size[k];
  const cudalab::random_stream field_values(r.seed, std::uint64_t(k));
  if (r.where.size[k] == 8) {
    const double v = field_values.signed_double(e.at.element);
    const double out = r.update ? updated(v) : v;
    e.value = out;
    e.bits = static_cast<std::uint32_t>(bits_of(out) >> (32u * e.at.part));
  } else {
    const float v = field_values.signed_float(e.at.element);
    const float out = r.update ? updated(v) : v;
    e.value = double(out);
    e.bits = bits_of(out);
  }
  return e;
}

/// A word of an output as the comparison reads it (printed in hex).
struct output_word {
  std::uint32_t bits;
};
CUDALAB_HD bool operator==(const output_word& got, const word_expectation& expected) {
  return got.bits == expected.bits;
}
std::ostream& operator<<(std::ostream& os, const output_word& w);
std::ostream& operator<<(std::ostream& os, const word_expectation& e);

/// The word layout of the point's buffer of storage `where`.
inline word_layout word_layout_of(storage where, const settings& s) {
  word_layout w;
  w.arrays = where == storage::soa;
  w.fields = s.l.fields;
  w.n = s.n;
  w.record_words = (where == storage::aligned ? s.l.aligned_bytes : s.l.record_bytes) / 4u;
  for (int k = 0; k < s.l.fields; ++k) {
    w.offset[k] = s.l.offset[k];
    w.size[k] = s.l.size[k];
    w.start[k] = s.soa.start[k];
  }
  w.words = w.arrays ? s.soa.bytes / 4u : s.n * w.record_words;
  return w;
}

/// Feeds the warp accesses of kernel `k` at point `s` to the access model (aos_soa_trace.cpp).
void trace_kernel(kernel k, const settings& s, cudalab::trace_sink& sink);

/// Blocks of `block` threads that give each of `threads` items a thread (the grid of every launcher).
inline unsigned grid_for(std::uint64_t threads, int block) {
  return static_cast<unsigned>((threads + block - 1) / block);
}

// Every launcher REQUIRES n >= 1 (the n parameter's minimum) and enqueues one launch on `stream`.

/// Copies `bytes` bytes (REQUIRES: a multiple of 4) from d_in to d_out, 16 bytes per thread.
void launch_record_copy(const void* d_in, void* d_out, std::uint64_t bytes, int block, cudaStream_t stream);

/// Updates every field of n records of `shape` (natural alignment), one record per thread.
void launch_aos_update_all(record_shape shape, const void* d_in, void* d_out, std::uint64_t n, int block,
                           cudaStream_t stream);

/// Updates every field of n aligned_record<> records of `shape` with vector loads and stores.
void launch_aos_update_all_aligned(record_shape shape, const void* d_in, void* d_out, std::uint64_t n, int block,
                                   cudaStream_t stream);

/// Updates field `field` of n records of `shape`. REQUIRES: 0 <= field < shape.fields.
void launch_aos_update_one(record_shape shape, const void* d_in, void* d_out, std::uint64_t n, int field, int block,
                           cudaStream_t stream);

/// Updates every field array of an SoA of n elements, soa_group elements per thread.
void launch_soa_update_all(record_shape shape, soa_const_arrays d_in, soa_arrays d_out, std::uint64_t n, int block,
                           cudaStream_t stream);

/// Updates field array `field` of an SoA of n elements. REQUIRES: 0 <= field < shape.fields.
void launch_soa_update_one(record_shape shape, soa_const_arrays d_in, soa_arrays d_out, std::uint64_t n, int field,
                           int block, cudaStream_t stream);

/// Converts n records (natural alignment) to field arrays through shared memory.
/// REQUIRES: block is a multiple of 32.
void launch_aos_to_soa(record_shape shape, const void* d_in, soa_arrays d_out, std::uint64_t n, int block,
                       cudaStream_t stream);

/// Converts field arrays of n elements to records (natural alignment) through shared memory.
/// REQUIRES: block is a multiple of 32.
void launch_soa_to_aos(record_shape shape, soa_const_arrays d_in, void* d_out, std::uint64_t n, int block,
                       cudaStream_t stream);

// Setup and verification on the GPU (aos_soa.cu).

/// Enqueues d_words[w] = expected_word(rule, w).bits for every word of rule.where (an input).
void fill_words(std::uint32_t* d_words, const word_rule& rule, cudaStream_t stream);

/// Compares every word of d_words (rule.where.words of them) with expected_word(rule, w) on the GPU,
/// bit for bit, and waits for the answer.
cudalab::verification compare_words(const std::uint32_t* d_words, const word_rule& rule, cudaStream_t stream);

}  // namespace aos_soa
