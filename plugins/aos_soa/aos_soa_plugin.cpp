// The aos_soa lab: array of structs against struct of arrays, whole-record and one-field updates, conversions.
#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "aos_soa.hpp"
#include "aos_soa_kernels.cuh"
#include "aos_soa_slot_sources.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/plugin.hpp"
#include "cudalab/variant_table.hpp"

namespace aos_soa {

namespace {

/// What a variant's output holds once it has run, and so which bytes it must move.
enum class result {
  same_records,         ///< the input's records byte for byte (copy): every record byte moves
  same_fields,          ///< the input's field values in the other layout (conversions): every field moves
  every_field_updated,  ///< 2v + 1 in every field
  one_field_updated,    ///< 2v + 1 in field `field`; the other fields keep the poison
};

/// What a variant does: the kernel it launches, the layout it writes, what it writes there, and
/// whether it writes whole records, padding included (zeros: the input's padding, or the tile's).
struct policy {
  kernel launches;
  storage writes;
  result holds;
  bool whole_records;
};

// clang-format off
const cudalab::variant_table<policy> variants = {
    {"copy", "plain copy of the records' bytes, 16 bytes per thread (the ceiling)",
     {kernel::copy, storage::aos, result::same_records, true}},
    {"aos_all", "AoS, every field updated, one load/store per field, lanes sizeof(record) apart",
     {kernel::aos_all, storage::aos, result::every_field_updated, false}},
    {"aos_all_aligned", "AoS of __align__(8/16) records, every field, whole records in vector loads/stores",
     {kernel::aos_all_aligned, storage::aligned, result::every_field_updated, true}},
    {"aos_one", "AoS, one field updated (res[i].a = ...): each sector carries the other fields too",
     {kernel::aos_one, storage::aos, result::one_field_updated, false}},
    {"soa_all", "SoA, every field array updated, 16-byte vector loads/stores, fully coalesced",
     {kernel::soa_all, storage::soa, result::every_field_updated, false}},
    {"soa_one", "SoA, one field array updated: only its bytes move",
     {kernel::soa_one, storage::soa, result::one_field_updated, false}},
    {"aos_to_soa", "AoS -> SoA through a swizzled shared tile, coalesced on both sides",
     {kernel::aos_to_soa, storage::soa, result::same_fields, false}},
    {"soa_to_aos", "SoA -> AoS through a swizzled shared tile, coalesced on both sides",
     {kernel::soa_to_aos, storage::aos, result::same_fields, true}},
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

/// One sweep point: the input and an output in each storage. The inputs are made on the GPU from the
/// seed (fill_words) and every word of an output is checked there (compare_words); only `field` and
/// `block` may change between runs of one point (retune()).
class aos_soa_point final : public cudalab::lab_point {
 public:
  aos_soa_point(const settings& s, cudalab::session& session) : s_(s), seed_(session.seed()) {
    // Inputs: exact binary fractions in [-1, 1) from the random seed, one random stream per field, the
    // same values in every storage; padding bytes zero. Every output poisoned before a verified run.
    for (storage where : {storage::aos, storage::aligned, storage::soa}) {
      cudalab::device_buffer<unsigned char>& in = d_in_[index(where)];
      in = cudalab::device_buffer<unsigned char>(bytes_in(where, s));
      word_rule input;
      input.where = word_layout_of(where, s);
      input.seed = seed_;
      input.zero_padding = true;
      fill_words(words(in), input, session.stream());
      session.register_input(in.data(), in.bytes(), cudalab::memory_kind::device);
      d_out_[index(where)] = session.output<unsigned char>(in.size());
    }
  }

  void retune(const cudalab::params& p) override { s_ = parameters.read(p); }

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

  // Slot aos_to_soa (aos_to_soa's job, float records only): launched as the lab's conversion, one record
  // per thread and a shared float per field of the block's records; the field arrays of the SoA
  // output are soa_array_bytes() apart.
  void run_slot(const std::string& slot, const cudalab::slot_code& code, cudaStream_t stream) override {
    if (s_.shape.mixed)
      throw std::invalid_argument("slot " + slot + " converts records of floats: run it at record = \"float\"");
    const float* records = static_cast<const float*>(in(storage::aos));
    float* arrays = static_cast<float*>(out(storage::soa));
    unsigned long long n = s_.n;
    int fields = s_.l.fields;
    unsigned long long field_stride = soa_array_bytes(s_.n, sizeof(float)) / sizeof(float);
    void* args[] = {&records, &arrays, &n, &fields, &field_stride};
    const std::size_t shared_bytes = std::size_t(s_.block) * s_.l.record_bytes;
    code.launch(dim3(grid_for(s_.n, s_.block)), dim3(unsigned(s_.block)), shared_bytes, stream, args);
  }

  cudalab::verification verify(cudalab::variant_index v, const cudalab::lab_context& ctx) override {
    const policy& p = variants[v];
    word_rule expected;
    expected.where = word_layout_of(p.writes, s_);
    expected.seed = seed_;
    expected.only_field = p.holds == result::one_field_updated ? s_.field : -1;
    expected.update = p.holds == result::every_field_updated || p.holds == result::one_field_updated;
    expected.zero_padding = p.whole_records;
    cudalab::verification c = compare_words(words(d_out_[index(p.writes)]), expected, ctx.stream);
    c.tolerance = "exact (the update 2v + 1 is exact in float and double)";
    c.note = "every 4-byte word of the output compared on the GPU, bit for bit: " +
             (expected.only_field >= 0 ? "field " + std::to_string(expected.only_field) : std::string("every field")) +
             (expected.update ? " updated (2v + 1)" : " as in the input") +
             (expected.zero_padding ? ", padding bytes zero" : "") +
             "; words the variant must not write keep the poison 0xFFFFFFFF";
    return c;
  }

 private:
  static std::size_t index(storage where) { return static_cast<std::size_t>(where); }
  static std::uint32_t* words(cudalab::device_buffer<unsigned char>& b) {
    return reinterpret_cast<std::uint32_t*>(b.data());  // cudaMalloc'ed: aligned; sizes are whole words
  }
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
  std::uint64_t seed_;
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
    s.params = parameters.specs();
    s.variants = variants.specs();
    s.baseline = "copy";
    s.slots = {{"aos_to_soa", cudalab::slot_kind::kernel, "aos_to_soa",
                "convert float records to field arrays through shared memory, reads and writes coalesced "
                "(one record per thread)",
                "aos_to_soa", "aos_to_soa.cu", cudalab_slot_source::aos_to_soa_cu}};
    return s;
  }

  void check_params(const cudalab::params& p) const override {
    const settings s = parameters.read(p);
    if (s.mixed && s.fields != 3)
      throw std::invalid_argument("record = \"mixed\" has 3 fields: set fields = 3, not " + std::to_string(s.fields));
    if (s.field >= s.fields)
      throw std::invalid_argument("field must be below fields (" + std::to_string(s.fields) + "), not " +
                                  std::to_string(s.field));
  }

  cudalab::requirements requirements_of(const cudalab::params& p) const override {
    const settings s = parameters.read(p);
    const std::uint64_t aos = bytes_in(storage::aos, s), aligned = bytes_in(storage::aligned, s);
    const std::uint64_t soa = bytes_in(storage::soa, s);
    // Device: input and output of each layout; inputs are made and outputs checked on the GPU.
    return {2 * (aos + aligned + soa), 0, 0};
  }

  cudalab::traffic traffic_of(const cudalab::params& p, cudalab::variant_index v) const override {
    const settings s = parameters.read(p);
    const result holds = variants[v].holds;
    const std::uint64_t bytes = s.n * (holds == result::same_records        ? s.l.record_bytes
                                       : holds == result::one_field_updated ? s.l.size[s.field]
                                                                            : s.l.payload_bytes);
    return {bytes, bytes, cudalab::memory_path::device};  // read once and written once
  }

  void trace(const cudalab::params& p, cudalab::variant_index v, const cudalab::lab_context&,
             cudalab::trace_sink& sink) const override {
    trace_kernel(variants[v].launches, parameters.read(p), sink);
  }

  std::unique_ptr<cudalab::lab_point> setup(const cudalab::params& p, cudalab::session& s) const override {
    return std::make_unique<aos_soa_point>(parameters.read(p), s);
  }
};

}  // namespace aos_soa

CUDALAB_REGISTER_LAB(aos_soa::aos_soa_lab)
