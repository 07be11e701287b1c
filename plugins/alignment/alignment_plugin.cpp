// The alignment lab: aligned, misaligned, strided, cached and vectorised global-memory copies.
#include <algorithm>

#include "alignment.hpp"
#include "alignment_kernels.cuh"
#include "alignment_slot_sources.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/plugin.hpp"
#include "cudalab/variant_table.hpp"

namespace alignment {

namespace {

/// The cache operator of the variants that have no choice of it (plain loads).
constexpr cache_operator plain_load = cache_operator::default_path;

const cudalab::variant_table<policy> variants = {
    {"offset_read", "read in[i + offset], write out[i]: misaligned loads, aligned stores", {pattern::offset_read}},
    {"offset_read_ldg",
     "offset_read through the read-only path (__ldg, ld.global.nc)",
     {pattern::offset_read, cache_operator::ldg}},
    {"offset_read_ldca",
     "offset_read cached in L1 and L2 (__ldca, like the -dlcm=ca compiler flag)",
     {pattern::offset_read, cache_operator::ldca}},
    {"offset_read_ldcg",
     "offset_read cached in L2 only (__ldcg, like the -dlcm=cg compiler flag)",
     {pattern::offset_read, cache_operator::ldcg}},
    {"offset_read_ldcs",
     "offset_read with streaming, evict-first loads (__ldcs)",
     {pattern::offset_read, cache_operator::ldcs}},
    {"offset_write", "read in[i], write out[i + offset]: aligned loads, misaligned stores", {pattern::offset_write}},
    {"offset_copy",
     "read and write element i + offset: both sides misaligned (the guide's offsetCopy)",
     {pattern::offset_copy}},
    {"strided", "read in[i * stride], write out[i]: loads spread over stride*4 bytes per lane", {pattern::strided}},
    {"copy_float",
     "aligned copy, 4 bytes per lane per step (128 B per warp request)",
     {pattern::vector_copy, plain_load, 4}},
    {"copy_float2",
     "aligned copy, 8 bytes per lane per step (float2, 256 B per warp request)",
     {pattern::vector_copy, plain_load, 8}},
    {"copy_float4",
     "aligned copy, 16 bytes per lane per step (float4, 512 B per warp request)",
     {pattern::vector_copy, plain_load, 16}},
    {"grid_stride",
     "float4 copy by a GPU-sized grid walking the array (grid-stride loop)",
     {pattern::grid_stride, plain_load, 16, copy_hint::plain}},
    {"grid_stride_cs",
     "grid_stride with streaming loads and stores (__ldcs/__stcs, evict-first)",
     {pattern::grid_stride, plain_load, 16, copy_hint::streaming}},
    {"memcpy", "cudaMemcpyAsync device to device", {pattern::library_copy}},
};

/// Every byte 0xFF: the host's poison, which elements outside a variant's output must keep.
constexpr std::uint32_t poison_bits = 0xFFFFFFFFu;

/// Where a variant's output elements come from, for verify().
movement movement_of(pattern what) {
  switch (what) {
    case pattern::offset_read:
      return movement::read_shifted;
    case pattern::offset_write:
      return movement::write_shifted;
    case pattern::offset_copy:
      return movement::both_shifted;
    case pattern::strided:
      return movement::strided;
    default:
      return movement::copy;
  }
}

/// One sweep point: the input (random, made on the GPU), the output and the grid of the grid-stride
/// copies. The buffers hold the floats' bit patterns, so verify compares bits and the poison (a NaN)
/// equals itself. Only `n` shapes the data: the other parameters are tuning ones (retune()).
class alignment_point final : public cudalab::lab_point {
 public:
  alignment_point(const settings& s, cudalab::session& session) : s_(s) {
    d_in_ = cudalab::device_buffer<std::uint32_t>(s.n);
    fill_input(d_in_.data(), s.n, session.seed(), session.stream());
    session.register_input(d_in_.data(), d_in_.bytes(), cudalab::memory_kind::device);
    d_out_ = session.output<std::uint32_t>(s.n);
    sm_count_ = session.device().sm_count;
    size_grid();
  }

  void retune(const cudalab::params& p) override {
    s_ = parameters.read(p);
    size_grid();
  }

  void run(cudalab::variant_index v, cudaStream_t stream) override {
    const policy& k = variants[v];
    const float* in = reinterpret_cast<const float*>(d_in_.data());
    float* out = reinterpret_cast<float*>(d_out_.data());
    const std::uint64_t count = s_.moved(k.what);
    switch (k.what) {
      case pattern::offset_read:
        return launch_offset_read(in, out, count, s_.offset, k.op, s_.unroll, s_.block, stream);
      case pattern::offset_write:
        return launch_offset_write(in, out, count, s_.offset, s_.unroll, s_.block, stream);
      case pattern::offset_copy:
        return launch_offset_copy(in, out, count, s_.offset, s_.unroll, s_.block, stream);
      case pattern::strided:
        return launch_strided_read(in, out, count, s_.stride, s_.unroll, s_.block, stream);
      case pattern::vector_copy:
        return launch_vector_copy(in, out, s_.n, k.vector_bytes, s_.unroll, s_.block, stream);
      case pattern::grid_stride:
        return launch_grid_stride_copy(in, out, s_.n, k.hint, s_.unroll, grid_stride_blocks_, s_.block, stream);
      case pattern::library_copy:
        CUDALAB_CUDA_CHECK(cudaMemcpyAsync(out, in, s_.n * sizeof(float), cudaMemcpyDeviceToDevice, stream));
        return;
    }
  }

