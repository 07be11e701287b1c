// The reduction lab: summing an array, from the textbook shared-memory tree to a single-pass kernel that races CUB.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "cudalab/compare.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/plugin.hpp"
#include "cudalab/variant_table.hpp"
#include "reduction.hpp"
#include "reduction_kernels.cuh"
#include "reduction_slot_sources.hpp"

namespace reduction {

namespace {

/// What a variant runs: one of the hand-written kernels, or none for the library call (CUB).
struct variant_policy {
  std::optional<kernel> hand_written;
};

const cudalab::variant_table<variant_policy> variants = {
    {"interleaved_divergent",
     "1: interleaved pairs, tid % (2s) == 0 adds: divergent warps, a modulo per step",
     {kernel::interleaved_divergent}},
    {"interleaved_strided",
     "2: interleaved pairs at word 2*s*tid: no divergence, 2- to 32-way bank conflicts",
     {kernel::interleaved_strided}},
    {"sequential",
     "3: sequential addressing, tid < s adds tid + s: no conflicts, half the threads idle",
     {kernel::sequential}},
    {"first_add", "4: two elements added per thread during the load: half the blocks", {kernel::first_add}},
    {"unroll_last_warp",
     "5: first add, the last six steps by one warp with __syncwarp only",
     {kernel::unroll_last_warp}},
    {"unroll_complete", "6: every tree step unrolled for a compile-time block size", {kernel::unroll_complete}},
    {"grid_stride",
     "7: one wave of blocks, many elements per thread in a grid-stride loop, unrolled tree",
     {kernel::grid_stride}},
    {"warp_shuffle", "8: grid-stride loop, __shfl_down_sync in registers, one shared stage", {kernel::warp_shuffle}},
    {"vector_single_pass",
     "9: 16-byte loads, 4 in flight per thread, shuffles, one launch (last block finishes)",
     {kernel::vector_single_pass}},
    {"cub", "cub::DeviceReduce::Sum (the baseline)", {std::nullopt}},
};

unsigned log2_of(std::uint64_t v) {
  unsigned l = 0;
  while ((std::uint64_t(1) << l) < v) ++l;
  return l;
}

std::uint64_t div_up(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

/// The longest chain of dependent float additions any input element goes through in kernel k's
/// order (d in the error bound gamma_d * sum|x|). The shuffle stage counts 10 levels (5 + 5).
std::uint64_t addition_depth(kernel k, const std::vector<pass>& passes, unsigned block) {
  std::uint64_t d = 0;
  const unsigned tree = log2_of(block);
  for (const pass& p : passes) {
    const std::uint64_t threads = p.blocks * block;
    switch (k) {
      case kernel::grid_stride:
        d += div_up(p.count, threads) + tree;
        break;
      case kernel::warp_shuffle:
        d += div_up(p.count, threads) + 10;
        break;
      case kernel::vector_single_pass:
        // Per thread: its vectors (2 adds inside each) and one tail element; then the block, then
        // the last block's loop over the partials and its block reduction.
        d += div_up(p.count / vector_width, threads) + 3 + 10 + div_up(p.blocks, block) + 10;
        break;
      default:
        d += (loads_per_thread(k) - 1) + tree;
        break;
    }
  }
  return d;
}

/// One sweep point for element type T: the input (made on the GPU from the seed) and the reference
/// sums (computed on the GPU), scratch, result and CUB storage on the device, and the passes each
/// variant launches. Only `n` and `type` shape the data: `block` is a tuning parameter (retune()
/// plans the passes again and grows the scratch if the new block needs more).
template <class T>
class reduction_point final : public cudalab::lab_point {
 public:
  reduction_point(const settings& s, cudalab::session& session)
      : n_(s.n), sm_count_(std::max(1, session.device().sm_count)) {
    d_in_ = cudalab::device_buffer<T>(n_);
    fill_input<T>(d_in_.data(), n_, session.seed(), session.stream());
    session.register_input(d_in_.data(), d_in_.bytes(), cudalab::memory_kind::device);
    // The reference: exact integer sums of the input (units of 2^-24 for float), on the GPU.
    const exact_sums sums = reference_sums<T>(d_in_.data(), n_, session.stream());
    if constexpr (std::is_integral_v<T>) {
      ref_int_ = sums.sum;
      ref_sum_ = double(sums.sum);
      ref_abs_ = double(sums.abs_sum);
    } else {
      ref_sum_ = std::ldexp(double(sums.sum), -24);
      ref_abs_ = std::ldexp(double(sums.abs_sum), -24);
    }
    plan(s.block);
    d_counter_ = cudalab::device_buffer<unsigned>(1);
    d_counter_.fill_bytes(0, session.stream());  // kernel 9 leaves it at 0 again for the next launch
    cub_temp_bytes_ = cub_sum_temp_bytes<T>(n_);
    d_cub_temp_ = cudalab::device_buffer<unsigned char>(std::max<std::size_t>(cub_temp_bytes_, 1));
    d_result_ = session.output<T>(1);
  }

  void retune(const cudalab::params& p) override { plan(parameters.read(p).block); }

  void run(cudalab::variant_index v, cudaStream_t stream) override {
    const std::optional<kernel> k = variants[v].hand_written;
    if (!k) return launch_cub_sum<T>(d_cub_temp_.data(), cub_temp_bytes_, d_in_.data(), d_result_.data(), n_, stream);
    const std::vector<pass>& passes = passes_[v];
    if (*k == kernel::vector_single_pass)
      return launch_vector_single_pass<T>(d_in_.data(), d_partials_.data(), d_counter_.data(), d_result_.data(), n_,
                                          passes.front().blocks, block_, stream);
    const T* src = d_in_.data();
    for (std::size_t i = 0; i < passes.size(); ++i) {
      T* dst = passes[i].blocks == 1 ? d_result_.data() : (i % 2 == 0 ? d_scratch_a_.data() : d_scratch_b_.data());
      launch_pass<T>(*k, src, dst, passes[i].count, passes[i].blocks, block_, stream);
      src = dst;
    }
  }

  // Slot reduce_sum (warp_shuffle's job, float only): the student's launcher gets the input, the result
  // and the first ping-pong scratch array, which holds at least ceil(n / block) >= ceil(n / 1024) floats.
  void run_slot(const std::string& slot, const cudalab::slot_code& code, cudaStream_t stream) override {
    if constexpr (!std::is_same_v<T, float>) {
      (void)code;
      (void)stream;
      throw std::invalid_argument("slot " + slot + " sums floats: run it at type = \"float\"");
    } else {
      using entry = cudaError_t(const float*, unsigned long long, float*, float*, unsigned long long, cudaStream_t);
      CUDALAB_CUDA_CHECK(
          code.entry<entry>()(d_in_.data(), n_, d_result_.data(), d_scratch_a_.data(), d_scratch_a_.size(), stream));
    }
  }

  cudalab::verification verify(cudalab::variant_index v, const cudalab::lab_context& ctx) override {
    const T got = cudalab::download(d_result_, ctx.stream)[0];
    const std::optional<kernel> k = variants[v].hand_written;
    const std::vector<pass>& passes = passes_[v];
    std::ostringstream order;
    if (k)
      order << passes.size() << (passes.size() == 1 ? " launch" : " launches") << ", first grid "
            << passes.front().blocks << " x " << block_;
    else
      order << "CUB's order is unspecified";
    cudalab::verification result;
    if constexpr (std::is_integral_v<T>) {
      // Two's-complement addition is associative modulo 2^32, so every order gives the same bits.
      const auto expected = static_cast<T>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(ref_int_)));
      result = cudalab::compare_scalar(double(got), double(expected), 0.0,
                                       "exact (int sums wrap modulo 2^32 on both sides)");
      result.note = "int sum of " + std::to_string(n_) +
                    " values in [-100, 100]; reference: int64 sum computed on the GPU; " + order.str();
    } else {
      // Float: any summation tree of depth d has |error| <= gamma_d * sum|x|, gamma_d = d*u/(1-d*u),
      // u = 2^-24. d follows the variant's order; CUB's order is unknown, so it gets a generous d.
      const std::uint64_t d = k ? addition_depth(*k, passes, block_) : div_up(n_, 1u << 14) + 2 * log2_of(n_) + 16;
      const double u = std::ldexp(1.0, -24);
      const double du = std::min(0.5, double(d) * u);
      const double tol = du / (1.0 - du) * ref_abs_ + std::numeric_limits<float>::denorm_min();
      std::ostringstream rule;
      rule << "|got - ref| <= gamma_d * sum|x| = " << tol << " (d = " << d << " additions deep, u = 2^-24)";
      result = cudalab::compare_scalar(double(got), ref_sum_, tol, rule.str());
      result.note = "reference: exact sum of " + std::to_string(n_) +
                    " floats in [0, 1), computed on the GPU in 64-bit integers (units of 2^-24); " + order.str();
    }
    if (k == kernel::vector_single_pass) {
      // The last block must leave the arrival counter at 0, or the next launch finds no last block.
      const unsigned counter = cudalab::download(d_counter_, ctx.stream)[0];
      if (counter != 0) {
        result.passed = false;
        result.note += "; the arrival counter was left at " + std::to_string(counter) + ", not 0";
      }
    }
    return result;
  }

