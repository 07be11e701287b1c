// Fake labs that each make one mistake a lab author can make, selected by CUDALAB_MISTAKE when the
// plugin is built: the host must report each one naming the lab and the function (never the lab
// file, never an internal error). The lab itself copies n floats with cudaMemcpyAsync.
#include <memory>
#include <vector>

#include "cudalab/compare.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/plugin.hpp"

#define CUDALAB_MISTAKE_BAD_DEFAULT 1        // a default outside the parameter's range
#define CUDALAB_MISTAKE_DUPLICATE_VARIANT 2  // two variants of one name
#define CUDALAB_MISTAKE_THROWING_TRACE 3     // trace() asks for a parameter that does not exist
#define CUDALAB_MISTAKE_NO_OUTPUT 4          // setup() registers no output
#define CUDALAB_MISTAKE_ZERO_TRAFFIC 5       // traffic_of() returns nothing
#define CUDALAB_MISTAKE_STALE_ABI 6          // built against boundary headers that differ from the host's
#define CUDALAB_MISTAKE_BAD_SLOTS 7          // slots that stand for no variant, unpaired markers, a bad entry

namespace mistake {

class copy_point final : public cudalab::lab_point {
 public:
  copy_point(std::uint64_t n, cudalab::session& s) : expected_(n, 1.5f) {
    d_in_ = s.input(expected_);
#if CUDALAB_MISTAKE == CUDALAB_MISTAKE_NO_OUTPUT
    d_out_ = cudalab::device_buffer<float>(n);  // allocated, never registered
#else
    d_out_ = s.output<float>(n);
#endif
  }
  void run(cudalab::variant_index, cudaStream_t stream) override {
    CUDALAB_CUDA_CHECK(cudaMemcpyAsync(d_out_.data(), d_in_.data(), d_in_.bytes(), cudaMemcpyDeviceToDevice, stream));
  }
  cudalab::verification verify(cudalab::variant_index, const cudalab::lab_context& ctx) override {
    return cudalab::compare_exact(d_out_, expected_, ctx.stream);
  }

 private:
  std::vector<float> expected_;
  cudalab::device_buffer<float> d_in_, d_out_;
};

class mistake_lab final : public cudalab::lab {
 public:
  cudalab::lab_spec spec() const override {
    cudalab::lab_spec s;
    s.name = CUDALAB_MISTAKE_NAME;
    s.title = "A lab with one author's mistake (for testing cudalab itself)";
    s.summary = "Copies n floats; built to make the mistake its name says.";
#if CUDALAB_MISTAKE == CUDALAB_MISTAKE_BAD_DEFAULT
    s.params = {cudalab::param_spec::integer("n", 2048, 1, 1024, "elements", "floats to copy")};
#else
    s.params = {cudalab::param_spec::integer("n", 1024, 1, 1 << 20, "elements", "floats to copy")};
#endif
#if CUDALAB_MISTAKE == CUDALAB_MISTAKE_DUPLICATE_VARIANT
    s.variants = {{"copy", "cudaMemcpyAsync"}, { "copy", "cudaMemcpyAsync again" }};
#else
    s.variants = {{"copy", "cudaMemcpyAsync"}};
#endif
    s.baseline = "copy";
#if CUDALAB_MISTAKE == CUDALAB_MISTAKE_BAD_SLOTS
    s.slots = {{"fill", cudalab::slot_kind::kernel, "nope", "fills", "fill", "fill.cu",
                "extern \"C\" __global__ void fill() {\n  // BEGIN SOLUTION\n}\n"},
               {"copy_it", cudalab::slot_kind::launcher, "copy", "copies", "2copy", "copy_it.cu",
                "extern \"C\" int copy() { return 0; }\n"},
               { "copy_it",
                 cudalab::slot_kind::kernel,
                 "copy",
                 "again",
                 "copy",
                 "dir/copy.cu",
                 "// BEGIN SOLUTION\n// END SOLUTION\ncopy" }};
#endif
    return s;
  }

  cudalab::traffic traffic_of(const cudalab::params& p, cudalab::variant_index) const override {
#if CUDALAB_MISTAKE == CUDALAB_MISTAKE_ZERO_TRAFFIC
    (void)p;
    return {};
#else
    const auto bytes = static_cast<std::uint64_t>(p.integer("n")) * sizeof(float);
    return {bytes, bytes, cudalab::memory_path::device};
#endif
  }

  void trace(const cudalab::params& p, cudalab::variant_index, const cudalab::lab_context&,
             cudalab::trace_sink&) const override {
#if CUDALAB_MISTAKE == CUDALAB_MISTAKE_THROWING_TRACE
    (void)p.integer("blocks");  // the lab declares "n" only
#else
    (void)p;
#endif
  }

  std::unique_ptr<cudalab::lab_point> setup(const cudalab::params& p, cudalab::session& s) const override {
    return std::make_unique<copy_point>(static_cast<std::uint64_t>(p.integer("n")), s);
  }
};

}  // namespace mistake

CUDALAB_REGISTER_LAB(mistake::mistake_lab)