  // Slot vector_copy (copy_float4's job): one thread per float4, at least one block for the tail.
  void run_slot(const std::string&, const cudalab::slot_code& code, cudaStream_t stream) override {
    const float* in = reinterpret_cast<const float*>(d_in_.data());
    float* out = reinterpret_cast<float*>(d_out_.data());
    unsigned long long n = s_.n;
    void* args[] = {&in, &out, &n};
    const std::uint64_t grid = std::max<std::uint64_t>(1, blocks_for(s_.n / 4, s_.block, 1));
    code.launch(dim3(static_cast<unsigned>(grid)), dim3(static_cast<unsigned>(s_.block)), 0, stream, args);
  }

  cudalab::verification verify(cudalab::variant_index v, const cudalab::lab_context& ctx) override {
    const pattern what = variants[v].what;
    cudalab::verification c = compare_moved(d_out_.data(), d_in_.data(), s_.n, movement_of(what), s_.moved(what),
                                            s_.offset, s_.stride, poison_bits, ctx.stream);
    c.tolerance = "exact (bit patterns)";
    c.note =
        "compared as 32-bit patterns on the GPU; elements the variant must not write keep the poison "
        "4294967295 (0xFFFFFFFF)";
    return c;
  }

 private:
  /// The grid of the grid-stride copies: resident blocks, or fewer when n is small.
  void size_grid() {
    const int per_sm = s_.blocks_per_sm > 0 ? s_.blocks_per_sm : std::max(1, grid_stride_blocks_per_sm(s_.block));
    const std::uint64_t needed = std::max<std::uint64_t>(1, blocks_for(s_.n / 4, s_.block, 1));
    const std::uint64_t resident = std::uint64_t(per_sm) * std::uint64_t(sm_count_);
    grid_stride_blocks_ = std::max(1, static_cast<int>(std::min(needed, resident)));
  }

  settings s_;
  int sm_count_ = 1;
  cudalab::device_buffer<std::uint32_t> d_in_, d_out_;
  int grid_stride_blocks_ = 1;
};

}  // namespace

class alignment_lab final : public cudalab::lab {
 public:
  cudalab::lab_spec spec() const override {
    cudalab::lab_spec s;
    s.name = "alignment";
    s.title = "Aligned, misaligned, strided and cached global memory access";
    s.summary =
        "Copies of a float array that differ only in how a warp's addresses fall on 32-byte sectors and "
        "128-byte lines: reads or writes shifted by `offset` elements, reads `stride` elements apart, the "
        "misaligned read through each cache operator (__ldg, __ldca, __ldcg, __ldcs), 4/8/16-byte vectors, "
        "`unroll` independent loads per thread, and a grid-stride float4 copy, next to cudaMemcpyAsync. "
        "Bandwidth counts useful bytes only.";
    s.params = parameters.specs();
    s.variants = variants.specs();
    s.baseline = "memcpy";
    s.slots = {{"vector_copy", cudalab::slot_kind::kernel, "copy_float4",
                "copy n floats with float4 loads and stores, the n % 4 tail included (one thread per float4)",
                "vector_copy", "vector_copy.cu", cudalab_slot_source::vector_copy_cu}};
    return s;
  }

  cudalab::requirements requirements_of(const cudalab::params& p) const override {
    const std::uint64_t bytes = parameters.read(p).n * sizeof(float);
    // Device: input and output; inputs are made and outputs checked on the GPU.
    return {2 * bytes, 0, 0};
  }

  // Zero for the offset_* variants when offset >= n: they move nothing, and the host skips them there.
  cudalab::traffic traffic_of(const cudalab::params& p, cudalab::variant_index v) const override {
    const std::uint64_t bytes = parameters.read(p).moved(variants[v].what) * sizeof(float);
    return {bytes, bytes, cudalab::memory_path::device};
  }

  void trace(const cudalab::params& p, cudalab::variant_index v, const cudalab::lab_context&,
             cudalab::trace_sink& sink) const override {
    trace_variant(variants[v], parameters.read(p), sink);
  }

  std::unique_ptr<cudalab::lab_point> setup(const cudalab::params& p, cudalab::session& s) const override {
    return std::make_unique<alignment_point>(parameters.read(p), s);
  }
};

}  // namespace alignment

CUDALAB_REGISTER_LAB(alignment::alignment_lab)
