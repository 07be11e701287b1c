// The test lab: a small plugin that walks the whole life cycle so the core is tested without real labs.
#include <random>
#include <vector>

#include "cudalab/compare.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/plugin.hpp"
#include "cudalab/variant_table.hpp"
#include "testlab.hpp"
#include "testlab_kernels.cuh"

namespace testlab {

namespace {

enum class copy_by { kernel, scaling_kernel, library };

const cudalab::variant_table<copy_by> variants = {
    {"copy", "one element per thread, fully coalesced", copy_by::kernel},
    {"scale", "copy with a long dependent chain of multiplies per element", copy_by::scaling_kernel},
    {"memcpy", "cudaMemcpyAsync device to device", copy_by::library},
};

struct settings {
  std::uint64_t n;
  int block;
  int rounds;
  double tolerance;
  bool skip_tail;
  explicit settings(const cudalab::params& p)
      : n(static_cast<std::uint64_t>(p.integer("n"))),
        block(static_cast<int>(p.integer("block"))),
        rounds(static_cast<int>(p.integer("rounds"))),
        tolerance(p.real("tolerance")),
        skip_tail(p.boolean("skip_tail")) {}
};

/// Points set up so far in this process: verify() says it, so a test sees when a sweep over the
/// tuning parameters `block` and `rounds` retunes one point instead of setting up new ones.
int setups = 0;

class test_point final : public cudalab::lab_point {
 public:
  test_point(const cudalab::params& p, cudalab::session& s) : s_(p) {
    ++setups;
    h_in_.resize(s_.n);
    if (p.choice("fill") == "ramp") {
      for (std::uint64_t i = 0; i < s_.n; ++i) h_in_[i] = static_cast<float>(i % 4096) + 0.5f;
    } else {
      std::mt19937_64 rng(s.seed());
      std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
      for (auto& v : h_in_) v = dist(rng);
    }
    d_in_ = s.input(h_in_);
    d_out_ = s.output<float>(s_.n);
  }

  void run(cudalab::variant_index v, cudaStream_t stream) override {
    const std::uint64_t n = s_.skip_tail && s_.n > 0 ? s_.n - 1 : s_.n;
    switch (variants[v]) {
      case copy_by::kernel:
        return launch_copy(d_in_.data(), d_out_.data(), n, s_.block, stream);
      case copy_by::scaling_kernel:
        return launch_scale(d_in_.data(), d_out_.data(), n, s_.rounds, s_.block, stream);
      case copy_by::library:
        if (n > 0)
          CUDALAB_CUDA_CHECK(
              cudaMemcpyAsync(d_out_.data(), d_in_.data(), n * sizeof(float), cudaMemcpyDeviceToDevice, stream));
        return;
    }
  }

  cudalab::verification verify(cudalab::variant_index v, const cudalab::lab_context& ctx) override {
    std::vector<float> expected = h_in_;
    if (variants[v] == copy_by::scaling_kernel)  // the same float multiplies as the kernel: the rounding matches
      for (auto& e : expected)
        for (int r = 0; r < s_.rounds; ++r) e = e * 0.5f;
    cudalab::verification c = s_.tolerance == 0.0
                                  ? cudalab::compare_exact(d_out_, expected, ctx.stream)
                                  : cudalab::compare_close(d_out_, expected, 0.0, s_.tolerance, ctx.stream);
    c.note = "points set up in this process: " + std::to_string(setups);
    return c;
  }

  void retune(const cudalab::params& p) override {
    const settings next(p);
    s_.block = next.block;
    s_.rounds = next.rounds;
  }

 private:
  settings s_;
  std::vector<float> h_in_;
  cudalab::device_buffer<float> d_in_, d_out_;
};

}  // namespace

class test_lab final : public cudalab::lab {
 public:
  cudalab::lab_spec spec() const override {
    cudalab::lab_spec s;
    s.name = "testlab";
    s.title = "Test lab: copies a float array (for testing cudalab itself)";
    s.summary = "A coalesced copy, a long scaled copy and cudaMemcpyAsync as the baseline. Not a user lab.";
    s.params = {
        cudalab::param_spec::integer("n", 1 << 20, 0, std::int64_t(1) << 34, "elements", "floats per buffer"),
        cudalab::param_spec::integer("block", 256, 32, 1024, "threads", "threads per block").tunes(),
        cudalab::param_spec::integer("rounds", 64, 0, 1 << 20, "", "halvings in the scale variant").tunes(),
        cudalab::param_spec::real("tolerance", 0.0, 0.0, 1.0, "", "relative tolerance of the check"),
        cudalab::param_spec::boolean("skip_tail", false, "copy one element short (a bug verify must catch)"),
        cudalab::param_spec::choice("fill", "random", {"random", "ramp"}, "input values"),
    };
    s.variants = variants.specs();
    s.baseline = "memcpy";
    return s;
  }

  // Kept as a check of its own (not param_spec::multiple) so the host's handling of check_params is tested.
  void check_params(const cudalab::params& p) const override {
    if (p.integer("block") % 32 != 0) throw std::invalid_argument("block must be a multiple of 32 (a warp)");
  }

  cudalab::requirements requirements_of(const cudalab::params& p) const override {
    const auto bytes = static_cast<std::uint64_t>(p.integer("n")) * sizeof(float);
    return {2 * bytes, 0, 3 * bytes};
  }

  cudalab::traffic traffic_of(const cudalab::params& p, cudalab::variant_index) const override {
    const auto bytes = static_cast<std::uint64_t>(p.integer("n")) * sizeof(float);
    return {bytes, bytes, cudalab::memory_path::device};
  }

  void trace(const cudalab::params& p, cudalab::variant_index v, const cudalab::lab_context&,
             cudalab::trace_sink& sink) const override {
    if (variants[v] == copy_by::library) return;  // a library copy: nothing to model
    const auto n = static_cast<std::uint64_t>(p.integer("n"));
    const auto block = static_cast<std::uint64_t>(p.integer("block"));
    // Block 0 stands for every block but the last, which holds the tail.
    sink.trace_blocks((n + block - 1) / block, [&](std::uint64_t b) {
      for (std::uint64_t w = 0; w < block / 32; ++w) {
        auto addr = [&](unsigned lane) -> long long {
          const std::uint64_t i = copy_index(b, block, w * 32 + lane);
          return i < n ? static_cast<long long>(i * sizeof(float)) : -1;
        };
        sink.warp(cudalab::memory_space::global, cudalab::access_kind::load, 4, addr);
        sink.warp(cudalab::memory_space::global, cudalab::access_kind::store, 4, addr);
      }
    });
  }

  std::unique_ptr<cudalab::lab_point> setup(const cudalab::params& p, cudalab::session& s) const override {
    return std::make_unique<test_point>(p, s);
  }
};

}  // namespace testlab

CUDALAB_REGISTER_LAB(testlab::test_lab)
