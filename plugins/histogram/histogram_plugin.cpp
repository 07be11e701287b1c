// The histogram lab: counting values into bins with global atomics, a shared-memory histogram per block (4- or
// 16-byte loads), and warp-aggregated atomics, on inputs that spread the lanes or pile them on one bin (contention).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cudalab/compare.hpp"
#include "cudalab/host_parallel.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/plugin.hpp"
#include "cudalab/variant_table.hpp"
#include "histogram.hpp"
#include "histogram_kernels.cuh"

namespace histogram {

namespace {

/// What a variant runs: one of the hand-written kernels, or none for the library call (CUB).
struct variant_policy {
  std::optional<kernel> hand_written;
};

const cudalab::variant_table<variant_policy> variants = {
    {"global_atomics",
     "atomicAdd(&counts[v], 1) to global memory from every thread: lanes on one bin are served one by one",
     {kernel::global_atomics}},
    {"shared_privatized",
     "a histogram per block in shared memory (shared atomics), then one global atomic per bin the block counted",
     {kernel::shared_privatized}},
    {"shared_vectorized",
     "shared_privatized with 16-byte loads: each thread reads 4 values as one uint4, then does their 4 shared atomics",
     {kernel::shared_vectorized}},
    {"warp_aggregated",
     "__match_any_sync groups a warp's lanes by bin; one global atomic per distinct bin adds the group's size",
     {kernel::warp_aggregated}},
    {"cub", "cub::DeviceHistogram::HistogramEven (the baseline)", {std::nullopt}},
};

/// The exact counts of the point's n values, on the host: the same function of the seed that filled
/// the input on the GPU, value by value, on every core (a chunk of the values each, their counts summed).
/// It was most of a quick run of this lab: 2^26 values a point, one after another.
std::vector<std::uint32_t> reference_counts(const settings& s, std::uint64_t seed) {
  const input_values values = s.values(seed);
  const unsigned chunks = cudalab::host_chunks(s.n);
  std::vector<std::vector<std::uint32_t>> partial(chunks, std::vector<std::uint32_t>(s.bins, 0));
  cudalab::for_each_chunk(s.n, chunks, [&](unsigned c, std::uint64_t begin, std::uint64_t end) {
    std::vector<std::uint32_t>& counts = partial[c];
    for (std::uint64_t i = begin; i < end; ++i) ++counts[values(i)];
  });
  std::vector<std::uint32_t> counts(s.bins, 0);
  for (const std::vector<std::uint32_t>& p : partial)
    for (unsigned b = 0; b < s.bins; ++b) counts[b] += p[b];
  return counts;
}

/// One sweep point: the input (made on the GPU from the seed), the reference counts (on the host), the
/// counts the variants add into (zeroed by the host before every run), CUB's scratch. `block` tunes:
/// retune() takes a new block and grid; the input and the reference stay.
class histogram_point final : public cudalab::lab_point {
 public:
  histogram_point(const settings& s, cudalab::session& session) : s_(s), device_(session.device()) {
    d_values_ = cudalab::device_buffer<std::uint32_t>(s_.n);
    fill_input(d_values_.data(), s_.n, s_.values(session.seed()), session.stream());
    session.register_input(d_values_.data(), d_values_.bytes(), cudalab::memory_kind::device);
    reference_ = reference_counts(s_, session.seed());
    cub_temp_bytes_ = cub_histogram_temp_bytes(s_.n, s_.bins);
    d_cub_temp_ = cudalab::device_buffer<unsigned char>(std::max<std::size_t>(cub_temp_bytes_, 1));
    d_counts_ = session.output<std::uint32_t>(s_.bins, cudalab::output_init::zero);
    plan(s_.block);
  }

  void retune(const cudalab::params& p) override { plan(parameters.read(p).block); }

