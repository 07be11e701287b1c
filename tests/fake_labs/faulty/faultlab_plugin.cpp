// The fault lab: a test plugin whose variants fail on purpose - an out-of-bounds write (illegal
// address), a kernel that never ends, a wrong result, a copy made on the first launch only, a copy made
// only when the output is found poisoned, a persisting-L2 window left set for the launches after - and
// whose setup can throw, beside a correct copy.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "cudalab/compare.hpp"
#include "cudalab/cuda_error.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/plugin.hpp"
#include "cudalab/variant_table.hpp"
#include "faultlab.hpp"
#include "faultlab_kernels.cuh"

namespace faultlab {

namespace {

enum class fault { none, oob_write, spin_forever, wrong_value, first_launch_only, when_checked, persisting_l2 };

const cudalab::variant_table<fault> variants = {
    {"copy", "a correct coalesced copy", fault::none},
    {"oob_write", "writes 1 TiB past the end of its output: illegal address", fault::oob_write},
    {"spin_forever", "a kernel that never ends", fault::spin_forever},
    {"wrong_value", "adds 1 to every element: verification fails", fault::wrong_value},
    {"lazy", "copies on its first launch only, then one element per launch (a cached answer)",
     fault::first_launch_only},
    {"when_checked",
     "copies only when it finds its output poisoned, as a checked run leaves it (work only when checked)",
     fault::when_checked},
    {"persisting_l2",
     "a correct copy that first sets a persisting-L2 set-aside and window over its input, once, left set for the "
     "launches after it (changed device state)",
     fault::persisting_l2},
};

class fault_point final : public cudalab::lab_point {
 public:
  fault_point(const cudalab::params& p, cudalab::session& s)
      : n_(static_cast<std::uint64_t>(p.integer("n"))), block_(static_cast<int>(p.integer("block"))) {
    if (p.boolean("fail_setup")) throw std::runtime_error("faultlab setup refuses on purpose (fail_setup = true)");
    h_in_.resize(n_);
    for (std::uint64_t i = 0; i < n_; ++i) h_in_[i] = static_cast<float>(i % 1000) * 0.25f;
    d_in_ = s.input(h_in_);
    d_out_ = s.output<float>(n_);
    d_flag_ = s.input(std::vector<int>{0});
  }

  void run(cudalab::variant_index v, cudaStream_t stream) override {
    switch (variants[v]) {
      case fault::oob_write:
        return launch_oob_write(d_out_.data(), n_, block_, stream);
      case fault::spin_forever:
        return launch_spin_forever(d_flag_.data(), d_out_.data(), stream);
      case fault::wrong_value:
        return launch_wrong_value(d_in_.data(), d_out_.data(), n_, block_, stream);
      case fault::first_launch_only:
        // A static counter in a student's launcher: the whole copy when checked once, then one element per
        // launch (a launch is still timed, the work is skipped).
        return launch_copy(d_in_.data(), d_out_.data(), lazy_launches_++ == 0 ? n_ : 1, block_, stream);
      case fault::when_checked:
        // A launcher that looks at its output first: poisoned (a NaN whose bits are all ones, as the host
        // fills it before a checked run) means checked, so it copies; anything else, the last launch's
        // answer, means timed, so it does nothing.
        if (output_poisoned(stream)) launch_copy(d_in_.data(), d_out_.data(), n_, block_, stream);
        return;
      case fault::persisting_l2:
        if (!window_set_) keep_input_in_l2(stream);
        return launch_copy(d_in_.data(), d_out_.data(), n_, block_, stream);
      case fault::none:
        return launch_copy(d_in_.data(), d_out_.data(), n_, block_, stream);
    }
  }

  cudalab::verification verify(cudalab::variant_index, const cudalab::lab_context& ctx) override {
    return cudalab::compare_exact(d_out_, h_in_, ctx.stream);
  }

 private:
  bool output_poisoned(cudaStream_t stream) const {
    std::uint32_t first = 0;
    CUDALAB_CUDA_CHECK(cudaMemcpyAsync(&first, d_out_.data(), sizeof first, cudaMemcpyDeviceToHost, stream));
    CUDALAB_CUDA_CHECK(cudaStreamSynchronize(stream));
    return first == 0xFFFFFFFFu;
  }

  // The persisting-L2 trick: an L2 set-aside and an access policy window marking the input persisting,
  // set once on the lab's stream, so that the input stays resident across the launches that follow.
  void keep_input_in_l2(cudaStream_t stream) {
    int device = 0, most = 0, window_most = 0;
    CUDALAB_CUDA_CHECK(cudaGetDevice(&device));
    CUDALAB_CUDA_CHECK(cudaDeviceGetAttribute(&most, cudaDevAttrMaxPersistingL2CacheSize, device));
    CUDALAB_CUDA_CHECK(cudaDeviceGetAttribute(&window_most, cudaDevAttrMaxAccessPolicyWindowSize, device));
    const std::size_t bytes = n_ * sizeof(float);
    CUDALAB_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, std::min<std::size_t>(bytes, most)));
    cudaStreamAttrValue window{};
    window.accessPolicyWindow.base_ptr = const_cast<float*>(d_in_.data());
    window.accessPolicyWindow.num_bytes = window_most > 0 ? std::min<std::size_t>(bytes, window_most) : bytes;
    window.accessPolicyWindow.hitRatio = 1.0f;
    window.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    window.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    CUDALAB_CUDA_CHECK(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &window));
    window_set_ = true;
  }

  std::uint64_t n_;
  int block_;
  std::uint64_t lazy_launches_ = 0;
  bool window_set_ = false;
  std::vector<float> h_in_;
  cudalab::device_buffer<float> d_in_, d_out_;
  cudalab::device_buffer<int> d_flag_;
};

}  // namespace

class fault_lab final : public cudalab::lab {
 public:
  cudalab::lab_spec spec() const override {
    cudalab::lab_spec s;
    s.name = "faultlab";
    s.title = "Fault lab: kernels that fail on purpose (for testing cudalab itself)";
    s.summary =
        "A correct copy beside an out-of-bounds write, a kernel that never ends, a wrong result, a copy made on "
        "the first launch only, one made only when its output is poisoned and one that leaves a persisting-L2 "
        "window set. Not a user lab.";
    s.params = {
        cudalab::param_spec::integer("n", 1 << 16, 1, 1 << 26, "elements", "floats per buffer"),
        cudalab::param_spec::integer("block", 256, 32, 1024, "threads", "threads per block"),
        cudalab::param_spec::boolean("fail_setup", false, "setup throws (a lab error before any variant runs)"),
    };
    s.variants = variants.specs();
    s.baseline = "copy";
    return s;
  }

  cudalab::requirements requirements_of(const cudalab::params& p) const override {
    const auto bytes = static_cast<std::uint64_t>(p.integer("n")) * sizeof(float);
    return {2 * bytes + sizeof(int), 0, 2 * bytes};
  }

  cudalab::traffic traffic_of(const cudalab::params& p, cudalab::variant_index) const override {
    const auto bytes = static_cast<std::uint64_t>(p.integer("n")) * sizeof(float);
    return {bytes, bytes, cudalab::memory_path::device};
  }

  void trace(const cudalab::params&, cudalab::variant_index, const cudalab::lab_context&,
             cudalab::trace_sink&) const override {}

  std::unique_ptr<cudalab::lab_point> setup(const cudalab::params& p, cudalab::session& s) const override {
    return std::make_unique<fault_point>(p, s);
  }
};

}  // namespace faultlab

CUDALAB_REGISTER_LAB(faultlab::fault_lab)
