// The @LAB@ lab: scaling a float array, one float per thread against 16-byte vectors in a grid-stride loop.
#include <algorithm>
#include <random>
#include <vector>

#include "@LAB@.hpp"
#include "@LAB@_kernels.cuh"
#include "cudalab/compare.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/plugin.hpp"
#include "cudalab/trace_loops.hpp"
#include "cudalab/variant_table.hpp"

namespace @LAB@ {

namespace {

/// What a variant does: which kernel it launches.
enum class kernel { one_per_thread, vectors };

const cudalab::variant_table<kernel> variants = {
    {"scale", "one float per thread: 4 sectors per warp request (the baseline)", kernel::one_per_thread},
    {"scale_vec4", "16-byte vectors in a grid-stride loop, `unroll` loads in flight per thread", kernel::vectors},
};

/// The parameters of one point, read once.
struct settings {
  std::uint64_t n;
  float factor;
  int block;
  int unroll;
  explicit settings(const cudalab::params& p)
      : n(static_cast<std::uint64_t>(p.integer("n"))),
        factor(static_cast<float>(p.real("factor"))),
        block(static_cast<int>(p.integer("block"))),
        unroll(static_cast<int>(p.integer("unroll"))) {}
};

/// One sweep point: the input, the output and the expected output. Its destructor frees them.
class scale_point final : public cudalab::lab_point {
 public:
  scale_point(const settings& s, cudalab::session& session) : s_(s) {
    std::vector<float> h_in(s.n);
    std::mt19937_64 rng(session.seed());
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (float& v : h_in) v = uniform(rng);
    expected_.resize(s.n);
    std::transform(h_in.begin(), h_in.end(), expected_.begin(), [&](float v) { return s.factor * v; });
    d_in_ = session.input(h_in);      // checked unchanged after every verified run
    d_out_ = session.output<float>(s.n);  // poisoned before every verified run
    // One wave of blocks for the grid-stride kernel: as many as the GPU keeps resident at once.
    const cudalab::device_info& gpu = session.device();
    const std::uint64_t resident = std::uint64_t(gpu.sm_count) * std::max(1, gpu.max_threads_per_sm / s.block);
    const std::uint64_t needed = (s.n / 4 + s.block - 1) / s.block;
    vec4_blocks_ = static_cast<int>(std::clamp<std::uint64_t>(needed, 1, std::max<std::uint64_t>(resident, 1)));
  }

  void run(cudalab::variant_index v, cudaStream_t stream) override {
    switch (variants[v]) {
      case kernel::one_per_thread: return launch_scale(d_in_.data(), d_out_.data(), s_.n, s_.factor, s_.block, stream);
      case kernel::vectors:
        return launch_scale_vec4(d_in_.data(), d_out_.data(), s_.n, s_.factor, s_.unroll, vec4_blocks_, s_.block,
                                 stream);
    }
  }

  cudalab::verification verify(cudalab::variant_index, const cudalab::lab_context& ctx) override {
    // The GPU multiplies the same two floats once, as the reference does: the bits must match.
    return cudalab::compare_exact(d_out_, expected_, ctx.stream);
  }

 private:
  settings s_;
  std::vector<float> expected_;
  cudalab::device_buffer<float> d_in_, d_out_;
  int vec4_blocks_ = 1;
};

}  // namespace

class @LAB@_lab final : public cudalab::lab {
 public:
  cudalab::lab_spec spec() const override {
    cudalab::lab_spec s;
    s.name = "@LAB@";
    s.title = "Scaling a float array: one float per thread against 16-byte vectors";
    s.summary =
        "Computes out[i] = factor * in[i]. The baseline gives each thread one float; scale_vec4 moves 16-byte "
        "vectors through a grid-stride loop with `unroll` loads in flight per thread. Both read and write every "
        "byte once, so the difference is in how many memory instructions carry them.";
    s.params = {
        cudalab::param_spec::integer("n", std::int64_t(1) << 26, 1, std::int64_t(1) << 31, "elements",
                                     "floats in the input and in the output"),
        cudalab::param_spec::real("factor", 2.5, -1e6, 1e6, "", "what every element is multiplied by"),
        cudalab::param_spec::integer("block", 256, 32, 1024, "threads", "threads per block, whole warps").multiple(32),
        cudalab::param_spec::integer("unroll", 1, 1, 4, "vectors", "vectors in flight per thread in scale_vec4")
            .only(unrolls::values()),
    };
    s.variants = variants.specs();
    s.baseline = "scale";
    return s;
  }

  cudalab::requirements requirements_of(const cudalab::params& p) const override {
    const std::uint64_t bytes = static_cast<std::uint64_t>(p.integer("n")) * sizeof(float);
    return {2 * bytes, 0, 2 * bytes};  // device: input, output; host: input, expected output
  }

  cudalab::traffic traffic_of(const cudalab::params& p, cudalab::variant_index) const override {
    const std::uint64_t bytes = static_cast<std::uint64_t>(p.integer("n")) * sizeof(float);
    return {bytes, bytes, cudalab::memory_path::device};  // every float read once and written once
  }

  void trace(const cudalab::params& p, cudalab::variant_index v, const cudalab::lab_context&,
             cudalab::trace_sink& sink) const override {
    using cudalab::access_kind;
    using cudalab::memory_space;
    const settings s(p);
    if (variants[v] == kernel::one_per_thread) {
      // Block 0 stands for every block but the last, which holds the tail.
      const std::uint64_t block = static_cast<std::uint64_t>(s.block);
      sink.trace_blocks((s.n + block - 1) / block, [&](std::uint64_t b) {
        for (std::uint64_t w = 0; w < block / 32; ++w) {
          auto address = [&](unsigned lane) -> long long {
            const std::uint64_t i = first_item(b, block, w * 32 + lane);
            return i < s.n ? static_cast<long long>(i * sizeof(float)) : -1;
          };
          sink.warp(memory_space::global, access_kind::load, 4, address);
          sink.warp(memory_space::global, access_kind::store, 4, address);
        }
      });
      return;
    }
    // The grid-stride loop: whatever the grid and unroll, its warp steps are the aligned runs of 32 vectors.
    cudalab::trace_warp_steps(sink, s.n / 4, [&](std::uint64_t first, unsigned lanes) {
      auto address = [&](unsigned lane) -> long long { return lane < lanes ? static_cast<long long>((first + lane) * 16) : -1; };
      sink.warp(memory_space::global, access_kind::load, 16, address);
      sink.warp(memory_space::global, access_kind::store, 16, address);
    });
    auto tail = [&](unsigned lane) -> long long {
      const std::uint64_t i = s.n / 4 * 4 + lane;
      return i < s.n ? static_cast<long long>(i * sizeof(float)) : -1;
    };
    sink.warp(memory_space::global, access_kind::load, 4, tail);
    sink.warp(memory_space::global, access_kind::store, 4, tail);
  }

  std::unique_ptr<cudalab::lab_point> setup(const cudalab::params& p, cudalab::session& s) const override {
    return std::make_unique<scale_point>(settings(p), s);
  }
};

}  // namespace @LAB@

CUDALAB_REGISTER_LAB(@LAB@::@LAB@_lab)