 private:
  /// Runs the point at `block`: the passes of every variant (one wave of resident blocks per
  /// grid-stride kernel, from this GPU's occupancy calculator), and scratch enough for them. Scratch
  /// only grows: a sweep over block sizes keeps what the smallest needed. The input is not touched.
  void plan(unsigned block) {
    block_ = block;
    auto wave_of = [&](kernel k) {
      if (!is_grid_stride(k)) return std::uint64_t(1);
      return std::uint64_t(sm_count_) * std::uint64_t(resident_blocks_per_sm<T>(k, block_));
    };
    passes_.assign(variants.size(), std::vector<pass>{});
    for (cudalab::variant_index v = 0; v < variants.size(); ++v)
      if (const std::optional<kernel> k = variants[v].hand_written)
        passes_[v] = reduction_passes(*k, n_, block_, wave_of(*k));
    // Ping-pong scratch for the multi-pass kernels: the first pass writes at most ceil(n / block)
    // partials, the second at most ceil(that / block), later ones fewer again.
    const std::uint64_t first = std::max<std::uint64_t>(div_up(n_, block_), 1);
    hold_at_least(d_scratch_a_, first);
    hold_at_least(d_scratch_b_, std::max<std::uint64_t>(div_up(first, block_), 1));
    hold_at_least(d_partials_, wave_of(kernel::vector_single_pass));
  }

