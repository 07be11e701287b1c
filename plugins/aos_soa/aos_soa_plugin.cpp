// The aos_soa lab: array of structs against struct of arrays, whole-record and one-field updates, conversions.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "aos_soa.hpp"
#include "aos_soa_kernels.cuh"
#include "cudalab/compare.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/plugin.hpp"
#include "cudalab/variant_table.hpp"

namespace aos_soa {

namespace {

/// The three ways the lab stores its elements: records, aligned records, field arrays.
enum class storage { aos, aligned, soa };

/// What a variant's output holds once it has run, and so which bytes it must move.
enum class result {
  same_records,         ///< the input's records byte for byte (copy): every record byte moves
  same_fields,          ///< the input's field values in the other layout (conversions): every field moves
  every_field_updated,  ///< 2v + 1 in every field
  one_field_updated,    ///< 2v + 1 in field `field`; the other fields are not looked at
};

/// What a variant does: the kernel it launches, the layout it writes and what it writes there.
struct policy {
  kernel launches;
  storage writes;
  result holds;
};

// clang-format off
const cudalab::variant_table<policy> variants = {
    {"copy", "plain copy of the records' bytes, 16 bytes per thread (the ceiling)",
     {kernel::copy, storage::aos, result::same_records}},
    {"aos_all", "AoS, every field updated, one load/store per field, lanes sizeof(record) apart",
     {kernel::aos_all, storage::aos, result::every_field_updated}},
    {"aos_all_aligned", "AoS of __align__(8/16) records, every field, whole records in vector loads/stores",
     {kernel::aos_all_aligned, storage::aligned, result::every_field_updated}},
    {"aos_one", "AoS, one field updated (res[i].a = ...): each sector carries the other fields too",
     {kernel::aos_one, storage::aos, result::one_field_updated}},
    {"soa_all", "SoA, every field array updated, 16-byte vector loads/stores, fully coalesced",
     {kernel::soa_all, storage::soa, result::every_field_updated}},
    {"soa_one", "SoA, one field array updated: only its bytes move",
     {kernel::soa_one, storage::soa, result::one_field_updated}},
    {"aos_to_soa", "AoS -> SoA through a swizzled shared tile, coalesced on both sides",
     {kernel::aos_to_soa, storage::soa, result::same_fields}},
    {"soa_to_aos", "SoA -> AoS through a swizzled shared tile, coalesced on both sides",
     {kernel::soa_to_aos, storage::aos, result::same_fields}},
};
// clang-format on

static_assert(sizeof(mixed_record) == 24 && offsetof(mixed_record, b) == 8 && offsetof(mixed_record, c) == 16,
              "mixed_record layout differs from record_traits<mixed_record>");
static_assert(sizeof(aligned_record<float_record<3>>) == 16 && sizeof(aligned_record<float_record<2>>) == 8 &&
                  sizeof(aligned_record<mixed_record>) == 32,
              "aligned records are padded to their vector alignment");

/// Bytes the n elements take in `where`.
std::uint64_t bytes_in(storage where, const settings& s) {
  return where == storage::soa ? s.soa.bytes : s.n * (where == storage::aligned ? s.l.aligned_bytes : s.l.record_bytes);
}

/// Where field k of element i lies in a buffer of one storage: start[k] + i * stride[k] bytes in.
struct field_places {
  std::uint64_t start[max_fields] = {};
  std::uint64_t stride[max_fields] = {};
  std::uint64_t at(int k, std::uint64_t i) const { return start[k] + i * stride[k]; }
};

field_places places_in(storage where, const settings& s) {
  field_places p;
  for (int k = 0; k < s.l.fields; ++k) {
    p.start[k] = where == storage::soa ? s.soa.start[k] : s.l.offset[k];
    p.stride[k] = where == storage::soa       ? s.l.size[k]
                  : where == storage::aligned ? s.l.aligned_bytes
                                              : s.l.record_bytes;
  }
  return p;
}

template <class T>
T load(const unsigned char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

/// Calls f with the field at p as its own type: a float (size 4) or a double (size 8).
template <class F>
decltype(auto) with_value(const unsigned char* p, unsigned size, F&& f) {
  if (size == 8) return f(load<double>(p));
  return f(load<float>(p));
}

std::string field_text(const unsigned char* p, unsigned size) {
  return with_value(p, size, [](auto v) {
    std::ostringstream os;
    os.precision(17);
    os << v;
    return os.str();
  });
}

/// Compares fields [k0, k1) of n elements bit for bit.
cudalab::verification compare_fields(const unsigned char* got, const field_places& got_at,
                                     const unsigned char* expected, const field_places& expected_at, const settings& s,
                                     int k0, int k1) {
  cudalab::verification c;
  c.tolerance = "exact (the update 2v + 1 is exact in float and double)";
  for (std::uint64_t i = 0; i < s.n; ++i) {
    for (int k = k0; k < k1; ++k) {
      ++c.checked;
      const unsigned char* g = got + got_at.at(k, i);
      const unsigned char* e = expected + expected_at.at(k, i);
      if (std::memcmp(g, e, s.l.size[k]) == 0) continue;
      if (c.mismatches++ < cudalab::max_reported_mismatches)
        c.first_mismatches.push_back("[" + std::to_string(i) + "].field" + std::to_string(k) + " got " +
                                     field_text(g, s.l.size[k]) + ", expected " + field_text(e, s.l.size[k]));
    }
  }
  c.passed = c.mismatches == 0;
  return c;
}

void update_in_place(unsigned char* p, unsigned size) {
  with_value(p, size, [&](auto v) {
    v = updated(v);
    std::memcpy(p, &v, sizeof v);
  });
}

/// One sweep point: the input and an output in each storage, the input records and the updated ones.
class aos_soa_point final : public cudalab::lab_point {
 public:
  aos_soa_point(const settings& s, cudalab::session& session) : s_(s) {
    const layout& l = s.l;
    const field_places records = places_in(storage::aos, s);
    // Inputs: exact binary fractions in [-1, 1) from the random seed, padding bytes zero.
    h_in_.assign(bytes_in(storage::aos, s), 0);
    std::mt19937_64 rng(session.seed());
    for (std::uint64_t i = 0; i < s.n; ++i)
      for (int k = 0; k < l.fields; ++k) {
        const std::uint64_t r = rng();
        unsigned char* field = h_in_.data() + records.at(k, i);
        if (l.size[k] == 8) {
          const double d = double(r >> 11) * 0x1p-52 - 1.0;
          std::memcpy(field, &d, 8);
        } else {
          const float f = float(r >> 40) * 0x1p-23f - 1.0f;
          std::memcpy(field, &f, 4);
        }
      }
    // Reference: every field updated, in the natural AoS layout.
    h_ref_ = h_in_;
    for (std::uint64_t i = 0; i < s.n; ++i)
      for (int k = 0; k < l.fields; ++k) update_in_place(h_ref_.data() + records.at(k, i), l.size[k]);
    // The same inputs as aligned records and as field arrays; every output poisoned before a verified run.
    for (storage where : {storage::aos, storage::aligned, storage::soa}) {
      std::vector<unsigned char> h(bytes_in(where, s), 0);
      const field_places to = places_in(where, s);
      for (std::uint64_t i = 0; i < s.n; ++i)
        for (int k = 0; k < l.fields; ++k)
          std::memcpy(h.data() + to.at(k, i), h_in_.data() + records.at(k, i), l.size[k]);
      d_in_[index(where)] = session.input(h);
      d_out_[index(where)] = session.output<unsigned char>(h.size());
      // The upload reads a host vector that dies here: wait for it.
      CUDALAB_CUDA_CHECK(cudaStreamSynchronize(session.stream()));
    }
  }

  void run(cudalab::variant_index v, cudaStream_t stream) override {
    const settings& s = s_;
    switch (variants[v].launches) {
      case kernel::copy:
        return launch_record_copy(in(storage::aos), out(storage::aos), bytes_in(storage::aos, s), s.block, stream);
      case kernel::aos_all:
        return launch_aos_update_all(s.shape, in(storage::aos), out(storage::aos), s.n, s.block, stream);
      case kernel::aos_all_aligned:
        return launch_aos_update_all_aligned(s.shape, in(storage::aligned), out(storage::aligned), s.n, s.block,
                                             stream);
      case kernel::aos_one:
        return launch_aos_update_one(s.shape, in(storage::aos), out(storage::aos), s.n, s.field, s.block, stream);
      case kernel::soa_all:
        return launch_soa_update_all(s.shape, soa_in(), soa_out(), s.n, s.block, stream);
      case kernel::soa_one:
        return launch_soa_update_one(s.shape, soa_in(), soa_out(), s.n, s.field, s.block, stream);
      case kernel::aos_to_soa:
        return launch_aos_to_soa(s.shape, in(storage::aos), soa_out(), s.n, s.block, stream);
      case kernel::soa_to_aos:
        return launch_soa_to_aos(s.shape, soa_in(), out(storage::aos), s.n, s.block, stream);
    }
  }

  cudalab::verification verify(cudalab::variant_index v, const cudalab::lab_context& ctx) override {
    const policy& p = variants[v];
    const std::vector<unsigned char> h_out = cudalab::download(d_out_[index(p.writes)], ctx.stream);
    const bool one = p.holds == result::one_field_updated;
    const bool copied = p.holds == result::same_records || p.holds == result::same_fields;
    cudalab::verification c =
        compare_fields(h_out.data(), places_in(p.writes, s_), (copied ? h_in_ : h_ref_).data(),
                       places_in(storage::aos, s_), s_, one ? s_.field : 0, one ? s_.field + 1 : s_.l.fields);
    // Records copied or converted carry their padding bytes too (zeros): they must match byte for byte.
    if (c.passed && copied && p.writes == storage::aos && std::memcmp(h_out.data(), h_in_.data(), h_in_.size()) != 0) {
      c.passed = false;
      c.note = "fields match but padding bytes are not zero";
    }
    return c;
  }

 private:
  static std::size_t index(storage where) { return static_cast<std::size_t>(where); }
  const void* in(storage where) const { return d_in_[index(where)].data(); }
  void* out(storage where) { return d_out_[index(where)].data(); }

  soa_const_arrays soa_in() const {
    soa_const_arrays a;
    for (int k = 0; k < s_.l.fields; ++k) a.field[k] = d_in_[index(storage::soa)].data() + s_.soa.start[k];
    return a;
  }
  soa_arrays soa_out() {
    soa_arrays a;
    for (int k = 0; k < s_.l.fields; ++k) a.field[k] = d_out_[index(storage::soa)].data() + s_.soa.start[k];
    return a;
  }

  settings s_;
  std::vector<unsigned char> h_in_, h_ref_;  ///< the input and the updated records, both as AoS
  std::array<cudalab::device_buffer<unsigned char>, 3> d_in_, d_out_;  ///< by storage
};

}  // namespace

class aos_soa_lab final : public cudalab::lab {
 public:
  cudalab::lab_spec spec() const override {
    cudalab::lab_spec s;
    s.name = "aos_soa";
    s.title = "Array of structs vs struct of arrays: partial-field access and aligned records";
    s.summary =
        "Updates n records (v -> 2v + 1 per field) stored as an array of structs (AoS) or as one array per "
        "field (SoA). Touching one field of an AoS record drags the other fields through the memory system: "
        "a warp's 32 lanes are sizeof(record) bytes apart, so only field_size / sizeof(record) of every sector "
        "is used (50 % for two floats, 1/fields in general). SoA keeps every request fully used. An AoS of "
        "__align__(8/16) records moves whole records with vector loads, at the price of their padding. "
        "Converting AoS <-> SoA through a swizzled shared tile is the practical remedy. A plain copy of the "
        "records' bytes is the ceiling.";
    s.params = {
        cudalab::param_spec::integer("n", std::int64_t(1) << 26, 1, std::int64_t(1) << 31, "elements",
                                     "records (AoS) or elements per field array (SoA)"),
        cudalab::param_spec::integer("fields", 2, 1, max_fields, "fields",
                                     "fields per record: float records have 1..8 floats; the mixed record has 3")
            .only(float_widths::values()),
        cudalab::param_spec::choice("record", "float", {"float", "mixed"},
                                    "float: struct {float f[fields];}; mixed: struct {float a; double b; float c;} "
                                    "(24 bytes with 8 of padding; needs fields = 3)"),
        cudalab::param_spec::integer("field", 0, 0, max_fields - 1, "index",
                                     "the field aos_one and soa_one update (below fields)"),
        cudalab::param_spec::integer("block", 512, 32, 1024, "threads", "threads per block (a multiple of 32)")
            .multiple(32),
    };
    s.variants = variants.specs();
    s.baseline = "copy";
    return s;
  }

