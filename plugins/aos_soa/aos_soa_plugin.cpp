// The aos_soa lab: array of structs against struct of arrays, whole-record and one-field updates, conversions.
#include <algorithm>
#include <cstring>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "aos_soa.hpp"
#include "aos_soa_kernels.cuh"
#include "cudalab/device_buffer.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/plugin.hpp"

namespace aos_soa {

namespace {

enum class kind { copy, aos_all, aos_all_aligned, aos_one, soa_all, soa_one, aos_to_soa, soa_to_aos };

struct variant_plan {
  const char* name;
  const char* summary;
  kind k;
};

const variant_plan plans[] = {
    {"copy", "plain copy of the records' bytes, 16 bytes per thread (the ceiling)", kind::copy},
    {"aos_all", "AoS, every field updated, one load/store per field, lanes sizeof(record) apart", kind::aos_all},
    {"aos_all_aligned", "AoS of __align__(8/16) records, every field, whole records in vector loads/stores",
     kind::aos_all_aligned},
    {"aos_one", "AoS, one field updated (res[i].a = ...): each sector carries the other fields too", kind::aos_one},
    {"soa_all", "SoA, every field array updated, 16-byte vector loads/stores, fully coalesced", kind::soa_all},
    {"soa_one", "SoA, one field array updated: only its bytes move", kind::soa_one},
    {"aos_to_soa", "AoS -> SoA through a swizzled shared tile, coalesced on both sides", kind::aos_to_soa},
    {"soa_to_aos", "SoA -> AoS through a swizzled shared tile, coalesced on both sides", kind::soa_to_aos},
};

const variant_plan& plan_of(const std::string& name) {
  for (const auto& p : plans)
    if (name == p.name) return p;
  throw std::out_of_range("aos_soa: no variant '" + name + "'");
}

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

layout layout_of(record_shape shape) {
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

static_assert(sizeof(mixed_record) == 24 && offsetof(mixed_record, b) == 8 && offsetof(mixed_record, c) == 16,
              "mixed_record layout differs from record_traits<mixed_record>");
static_assert(sizeof(aligned_record<float_record<3>>) == 16 && sizeof(aligned_record<float_record<2>>) == 8 &&
                  sizeof(aligned_record<mixed_record>) == 32,
              "aligned records are padded to their vector alignment");

record_shape shape_of(const cudalab::params& p) {
  return {p.choice("record") == "mixed", static_cast<int>(p.integer("fields"))};
}

/// Byte offset of each field array in the SoA allocation, and the allocation's size.
struct soa_offsets {
  std::uint64_t start[max_fields] = {};
  std::uint64_t bytes = 0;
};

soa_offsets soa_offsets_of(const layout& l, std::uint64_t n) {
  soa_offsets o;
  for (int k = 0; k < l.fields; ++k) {
    o.start[k] = o.bytes;
    o.bytes += soa_array_bytes(n, l.size[k]);
  }
  return o;
}

/// Where field k of element i lives in some buffer: base + start[k] + i * stride[k].
struct field_view {
  const unsigned char* base = nullptr;
  std::uint64_t start[max_fields] = {};
  std::uint64_t stride[max_fields] = {};
  const unsigned char* at(int k, std::uint64_t i) const { return base + start[k] + i * stride[k]; }
};

field_view aos_view(const unsigned char* base, const layout& l, unsigned record_bytes) {
  field_view v;
  v.base = base;
  for (int k = 0; k < l.fields; ++k) {
    v.start[k] = l.offset[k];
    v.stride[k] = record_bytes;
  }
  return v;
}

field_view soa_view(const unsigned char* base, const layout& l, const soa_offsets& o) {
  field_view v;
  v.base = base;
  for (int k = 0; k < l.fields; ++k) {
    v.start[k] = o.start[k];
    v.stride[k] = l.size[k];
  }
  return v;
}

std::string field_text(const unsigned char* p, unsigned size) {
  std::ostringstream os;
  os.precision(17);
  if (size == 8) {
    double d;
    std::memcpy(&d, p, 8);
    os << d;
  } else {
    float f;
    std::memcpy(&f, p, 4);
    os << f;
  }
  return os.str();
}

/// Compares fields [k0, k1) of n elements bit for bit.
cudalab::check compare_fields(const field_view& got, const field_view& expected, const layout& l, std::uint64_t n,
                              int k0, int k1) {
  cudalab::check c;
  c.tolerance = "exact (the update 2v + 1 is exact in float and double)";
  for (std::uint64_t i = 0; i < n; ++i) {
    for (int k = k0; k < k1; ++k) {
      ++c.checked;
      if (std::memcmp(got.at(k, i), expected.at(k, i), l.size[k]) == 0) continue;
      if (c.mismatches++ < cudalab::max_reported_mismatches)
        c.first_mismatches.push_back("[" + std::to_string(i) + "].field" + std::to_string(k) + " got " +
                                     field_text(got.at(k, i), l.size[k]) + ", expected " +
                                     field_text(expected.at(k, i), l.size[k]));
    }
  }
  c.passed = c.mismatches == 0;
  return c;
}

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
                                     "fields per record: float records have 1..8 floats; the mixed record has 3"),
        cudalab::param_spec::choice("record", "float", {"float", "mixed"},
                                    "float: struct {float f[fields];}; mixed: struct {float a; double b; float c;} "
                                    "(24 bytes with 8 of padding; needs fields = 3)"),
        cudalab::param_spec::integer("field", 0, 0, max_fields - 1, "index",
                                     "the field aos_one and soa_one update (below fields)"),
        cudalab::param_spec::integer("block", 512, 32, 1024, "threads",
                                     "threads per block (a multiple of 32)"),
    };
    for (const auto& p : plans) s.variants.push_back({p.name, p.summary});
    s.baseline = "copy";
    return s;
  }

  void check_params(const cudalab::params& p) const override {
    const std::int64_t fields = p.integer("fields");
    if (fields < 1 || fields > max_fields)
      throw std::invalid_argument("fields must be 1.." + std::to_string(max_fields));
    if (p.choice("record") == "mixed" && fields != 3)
      throw std::invalid_argument("record = \"mixed\" has 3 fields: set fields = 3, not " + std::to_string(fields));
    if (p.integer("field") < 0 || p.integer("field") >= fields)
      throw std::invalid_argument("field must be below fields (" + std::to_string(fields) + "), not " +
                                  std::to_string(p.integer("field")));
    const std::int64_t block = p.integer("block");
    if (block < 32 || block > 1024 || block % 32 != 0)
      throw std::invalid_argument("block must be a multiple of 32 in 32..1024, not " + std::to_string(block));
    if (p.integer("n") < 1) throw std::invalid_argument("n must be at least 1");
  }

  cudalab::requirements require(const cudalab::params& p) const override {
    const layout l = layout_of(shape_of(p));
    const auto n = static_cast<std::uint64_t>(p.integer("n"));
    const std::uint64_t aos = n * l.record_bytes, aligned = n * l.aligned_bytes;
    const std::uint64_t soa = soa_offsets_of(l, n).bytes;
    // Device: input and output of each layout. Host: inputs of each layout, the reference, the staging copy.
    return {2 * (aos + aligned + soa), 0, 2 * aos + aligned + soa + std::max({aos, aligned, soa})};
  }

  void setup(const cudalab::params& p, cudalab::session& s) override {
    check_params(p);
    shape_ = shape_of(p);
    l_ = layout_of(shape_);
    n_ = static_cast<std::uint64_t>(p.integer("n"));
    field_ = static_cast<int>(p.integer("field"));
    block_ = static_cast<int>(p.integer("block"));
    stream_ = s.stream();
    soa_ = soa_offsets_of(l_, n_);

    // Inputs: exact binary fractions in [-1, 1) from the seed, padding bytes zero.
    h_in_.assign(n_ * l_.record_bytes, 0);
    std::mt19937_64 rng(s.seed());
    for (std::uint64_t i = 0; i < n_; ++i) {
      unsigned char* rec = h_in_.data() + i * l_.record_bytes;
      for (int k = 0; k < l_.fields; ++k) {
        const std::uint64_t r = rng();
        if (l_.size[k] == 8) {
          const double d = double(r >> 11) * 0x1p-52 - 1.0;
          std::memcpy(rec + l_.offset[k], &d, 8);
        } else {
          const float f = float(r >> 40) * 0x1p-23f - 1.0f;
          std::memcpy(rec + l_.offset[k], &f, 4);
        }
      }
    }
    // Reference: every field updated, in the natural AoS layout.
    h_ref_ = h_in_;
    for (std::uint64_t i = 0; i < n_; ++i) {
      unsigned char* rec = h_ref_.data() + i * l_.record_bytes;
      for (int k = 0; k < l_.fields; ++k) update_in_place(rec + l_.offset[k], l_.size[k]);
    }
    // The same inputs as aligned records and as field arrays.
    const field_view in = aos_view(h_in_.data(), l_, l_.record_bytes);
    std::vector<unsigned char> h_aligned(n_ * l_.aligned_bytes, 0), h_soa(soa_.bytes, 0);
    const field_view aligned_v = aos_view(h_aligned.data(), l_, l_.aligned_bytes);
    const field_view soa_v = soa_view(h_soa.data(), l_, soa_);
    for (std::uint64_t i = 0; i < n_; ++i)
      for (int k = 0; k < l_.fields; ++k) {
        std::memcpy(const_cast<unsigned char*>(aligned_v.at(k, i)), in.at(k, i), l_.size[k]);
        std::memcpy(const_cast<unsigned char*>(soa_v.at(k, i)), in.at(k, i), l_.size[k]);
      }

    d_aos_in_ = cudalab::device_buffer<unsigned char>(h_in_.size());
    d_aos_out_ = cudalab::device_buffer<unsigned char>(h_in_.size());
    d_aligned_in_ = cudalab::device_buffer<unsigned char>(h_aligned.size());
    d_aligned_out_ = cudalab::device_buffer<unsigned char>(h_aligned.size());
    d_soa_in_ = cudalab::device_buffer<unsigned char>(h_soa.size());
    d_soa_out_ = cudalab::device_buffer<unsigned char>(h_soa.size());
    d_aos_in_.upload(h_in_.data(), stream_);
    d_aligned_in_.upload(h_aligned.data(), stream_);
    d_soa_in_.upload(h_soa.data(), stream_);
    // The uploads read host vectors that die here: wait for them.
    CUDALAB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    for (auto* b : {&d_aos_out_, &d_aligned_out_, &d_soa_out_})
      s.register_output(b->data(), b->bytes(), cudalab::memory_kind::device);
    h_out_.assign(std::max({h_in_.size(), h_aligned.size(), h_soa.size()}), 0);
  }

  cudalab::traffic traffic_of(const cudalab::variant_spec& v) const override {
    const kind k = plan_of(v.name).k;
    std::uint64_t bytes = n_ * l_.payload_bytes;  // every field, read once and written once
    if (k == kind::copy) bytes = n_ * l_.record_bytes;
    if (k == kind::aos_one || k == kind::soa_one) bytes = n_ * l_.size[field_];
    return {bytes, bytes, cudalab::memory_path::device};
  }

  void run(const cudalab::variant_spec& v, cudaStream_t stream) override {
    switch (plan_of(v.name).k) {
      case kind::copy: launch_record_copy(d_aos_in_.data(), d_aos_out_.data(), d_aos_in_.bytes(), block_, stream); break;
      case kind::aos_all: launch_aos_update_all(shape_, d_aos_in_.data(), d_aos_out_.data(), n_, block_, stream); break;
      case kind::aos_all_aligned:
        launch_aos_update_all_aligned(shape_, d_aligned_in_.data(), d_aligned_out_.data(), n_, block_, stream);
        break;
      case kind::aos_one:
        launch_aos_update_one(shape_, d_aos_in_.data(), d_aos_out_.data(), n_, field_, block_, stream);
        break;
      case kind::soa_all: launch_soa_update_all(shape_, soa_in(), soa_out(), n_, block_, stream); break;
      case kind::soa_one: launch_soa_update_one(shape_, soa_in(), soa_out(), n_, field_, block_, stream); break;
      case kind::aos_to_soa: launch_aos_to_soa(shape_, d_aos_in_.data(), soa_out(), n_, block_, stream); break;
      case kind::soa_to_aos: launch_soa_to_aos(shape_, soa_in(), d_aos_out_.data(), n_, block_, stream); break;
    }
  }

  cudalab::check verify(const cudalab::variant_spec& v) override {
    const kind k = plan_of(v.name).k;
    const int k0 = (k == kind::aos_one || k == kind::soa_one) ? field_ : 0;
    const int k1 = (k == kind::aos_one || k == kind::soa_one) ? field_ + 1 : l_.fields;
    const field_view ref = aos_view(h_ref_.data(), l_, l_.record_bytes);
    const field_view in = aos_view(h_in_.data(), l_, l_.record_bytes);
    switch (k) {
      case kind::copy: {
        download(d_aos_out_);
        std::vector<std::uint32_t> got(h_in_.size() / 4), expected(h_in_.size() / 4);
        std::memcpy(got.data(), h_out_.data(), h_in_.size());
        std::memcpy(expected.data(), h_in_.data(), h_in_.size());
        return cudalab::compare_exact(got.data(), expected.data(), got.size());
      }
      case kind::aos_all:
      case kind::aos_one:
        download(d_aos_out_);
        return compare_fields(aos_view(h_out_.data(), l_, l_.record_bytes), ref, l_, n_, k0, k1);
      case kind::aos_all_aligned:
        download(d_aligned_out_);
        return compare_fields(aos_view(h_out_.data(), l_, l_.aligned_bytes), ref, l_, n_, k0, k1);
      case kind::soa_all:
      case kind::soa_one:
        download(d_soa_out_);
        return compare_fields(soa_view(h_out_.data(), l_, soa_), ref, l_, n_, k0, k1);
      case kind::aos_to_soa:
        download(d_soa_out_);
        return compare_fields(soa_view(h_out_.data(), l_, soa_), in, l_, n_, k0, k1);
      case kind::soa_to_aos: {
        download(d_aos_out_);
        cudalab::check c = compare_fields(aos_view(h_out_.data(), l_, l_.record_bytes), in, l_, n_, k0, k1);
        // Padding bytes are written too (as zeros), so the records must match byte for byte.
        if (c.passed && std::memcmp(h_out_.data(), h_in_.data(), h_in_.size()) != 0) {
          c.passed = false;
          c.note = "fields match but padding bytes are not zero";
        }
        return c;
      }
    }
    throw std::logic_error("aos_soa: unhandled variant");
  }

  void trace(const cudalab::params& p, const cudalab::variant_spec& v, cudalab::trace_sink& sink) const override;

  void teardown() noexcept override {
    d_aos_in_ = {};
    d_aos_out_ = {};
    d_aligned_in_ = {};
    d_aligned_out_ = {};
    d_soa_in_ = {};
    d_soa_out_ = {};
    h_in_ = {};
    h_ref_ = {};
    h_out_ = {};
  }

 private:
  static void update_in_place(unsigned char* p, unsigned size) {
    if (size == 8) {
      double d;
      std::memcpy(&d, p, 8);
      d = updated(d);
      std::memcpy(p, &d, 8);
    } else {
      float f;
      std::memcpy(&f, p, 4);
      f = updated(f);
      std::memcpy(p, &f, 4);
    }
  }

  soa_const_arrays soa_in() const {
    soa_const_arrays a;
    for (int k = 0; k < l_.fields; ++k) a.field[k] = d_soa_in_.data() + soa_.start[k];
    return a;
  }
  soa_arrays soa_out() {
    soa_arrays a;
    for (int k = 0; k < l_.fields; ++k) a.field[k] = d_soa_out_.data() + soa_.start[k];
    return a;
  }

  void download(const cudalab::device_buffer<unsigned char>& d) {
    d.download(h_out_.data(), stream_);
    CUDALAB_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  record_shape shape_;
  layout l_;
  soa_offsets soa_;
  std::uint64_t n_ = 0;
  int field_ = 0;
  int block_ = 256;
  cudaStream_t stream_ = nullptr;
  std::vector<unsigned char> h_in_, h_ref_, h_out_;
  cudalab::device_buffer<unsigned char> d_aos_in_, d_aos_out_, d_aligned_in_, d_aligned_out_, d_soa_in_, d_soa_out_;
};


