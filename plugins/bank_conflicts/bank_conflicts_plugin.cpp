// The bank-conflict micro-lab: warps read shared memory at a chosen stride and width; conflicts follow gcd.
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "bank_conflicts.hpp"
#include "bank_conflicts_kernels.cuh"
#include "cudalab/device_buffer.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/plugin.hpp"

namespace bank_conflicts {

namespace {

/// The variants: one read width each (the same kernel template on a 4-, 8- or 16-byte word).
struct variant_plan {
  const char* name;
  const char* summary;
  unsigned width_bytes;
};

const variant_plan plans[] = {
    {"read_4b", "4-byte reads, lanes `stride` words apart: gcd(stride, 32)-way conflicts", 4},
    {"read_8b", "8-byte reads (2 phases of 16 lanes), lanes `stride` elements apart: gcd(stride, 16)-way", 8},
    {"read_16b", "16-byte reads (4 phases of 8 lanes), lanes `stride` elements apart: gcd(stride, 8)-way", 16},
};

const variant_plan& plan_of(const std::string& name) {
  for (const auto& p : plans)
    if (name == p.name) return p;
  throw std::out_of_range("bank_conflicts: no variant '" + name + "'");
}

unsigned words_per_element(unsigned width_bytes) { return width_bytes / 4; }

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
    s.params = {
        cudalab::param_spec::integer("stride", 1, 1, 64, "elements",
                                     "distance between neighbouring lanes' elements (4-byte words for read_4b)"),
        cudalab::param_spec::integer("iterations", 4096, 1, 16384, "reads", "shared reads per thread"),
        cudalab::param_spec::integer("blocks", 1056, 1, 1 << 20, "blocks", "blocks in the grid (8 per H100 SM)"),
        cudalab::param_spec::integer("threads", 256, 32, 1024, "threads", "threads per block, a multiple of 32"),
    };
    for (const auto& p : plans) s.variants.push_back({p.name, p.summary});
    s.baseline = "read_4b";
    return s;
  }

  void check_params(const cudalab::params& p) const override {
    if (p.integer("threads") % 32 != 0)
      throw std::invalid_argument("threads must be a multiple of 32 (a warp), not " +
                                  std::to_string(p.integer("threads")));
  }

  cudalab::requirements require(const cudalab::params& p) const override {
    const auto out_bytes = static_cast<std::uint64_t>(p.integer("blocks") * p.integer("threads")) * 4;
    const auto in_bytes = static_cast<std::uint64_t>(shared_elements(unsigned(p.integer("stride")))) * 16;
    return {out_bytes + in_bytes, 0, 2 * out_bytes + in_bytes};
  }

  void setup(const cudalab::params& p, cudalab::session& s) override {
    check_params(p);
    stride_ = static_cast<unsigned>(p.integer("stride"));
    iterations_ = static_cast<unsigned>(p.integer("iterations"));
    blocks_ = static_cast<unsigned>(p.integer("blocks"));
    threads_ = static_cast<unsigned>(p.integer("threads"));
    // Enough words for the widest variant; narrower ones read a prefix.
    h_words_.resize(std::size_t(shared_elements(stride_)) * words_per_element(16));
    std::mt19937_64 rng(s.seed());
    for (auto& w : h_words_) w = static_cast<unsigned>(rng());
    d_words_ = cudalab::device_buffer<unsigned>(h_words_.size());
    d_words_.upload(h_words_.data(), s.stream());
    d_out_ = cudalab::device_buffer<unsigned>(std::size_t(blocks_) * threads_);
    s.register_output(d_out_.data(), d_out_.bytes(), cudalab::memory_kind::device);
    h_out_.resize(d_out_.size());
    stream_ = s.stream();
  }

  cudalab::traffic traffic_of(const cudalab::variant_spec& v) const override {
    // Shared-memory bytes the warps ask for: the figure bank conflicts slow down.
    const std::uint64_t reads = std::uint64_t(blocks_) * threads_ * iterations_;
    return {reads * plan_of(v.name).width_bytes, 0, cudalab::memory_path::device};
  }