  void check_params(const cudalab::params& p) const override {
    const std::int64_t fields = p.integer("fields");
    if (p.choice("record") == "mixed" && fields != 3)
      throw std::invalid_argument("record = \"mixed\" has 3 fields: set fields = 3, not " + std::to_string(fields));
    if (p.integer("field") >= fields)
      throw std::invalid_argument("field must be below fields (" + std::to_string(fields) + "), not " +
                                  std::to_string(p.integer("field")));
  }

  cudalab::requirements requirements_of(const cudalab::params& p) const override {
    const settings s(p);
    const std::uint64_t aos = bytes_in(storage::aos, s), aligned = bytes_in(storage::aligned, s);
    const std::uint64_t soa = bytes_in(storage::soa, s);
    // Device: input and output of each layout. Host: input and reference records, the staging copy of
    // each input layout, the download of an output.
    return {2 * (aos + aligned + soa), 0, 2 * aos + aligned + soa + std::max({aos, aligned, soa})};
  }

  cudalab::traffic traffic_of(const cudalab::params& p, cudalab::variant_index v) const override {
    const settings s(p);
    const result holds = variants[v].holds;
    const std::uint64_t bytes = s.n * (holds == result::same_records        ? s.l.record_bytes
                                       : holds == result::one_field_updated ? s.l.size[s.field]
                                                                            : s.l.payload_bytes);
    return {bytes, bytes, cudalab::memory_path::device};  // read once and written once
  }

  void trace(const cudalab::params& p, cudalab::variant_index v, const cudalab::lab_context&,
             cudalab::trace_sink& sink) const override {
    trace_kernel(variants[v].launches, settings(p), sink);
  }

  std::unique_ptr<cudalab::lab_point> setup(const cudalab::params& p, cudalab::session& s) const override {
    return std::make_unique<aos_soa_point>(settings(p), s);
  }
};

}  // namespace aos_soa

CUDALAB_REGISTER_LAB(aos_soa::aos_soa_lab)
