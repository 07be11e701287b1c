// The test lab: a small plugin that walks the whole life cycle so the core is tested without real labs.
#include <random>
#include <vector>

#include "cudalab/device_buffer.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/plugin.hpp"
#include "testlab.hpp"
#include "testlab_kernels.cuh"

namespace testlab {

class test_lab final : public cudalab::lab {
 public:
  cudalab::lab_spec spec() const override {
    cudalab::lab_spec s;
    s.name = "testlab";
    s.title = "Test lab: copies a float array (for testing cudalab itself)";
    s.summary = "A coalesced copy, a long scaled copy and cudaMemcpyAsync as the baseline. Not a user lab.";
    s.params = {
        cudalab::param_spec::integer("n", 1 << 20, 0, std::int64_t(1) << 34, "elements", "floats per buffer"),
        cudalab::param_spec::integer("block", 256, 32, 1024, "threads", "threads per block"),
        cudalab::param_spec::integer("rounds", 64, 0, 1 << 20, "", "halvings in the scale variant"),
        cudalab::param_spec::real("tolerance", 0.0, 0.0, 1.0, "", "relative tolerance of the check"),
        cudalab::param_spec::boolean("skip_tail", false, "copy one element short (a bug verify must catch)"),
        cudalab::param_spec::choice("fill", "random", {"random", "ramp"}, "input values"),
    };
    s.variants = {{"copy", "one element per thread, fully coalesced"},
                  {"scale", "copy with a long dependent chain of multiplies per element"},
                  {"memcpy", "cudaMemcpyAsync device to device"}};
    s.baseline = "memcpy";
    return s;
  }

  void check_params(const cudalab::params& p) const override {
    if (p.integer("block") % 32 != 0) throw std::invalid_argument("block must be a multiple of 32 (a warp)");
  }

  cudalab::requirements require(const cudalab::params& p) const override {
    const auto bytes = static_cast<std::uint64_t>(p.integer("n")) * sizeof(float);
    return {2 * bytes, 0, 3 * bytes};
  }

  void setup(const cudalab::params& p, cudalab::session& s) override {
    n_ = static_cast<std::uint64_t>(p.integer("n"));
    block_ = static_cast<int>(p.integer("block"));
    rounds_ = static_cast<int>(p.integer("rounds"));
    tolerance_ = p.real("tolerance");
    skip_tail_ = p.boolean("skip_tail");
    h_in_.resize(n_);
    if (p.choice("fill") == "ramp") {
      for (std::uint64_t i = 0; i < n_; ++i) h_in_[i] = static_cast<float>(i % 4096) + 0.5f;
    } else {
      std::mt19937_64 rng(s.seed());
      std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
      for (auto& v : h_in_) v = dist(rng);
    }
    d_in_ = cudalab::device_buffer<float>(n_);
    d_out_ = cudalab::device_buffer<float>(n_);
    d_in_.upload(h_in_.data(), s.stream());
    s.register_output(d_out_.data(), d_out_.bytes(), cudalab::memory_kind::device);
    h_out_.resize(n_);
    stream_ = s.stream();
  }

  cudalab::traffic traffic_of(const cudalab::variant_spec&) const override {
    return {n_ * sizeof(float), n_ * sizeof(float), cudalab::memory_path::device};
  }

  void run(const cudalab::variant_spec& v, cudaStream_t stream) override {
    const std::uint64_t n = skip_tail_ && n_ > 0 ? n_ - 1 : n_;
    if (v.name == "copy") {
      launch_copy(d_in_.data(), d_out_.data(), n, block_, stream);
    } else if (v.name == "scale") {
      launch_scale(d_in_.data(), d_out_.data(), n, rounds_, block_, stream);
    } else {
      if (n > 0)
        CUDALAB_CUDA_CHECK(cudaMemcpyAsync(d_out_.data(), d_in_.data(), n * sizeof(float), cudaMemcpyDeviceToDevice, stream));
    }
  }

  cudalab::check verify(const cudalab::variant_spec& v) override {
    d_out_.download(h_out_.data(), stream_);
    CUDALAB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    std::vector<float> expected = h_in_;
    if (v.name == "scale")  // the same float multiplies as the kernel, so the rounding matches exactly
      for (auto& e : expected)
        for (int r = 0; r < rounds_; ++r) e = e * 0.5f;
    if (tolerance_ == 0.0) return cudalab::compare_exact(h_out_.data(), expected.data(), n_);
    return cudalab::compare_close(h_out_.data(), expected.data(), n_, 0.0, tolerance_);
  }

  void trace(const cudalab::params& p, const cudalab::variant_spec& v, cudalab::trace_sink& sink) const override {
    if (v.name == "memcpy") return;  // a library copy: nothing to model
    const auto n = static_cast<std::uint64_t>(p.integer("n"));
    const auto block = static_cast<std::uint64_t>(p.integer("block"));
    const std::uint64_t warps_per_block = block / 32;
    const std::uint64_t blocks = (n + block - 1) / block;
    // Block 0 stands for every block but the last, which holds the tail.
    sink.trace_blocks(blocks, [&](std::uint64_t b) {
      for (std::uint64_t w = 0; w < warps_per_block; ++w) {
        auto addr = [&](unsigned lane) -> long long {
          const std::uint64_t i = copy_index(b, block, w * 32 + lane);
          return i < n ? static_cast<long long>(i * sizeof(float)) : -1;
        };
        sink.warp(cudalab::memory_space::global, cudalab::access_kind::load, 4, addr);
        sink.warp(cudalab::memory_space::global, cudalab::access_kind::store, 4, addr);
      }
    });
  }

  void teardown() noexcept override {
    d_in_ = {};
    d_out_ = {};
    h_in_ = {};
    h_out_ = {};
  }

 private:
  std::uint64_t n_ = 0;
  int block_ = 256;
  int rounds_ = 0;
  double tolerance_ = 0.0;
  bool skip_tail_ = false;
  cudaStream_t stream_ = nullptr;
  std::vector<float> h_in_, h_out_;
  cudalab::device_buffer<float> d_in_, d_out_;
};

}  // namespace testlab

CUDALAB_REGISTER_LAB(testlab::test_lab)
