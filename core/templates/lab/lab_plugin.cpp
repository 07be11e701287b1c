// The @LAB@ lab: scaling a float array, one float per thread against 16-byte vectors in a grid-stride loop.
#include <algorithm>
#include <memory>

#include "@LAB@.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/plugin.hpp"
#include "cudalab/variant_table.hpp"

namespace @LAB@ {

namespace {

const cudalab::variant_table<kernel> variants = {
    {"scale", "one float per thread: 4 sectors per warp request (the baseline)", kernel::one_per_thread},
    {"scale_vec4", "16-byte vectors in a grid-stride loop, `unroll` loads in flight per thread", kernel::vectors},
};

/// One sweep point: the input and the output, on the GPU. Its destructor frees them.
class scale_point final : public cudalab::lab_point {
 public:
  scale_point(const settings& s, cudalab::session& session)
      : s_(s), sm_count_(session.device().sm_count), max_threads_per_sm_(session.device().max_threads_per_sm) {
    d_in_ = cudalab::device_buffer<float>(s.n);
    fill_input(d_in_.data(), s.n, session.seed(), session.stream());  // random, made on the GPU
    session.register_input(d_in_.data(), d_in_.bytes(), cudalab::memory_kind::device);  // checked unchanged
    d_out_ = session.output<float>(s.n);  // poisoned before every verified run
    size_grid();
  }

  void retune(const cudalab::params& p) override {
    s_ = parameters.read(p);
    size_grid();
  }

  void run(cudalab::variant_index v, cudaStream_t stream) override {
    switch (variants[v]) {
      case kernel::one_per_thread:
        return launch_scale(d_in_.data(), d_out_.data(), s_.n, s_.factor, s_.block, stream);
      case kernel::vectors:
        return launch_scale_vec4(d_in_.data(), d_out_.data(), s_.n, s_.factor, s_.unroll, vec4_blocks_, s_.block,
                                 stream);
    }
  }

  cudalab::verification verify(cudalab::variant_index, const cudalab::lab_context& ctx) override {
    // Every element on the GPU: the same single multiply as the kernels, so the bits must match.
    return compare_scaled(d_out_.data(), d_in_.data(), s_.n, s_.factor, ctx.stream);
  }

 private:
  /// One wave of blocks for the grid-stride kernel: as many as the GPU keeps resident at once.
  void size_grid() {
    const std::uint64_t resident = std::uint64_t(sm_count_) * std::max(1, max_threads_per_sm_ / s_.block);
    const std::uint64_t needed = (s_.n / floats_per_vector + s_.block - 1) / s_.block;
    vec4_blocks_ = static_cast<int>(std::clamp<std::uint64_t>(needed, 1, std::max<std::uint64_t>(resident, 1)));
  }

  settings s_;
  int sm_count_, max_threads_per_sm_;
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
    s.params = parameters.specs();
    s.variants = variants.specs();
    s.baseline = "scale";
    return s;
  }

  cudalab::requirements requirements_of(const cudalab::params& p) const override {
    const std::uint64_t bytes = parameters.read(p).n * sizeof(float);
    return {2 * bytes, 0, 0};  // device: input, output; nothing on the host
  }

  cudalab::traffic traffic_of(const cudalab::params& p, cudalab::variant_index) const override {
    const std::uint64_t bytes = parameters.read(p).n * sizeof(float);
    return {bytes, bytes, cudalab::memory_path::device};  // every float read once and written once
  }

  void trace(const cudalab::params& p, cudalab::variant_index v, const cudalab::lab_context&,
             cudalab::trace_sink& sink) const override {
    trace_kernel(variants[v], parameters.read(p), sink);
  }

  std::unique_ptr<cudalab::lab_point> setup(const cudalab::params& p, cudalab::session& s) const override {
    return std::make_unique<scale_point>(parameters.read(p), s);
  }
};

}  // namespace @LAB@

CUDALAB_REGISTER_LAB(@LAB@::@LAB@_lab)