namespace {

using cudalab::access_kind;
using cudalab::memory_space;

/// Emits the accesses of warp `warp` of block `block` of variant `k`, in the kernel's program order.
/// Global addresses are offsets into the buffer each kernel reads or writes (all 256-byte aligned);
/// shared addresses are offsets into the block's tile.
void trace_warp(kind k, const layout& l, const soa_offsets& soa, std::uint64_t n, int field, unsigned block_dim,
                std::uint64_t block, unsigned warp, cudalab::trace_sink& sink) {
  const auto lane_thread = [&](unsigned lane) { return thread_element(block, block_dim, warp * 32u + lane); };
  const auto both = [&](unsigned bytes, auto address) {
    sink.warp(memory_space::global, access_kind::load, bytes, address);
    sink.warp(memory_space::global, access_kind::store, bytes, address);
  };
  // One SoA field array: the warp's runs of 32 consecutive 16-byte vectors, element by element
  // where a vector would run past n.
  const auto soa_field = [&](int f) {
    const unsigned size = l.size[f], per_vector = 16 / size;
    for (unsigned v = 0; v < soa_group / per_vector; ++v) {
      const auto first = [&, v](unsigned lane) { return soa_vector_first(lane_thread(lane), v, per_vector); };
      both(16, [&](unsigned lane) -> long long {
        return first(lane) + per_vector <= n ? static_cast<long long>(soa.start[f] + first(lane) * size) : -1;
      });
      for (unsigned j = 0; j < per_vector; ++j)
        both(size, [&](unsigned lane) -> long long {
          const std::uint64_t e = first(lane) + j;
          return first(lane) + per_vector > n && e < n ? static_cast<long long>(soa.start[f] + e * size) : -1;
        });
    }
  };
  switch (k) {
    case kind::copy: {
      const std::uint64_t words = n * l.record_bytes / 4;
      both(16, [&](unsigned lane) -> long long {
        const std::uint64_t t = lane_thread(lane);
        return 4 * t + 4 <= words ? static_cast<long long>(16 * t) : -1;
      });
      for (unsigned j = 0; j < 3; ++j)
        both(4, [&](unsigned lane) -> long long {
          const std::uint64_t t = lane_thread(lane);
          return 4 * t + 4 > words && 4 * t + j < words ? static_cast<long long>(4 * (4 * t + j)) : -1;
        });
      return;
    }
    case kind::aos_all:
    case kind::aos_one: {
      const int k0 = k == kind::aos_one ? field : 0, k1 = k == kind::aos_one ? field + 1 : l.fields;
      for (int f = k0; f < k1; ++f)
        both(l.size[f], [&](unsigned lane) -> long long {
          const std::uint64_t i = lane_thread(lane);
          return i < n ? static_cast<long long>(i * l.record_bytes + l.offset[f]) : -1;
        });
      return;
    }
    case kind::aos_all_aligned: {
      const auto word = [&](unsigned c) {
        return [&, c](unsigned lane) -> long long {
          const std::uint64_t i = lane_thread(lane);
          return i < n ? static_cast<long long>(i * l.aligned_bytes + c * l.vector_bytes) : -1;
        };
      };
      const unsigned words = l.aligned_bytes / l.vector_bytes;
      for (unsigned c = 0; c < words; ++c) sink.warp(memory_space::global, access_kind::load, l.vector_bytes, word(c));
      for (unsigned c = 0; c < words; ++c)
        sink.warp(memory_space::global, access_kind::store, l.vector_bytes, word(c));
      return;
    }
    case kind::soa_all:
      for (int f = 0; f < l.fields; ++f) soa_field(f);
      return;
    case kind::soa_one:
      soa_field(field);
      return;
    case kind::aos_to_soa:
    case kind::soa_to_aos: {
      const unsigned words = l.record_bytes / 4;
      const std::uint64_t base = thread_element(block, block_dim, 0);
      const unsigned count = static_cast<unsigned>(std::min<std::uint64_t>(block_dim, n - base));
      const auto tile_walk = [&](access_kind global_kind, access_kind shared_kind) {
        for (unsigned start = 0; start < count * words; start += block_dim) {
          const auto active = [&, start](unsigned lane) { return start + warp * 32u + lane < count * words; };
          const auto global = [&](unsigned lane) -> long long {
            return active(lane) ? static_cast<long long>(base * l.record_bytes + 4u * (start + warp * 32u + lane))
                                : -1;
          };
          const auto shared = [&](unsigned lane) -> long long {
            return active(lane) ? static_cast<long long>(4u * swizzled_word(start + warp * 32u + lane, words)) : -1;
          };
          if (global_kind == access_kind::load) {
            sink.warp(memory_space::global, global_kind, 4, global);
            sink.warp(memory_space::shared, shared_kind, 4, shared);
          } else {
            sink.warp(memory_space::shared, shared_kind, 4, shared);
            sink.warp(memory_space::global, global_kind, 4, global);
          }
        }
      };
      const auto record_word = [&](unsigned j) {
        return [&, j](unsigned lane) -> long long {
          const unsigned t = warp * 32u + lane;
          return t < count ? static_cast<long long>(4u * swizzled_word(t * words + j, words)) : -1;
        };
      };
      const auto field_element = [&](int f) {
        return [&, f](unsigned lane) -> long long {
          const unsigned t = warp * 32u + lane;
          return t < count ? static_cast<long long>(soa.start[f] + (base + t) * l.size[f]) : -1;
        };
      };
      if (k == kind::aos_to_soa) {
        tile_walk(access_kind::load, access_kind::store);
        for (int f = 0; f < l.fields; ++f) {
          for (unsigned h = 0; h < l.size[f] / 4; ++h)
            sink.warp(memory_space::shared, access_kind::load, 4, record_word(l.offset[f] / 4 + h));
          sink.warp(memory_space::global, access_kind::store, l.size[f], field_element(f));
        }
      } else {
        for (unsigned j = 0; j < words; ++j) {
          bool padding = true;
          for (int f = 0; f < l.fields; ++f)
            if (4 * j >= l.offset[f] && 4 * j < l.offset[f] + l.size[f]) padding = false;
          if (padding) sink.warp(memory_space::shared, access_kind::store, 4, record_word(j));
        }
        for (int f = 0; f < l.fields; ++f) {
          sink.warp(memory_space::global, access_kind::load, l.size[f], field_element(f));
          for (unsigned h = 0; h < l.size[f] / 4; ++h)
            sink.warp(memory_space::shared, access_kind::store, 4, record_word(l.offset[f] / 4 + h));
        }
        tile_walk(access_kind::store, access_kind::load);
      }
      return;
    }
  }
}

/// Threads each variant launches.
std::uint64_t threads_of(kind k, const layout& l, std::uint64_t n) {
  switch (k) {
    case kind::copy: return (n * l.record_bytes + 15) / 16;
    case kind::soa_all:
    case kind::soa_one: return (n + soa_group - 1) / soa_group;
    default: return n;
  }
}

}  // namespace

void aos_soa_lab::trace(const cudalab::params& p, const cudalab::variant_spec& v, cudalab::trace_sink& sink) const {
  const kind k = plan_of(v.name).k;
  const layout l = layout_of(shape_of(p));
  const auto n = static_cast<std::uint64_t>(p.integer("n"));
  const auto block_dim = static_cast<unsigned>(p.integer("block"));
  const int field = static_cast<int>(p.integer("field"));
  const soa_offsets soa = soa_offsets_of(l, n);
  const std::uint64_t blocks = (threads_of(k, l, n) + block_dim - 1) / block_dim;
  const unsigned warps_per_block = block_dim / 32;
  // Block 0 stands for every block but the last, which holds the tails and is traced on its own.
  sink.trace_blocks(blocks, [&](std::uint64_t b) {
    for (unsigned w = 0; w < warps_per_block; ++w) trace_warp(k, l, soa, n, field, block_dim, b, w, sink);
  });
}

}  // namespace aos_soa

CUDALAB_REGISTER_LAB(aos_soa::aos_soa_lab)
