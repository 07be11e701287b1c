// The bank-conflict micro-lab: warps read shared memory at a chosen stride and width; conflicts follow gcd.
#include <memory>
#include <random>
#include <vector>

#include "bank_conflicts.hpp"
#include "bank_conflicts_kernels.cuh"
#include "cudalab/compare.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/plugin.hpp"
#include "cudalab/variant_table.hpp"

namespace bank_conflicts {

namespace {

/// What a variant does: the same kernel template on a 4-, 8- or 16-byte word.
struct variant_policy {
  unsigned width_bytes;
};

const cudalab::variant_table<variant_policy> variants = {
    {"read_4b", "4-byte reads, lanes `stride` words apart: gcd(stride, 32)-way conflicts", {4}},
    {"read_8b", "8-byte reads (2 phases of 16 lanes), lanes `stride` elements apart: gcd(stride, 16)-way", {8}},
    {"read_16b", "16-byte reads (4 phases of 8 lanes), lanes `stride` elements apart: gcd(stride, 8)-way", {16}},
};

/// One sweep point: the words the blocks copy into shared memory, and the per-thread sums.
class bank_point final : public cudalab::lab_point {
 public:
  bank_point(const settings& s, cudalab::session& session) : s_(s) {
    // Enough words for the widest variant; narrower ones read a prefix.
    h_words_.resize(std::size_t(shared_elements(s.stride)) * words_per_element(16));
    std::mt19937_64 rng(session.seed());
    for (auto& w : h_words_) w = static_cast<unsigned>(rng());
    d_words_ = session.input(h_words_);
    d_out_ = session.output<unsigned>(std::size_t(s.blocks) * s.threads);
  }

  void run(cudalab::variant_index v, cudaStream_t stream) override {
    launch_strided_read(variants[v].width_bytes, d_words_.data(), d_out_.data(), s_.stride, s_.iterations, s_.blocks,
                        s_.threads, stream);
  }

  cudalab::verification verify(cudalab::variant_index v, const cudalab::lab_context& ctx) override {
    // Every warp does the same: the sum depends on the lane only (unsigned arithmetic wraps alike).
    const unsigned elements = shared_elements(s_.stride);
    const unsigned wpe = words_per_element(variants[v].width_bytes);
    unsigned lane_sum[32];
    for (unsigned lane = 0; lane < 32; ++lane) {
      unsigned e = first_element(lane, s_.stride), sum = 0;
      for (unsigned i = 0; i < s_.iterations; ++i) {
        for (unsigned w = 0; w < wpe; ++w) sum += h_words_[std::size_t(e) * wpe + w];
        e = next_element(e, elements);
      }
      lane_sum[lane] = sum;
    }
    std::vector<unsigned> expected(d_out_.size());
    for (std::size_t t = 0; t < expected.size(); ++t) expected[t] = lane_sum[(t % s_.threads) % 32];
    return cudalab::compare_exact(d_out_, expected, ctx.stream);
  }

 private:
  settings s_;
  std::vector<unsigned> h_words_;
  cudalab::device_buffer<unsigned> d_words_, d_out_;
};

}  // namespace

class bank_conflicts_lab final : public cudalab::lab {
 public:
  cudalab::lab_spec spec() const override {
    cudalab::lab_spec s;
    s.name = "bank_conflicts";
    s.title = "Shared-memory bank conflicts: conflict degree against stride and read width";
    s.summary =
        "Every warp reads shared memory with its lanes `stride` elements apart, over and over. Shared memory "
        "has 32 banks of 4 bytes; lanes that hit different words of one bank are served one after another. "
        "With 4-byte reads the conflict degree is gcd(stride, 32): odd strides are free, stride 32 is 32-way. "
        "8- and 16-byte reads are served in phases of 16 and 8 lanes. GB/s here is shared-memory bytes read.";
    s.params = parameters.specs();
    s.variants = variants.specs();
    s.baseline = "read_4b";
    return s;
  }

  cudalab::requirements requirements_of(const cudalab::params& p) const override {
    const settings s = parameters.read(p);
    const auto out_bytes = std::uint64_t(s.blocks) * s.threads * 4;
    const auto in_bytes = std::uint64_t(shared_elements(s.stride)) * 16;
    return {out_bytes + in_bytes, 0, 2 * out_bytes + in_bytes};
  }

  cudalab::traffic traffic_of(const cudalab::params& p, cudalab::variant_index v) const override {
    // Shared-memory bytes the warps ask for: the figure bank conflicts slow down.
    const settings s = parameters.read(p);
    const std::uint64_t reads = std::uint64_t(s.blocks) * s.threads * s.iterations;
    return {reads * variants[v].width_bytes, 0, cudalab::memory_path::device};
  }

  void trace(const cudalab::params& p, cudalab::variant_index v, const cudalab::lab_context&,
             cudalab::trace_sink& sink) const override {
    trace_read(variants[v].width_bytes, parameters.read(p), sink);
  }

  std::unique_ptr<cudalab::lab_point> setup(const cudalab::params& p, cudalab::session& s) const override {
    return std::make_unique<bank_point>(parameters.read(p), s);
  }
};

}  // namespace bank_conflicts

CUDALAB_REGISTER_LAB(bank_conflicts::bank_conflicts_lab)
