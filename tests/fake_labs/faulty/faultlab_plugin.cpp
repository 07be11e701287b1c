// The fault lab: a test plugin whose variants fail on purpose - an out-of-bounds write (illegal
// address), a kernel that never ends, a wrong result - and whose setup can throw, beside a correct copy.
#include <stdexcept>
#include <vector>

#include "cudalab/device_buffer.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/plugin.hpp"
#include "faultlab.hpp"
#include "faultlab_kernels.cuh"

namespace faultlab {

class fault_lab final : public cudalab::lab {
 public:
  cudalab::lab_spec spec() const override {
    cudalab::lab_spec s;
    s.name = "faultlab";
    s.title = "Fault lab: kernels that fail on purpose (for testing cudalab itself)";
    s.summary = "A correct copy beside an out-of-bounds write, a kernel that never ends and a wrong result. Not a user lab.";
    s.params = {
        cudalab::param_spec::integer("n", 1 << 16, 1, 1 << 26, "elements", "floats per buffer"),
        cudalab::param_spec::integer("block", 256, 32, 1024, "threads", "threads per block"),
        cudalab::param_spec::boolean("fail_setup", false, "setup throws (a lab error before any variant runs)"),
    };
    s.variants = {{"copy", "a correct coalesced copy"},
                  {"oob_write", "writes 1 TiB past the end of its output: illegal address"},
                  {"spin_forever", "a kernel that never ends"},
                  {"wrong_value", "adds 1 to every element: verification fails"}};
    s.baseline = "copy";
    return s;
  }

  cudalab::requirements require(const cudalab::params& p) const override {
    const auto bytes = static_cast<std::uint64_t>(p.integer("n")) * sizeof(float);
    return {2 * bytes + sizeof(int), 0, 2 * bytes};
  }

  void setup(const cudalab::params& p, cudalab::session& s) override {
    if (p.boolean("fail_setup")) throw std::runtime_error("faultlab setup refuses on purpose (fail_setup = true)");
    n_ = static_cast<std::uint64_t>(p.integer("n"));
    block_ = static_cast<int>(p.integer("block"));
    h_in_.resize(n_);
    for (std::uint64_t i = 0; i < n_; ++i) h_in_[i] = static_cast<float>(i % 1000) * 0.25f;
    d_in_ = cudalab::device_buffer<float>(n_);
    d_out_ = cudalab::device_buffer<float>(n_);
    d_flag_ = cudalab::device_buffer<int>(1);
    d_in_.upload(h_in_.data(), s.stream());
    const int zero = 0;
    d_flag_.upload(&zero, s.stream());
    s.register_output(d_out_.data(), d_out_.bytes(), cudalab::memory_kind::device);
    h_out_.resize(n_);
    stream_ = s.stream();
  }

  cudalab::traffic traffic_of(const cudalab::variant_spec&) const override {
    return {n_ * sizeof(float), n_ * sizeof(float), cudalab::memory_path::device};
  }

  void run(const cudalab::variant_spec& v, cudaStream_t stream) override {
    if (v.name == "oob_write") {
      launch_oob_write(d_out_.data(), n_, block_, stream);
    } else if (v.name == "spin_forever") {
      launch_spin_forever(d_flag_.data(), d_out_.data(), stream);
    } else if (v.name == "wrong_value") {
      launch_wrong_value(d_in_.data(), d_out_.data(), n_, block_, stream);
    } else {
      launch_copy(d_in_.data(), d_out_.data(), n_, block_, stream);
    }
  }

  cudalab::check verify(const cudalab::variant_spec&) override {
    d_out_.download(h_out_.data(), stream_);
    CUDALAB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return cudalab::compare_exact(h_out_.data(), h_in_.data(), n_);
  }

  void trace(const cudalab::params&, const cudalab::variant_spec&, cudalab::trace_sink&) const override {}

  void teardown() noexcept override {
    d_in_ = {};
    d_out_ = {};
    d_flag_ = {};
    h_in_ = {};
    h_out_ = {};
  }

 private:
  std::uint64_t n_ = 0;
  int block_ = 256;
  cudaStream_t stream_ = nullptr;
  std::vector<float> h_in_, h_out_;
  cudalab::device_buffer<float> d_in_, d_out_;
  cudalab::device_buffer<int> d_flag_;
};

}  // namespace faultlab

CUDALAB_REGISTER_LAB(faultlab::fault_lab)