  void run(const cudalab::variant_spec& v, cudaStream_t stream) override {
    launch_strided_read(plan_of(v.name).width_bytes, d_words_.data(), d_out_.data(), stride_, iterations_, blocks_,
                        threads_, stream);
  }

  cudalab::check verify(const cudalab::variant_spec& v) override {
    const unsigned width = plan_of(v.name).width_bytes;
    d_out_.download(h_out_.data(), stream_);
    CUDALAB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    // Every warp does the same: the sum depends on the lane only (unsigned arithmetic wraps alike).
    const unsigned elements = shared_elements(stride_);
    const unsigned wpe = words_per_element(width);
    unsigned lane_sum[32];
    for (unsigned lane = 0; lane < 32; ++lane) {
      unsigned e = first_element(lane, stride_), sum = 0;
      for (unsigned i = 0; i < iterations_; ++i) {
        for (unsigned w = 0; w < wpe; ++w) sum += h_words_[std::size_t(e) * wpe + w];
        e = next_element(e, elements);
      }
      lane_sum[lane] = sum;
    }
    std::vector<unsigned> expected(h_out_.size());
    for (std::size_t t = 0; t < expected.size(); ++t) expected[t] = lane_sum[(t % threads_) % 32];
    return cudalab::compare_exact(h_out_.data(), expected.data(), expected.size());
  }

  void trace(const cudalab::params& p, const cudalab::variant_spec& v, cudalab::trace_sink& sink) const override {
    using cudalab::access_kind;
    using cudalab::memory_space;
    check_params(p);
    const unsigned width = plan_of(v.name).width_bytes;
    const auto stride = static_cast<unsigned>(p.integer("stride"));
    const auto iterations = static_cast<unsigned>(p.integer("iterations"));
    const auto threads = static_cast<unsigned>(p.integer("threads"));
    const auto blocks = static_cast<std::uint64_t>(p.integer("blocks"));
    const unsigned elements = shared_elements(stride);
    const unsigned n_words = elements * words_per_element(width);
    // Every block does the same work: trace block 0's warps in full and scale to the grid.
    const unsigned warps = threads / 32;
    for (unsigned warp = 0; warp < warps; ++warp) {
      for (unsigned base = warp * 32; base < n_words; base += threads) {
        auto word = [=](unsigned lane) -> long long { return base + lane < n_words ? (base + lane) * 4ll : -1; };
        sink.warp(memory_space::global, access_kind::load, 4, word);
        sink.warp(memory_space::shared, access_kind::store, 4, word);
      }
      unsigned first[32];
      for (unsigned lane = 0; lane < 32; ++lane) first[lane] = first_element(lane, stride);
      for (unsigned i = 0; i < iterations; ++i) {
        sink.warp(memory_space::shared, access_kind::load, width,
                  [&](unsigned lane) -> long long { return static_cast<long long>(first[lane]) * width; });
        for (auto& e : first) e = next_element(e, elements);
      }
      sink.warp(memory_space::global, access_kind::store, 4,
                [=](unsigned lane) -> long long { return (warp * 32ll + lane) * 4; });
    }
    sink.sampled(warps, blocks * warps);
  }

  void teardown() noexcept override {
    d_words_ = {};
    d_out_ = {};
    h_words_ = {};
    h_out_ = {};
  }

 private:
  unsigned stride_ = 1, iterations_ = 1, blocks_ = 1, threads_ = 32;
  cudaStream_t stream_ = nullptr;
  std::vector<unsigned> h_words_, h_out_;
  cudalab::device_buffer<unsigned> d_words_, d_out_;
};

}  // namespace bank_conflicts

CUDALAB_REGISTER_LAB(bank_conflicts::bank_conflicts_lab)
