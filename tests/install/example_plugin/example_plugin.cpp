// An out-of-tree example lab: writes 0..n-1 and checks it. Proves the installed package works.
#include <numeric>
#include <vector>

#include "cudalab/device_buffer.hpp"
#include "cudalab/plugin.hpp"

namespace example {

void launch_iota(int* d_out, std::uint64_t n, cudaStream_t stream);

class example_lab final : public cudalab::lab {
 public:
  cudalab::lab_spec spec() const override {
    return {"example", "Out-of-tree example: iota", "Fills an array with its indices.",
            {cudalab::param_spec::integer("n", 1000, 0, 1 << 30, "elements", "ints to write")},
            {{"iota", "one coalesced store per thread"}}, ""};
  }
  void setup(const cudalab::params& p, cudalab::session& s) override {
    n_ = static_cast<std::uint64_t>(p.integer("n"));
    d_out_ = cudalab::device_buffer<int>(n_);
    s.register_output(d_out_.data(), d_out_.bytes(), cudalab::memory_kind::device);
    stream_ = s.stream();
  }
  cudalab::traffic traffic_of(const cudalab::variant_spec&) const override { return {0, n_ * sizeof(int)}; }
  void run(const cudalab::variant_spec&, cudaStream_t stream) override { launch_iota(d_out_.data(), n_, stream); }
  cudalab::check verify(const cudalab::variant_spec&) override {
    std::vector<int> got(n_), want(n_);
    d_out_.download(got.data(), stream_);
    CUDALAB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    std::iota(want.begin(), want.end(), 0);
    return cudalab::compare_exact(got.data(), want.data(), n_);
  }
  void trace(const cudalab::params&, const cudalab::variant_spec&, cudalab::trace_sink& sink) const override {
    sink.warp(cudalab::memory_space::global, cudalab::access_kind::store, 4, [](unsigned l) { return l * 4; });
  }
  void teardown() noexcept override { d_out_ = {}; }

 private:
  std::uint64_t n_ = 0;
  cudaStream_t stream_ = nullptr;
  cudalab::device_buffer<int> d_out_;
};

}  // namespace example

CUDALAB_REGISTER_LAB(example::example_lab)