  /// Reallocates `buffer` (its contents are scratch) when it holds fewer than `count` elements.
  static void hold_at_least(cudalab::device_buffer<T>& buffer, std::uint64_t count) {
    if (buffer.size() < count) buffer = cudalab::device_buffer<T>(count);
  }

  std::uint64_t n_;
  int sm_count_;
  unsigned block_ = 0;
  std::vector<std::vector<pass>> passes_;  ///< per variant; empty for CUB
  double ref_sum_ = 0.0, ref_abs_ = 0.0;
  std::int64_t ref_int_ = 0;
  std::size_t cub_temp_bytes_ = 0;
  cudalab::device_buffer<T> d_in_, d_scratch_a_, d_scratch_b_, d_partials_, d_result_;
  cudalab::device_buffer<unsigned> d_counter_;
  cudalab::device_buffer<unsigned char> d_cub_temp_;
};

}  // namespace

class reduction_lab final : public cudalab::lab {
 public:
  cudalab::lab_spec spec() const override {
    cudalab::lab_spec s;
    s.name = "reduction";
    s.title = "Parallel reduction: from the textbook shared-memory tree to faster than CUB";
    s.summary =
        "Sums n floats or ints to one value on the GPU. Nine hand-written kernels retrace the classic "
        "progression: interleaved addressing with divergent warps, then with a strided index (bank "
        "conflicts), sequential addressing, the first add during the load, the last warp unrolled, the whole "
        "tree unrolled, many elements per thread, warp shuffles, and finally 16-byte loads in one launch "
        "finished by the last block. Multi-pass kernels reduce their partial sums with further launches on the "
        "GPU. cub::DeviceReduce::Sum is the baseline. Traffic is the n elements read (plus one written).";
    s.params = parameters.specs();
    s.variants = variants.specs();
    s.baseline = "cub";
    s.slots = {{"reduce_sum", cudalab::slot_kind::launcher, "warp_shuffle",
                "sum n floats into one on the device: a launcher that picks the passes, grids and blocks", "reduce_sum",
                "reduce_sum.cu", cudalab_slot_source::reduce_sum_cu}};
    return s;
  }

  cudalab::requirements requirements_of(const cudalab::params& p) const override {
    return requirements_at(parameters.read(p).n);
  }

  cudalab::traffic traffic_of(const cudalab::params& p, cudalab::variant_index) const override {
    return {parameters.read(p).n * element_bytes, element_bytes, cudalab::memory_path::device};
  }

  void trace(const cudalab::params& p, cudalab::variant_index v, const cudalab::lab_context& ctx,
             cudalab::trace_sink& sink) const override {
    const std::optional<kernel> k = variants[v].hand_written;
    if (!k) return;  // CUB: a library call, not modelled
    trace_kernel(*k, parameters.read(p), ctx.device, sink);
  }

  std::unique_ptr<cudalab::lab_point> setup(const cudalab::params& p, cudalab::session& s) const override {
    const settings at = parameters.read(p);
    if (at.type == element_type::int32) return std::make_unique<reduction_point<int>>(at, s);
    return std::make_unique<reduction_point<float>>(at, s);
  }
};

}  // namespace reduction

CUDALAB_REGISTER_LAB(reduction::reduction_lab)