  void run(cudalab::variant_index v, cudaStream_t stream) override {
    const std::optional<kernel> k = variants[v].hand_written;
    if (!k)
      return launch_cub_histogram(d_cub_temp_.data(), cub_temp_bytes_, d_values_.data(), s_.n, d_counts_.data(),
                                  s_.bins, stream);
    launch_histogram(*k, d_values_.data(), s_.n, d_counts_.data(), s_.bins, blocks_, s_.block, stream);
  }

  cudalab::verification verify(cudalab::variant_index v, const cudalab::lab_context& ctx) override {
    cudalab::verification result = cudalab::compare_exact(d_counts_, reference_, ctx.stream);
    result.note = "reference: the counts of " + std::to_string(s_.n) + " " + distributions.name_of(s_.shape) +
                  " values in " + std::to_string(s_.bins) +
                  " bins, counted on the host from the seed that filled the input";
    if (variants[v].hand_written) result.note += "; grid " + std::to_string(blocks_) + " x " + std::to_string(s_.block);
    return result;
  }

 private:
  /// Runs the point at `block`: the grid every hand-written kernel launches (trace() sizes it alike).
  void plan(unsigned block) {
    s_.block = block;
    blocks_ = grid_blocks(s_.n, s_.block, device_.sm_count, device_.max_threads_per_sm);
  }

  settings s_;
  cudalab::device_info device_;
  unsigned blocks_ = 1;
  std::vector<std::uint32_t> reference_;
  std::size_t cub_temp_bytes_ = 0;
  cudalab::device_buffer<std::uint32_t> d_values_, d_counts_;
  cudalab::device_buffer<unsigned char> d_cub_temp_;
};

}  // namespace

class histogram_lab final : public cudalab::lab {
 public:
  cudalab::lab_spec spec() const override {
    cudalab::lab_spec s;
    s.name = "histogram";
    s.title = "Histogram: contention on global and shared-memory atomics";
    s.summary =
        "Counts n values (uint32 bin indices in [0, bins)) into `bins` counters. Lanes of a warp that add to "
        "the same counter are served one after another: on a skewed input, where most values fall in one bin, "
        "atomics serialise. Four kernels: global atomics from every thread; a histogram per block in shared "
        "memory, added to the global one at the end (privatization), with 4-byte or 16-byte loads; and warp-aggregated "
        "atomics, where "
        "__match_any_sync groups the lanes of a bin and one of them adds for all. cub::DeviceHistogram::"
        "HistogramEven is the baseline. Inputs: uniform (lanes scatter over the bins), skewed (a fraction "
        "hot_fraction in bin 0, the rest uniform) or cyclic (value i in bin i mod bins: no two lanes of a warp "
        "alike when bins >= 32). Traffic is the n values read and the bins written.";
    s.params = parameters.specs();
    s.variants = variants.specs();
    s.baseline = "cub";
    return s;
  }

  cudalab::requirements requirements_of(const cudalab::params& p) const override {
    const settings s = parameters.read(p);
    return requirements_at(s.n, s.bins);
  }

  cudalab::traffic traffic_of(const cudalab::params& p, cudalab::variant_index) const override {
    const settings s = parameters.read(p);
    return {s.n * word_bytes, std::uint64_t(s.bins) * word_bytes, cudalab::memory_path::device};
  }

  void trace(const cudalab::params& p, cudalab::variant_index v, const cudalab::lab_context& ctx,
             cudalab::trace_sink& sink) const override {
    const std::optional<kernel> k = variants[v].hand_written;
    if (!k) return;  // CUB: a library call, not modelled
    trace_histogram(*k, parameters.read(p), ctx.device, ctx.seed, sink);
  }

  std::unique_ptr<cudalab::lab_point> setup(const cudalab::params& p, cudalab::session& s) const override {
    return std::make_unique<histogram_point>(parameters.read(p), s);
  }
};

}  // namespace histogram

CUDALAB_REGISTER_LAB(histogram::histogram_lab)
