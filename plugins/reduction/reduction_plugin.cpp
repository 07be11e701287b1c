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
#include "cudalab/trace_loops.hpp"
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

/// Bytes of one element: float and int alike.
constexpr unsigned element_bytes = 4;

unsigned log2_of(std::uint64_t v) {
  unsigned l = 0;
  while ((std::uint64_t(1) << l) < v) ++l;
  return l;
}

std::uint64_t div_up(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

/// One launch of a multi-pass reduction: it reads `count` elements and writes `blocks` partials
/// (the result itself when blocks == 1).
struct pass {
  std::uint64_t count;
  std::uint64_t blocks;
};

/// The launches kernel `k` needs to reduce n elements to one; kernel 9 always needs one.
std::vector<pass> reduction_passes(kernel k, std::uint64_t n, unsigned block, std::uint64_t wave_blocks) {
  std::vector<pass> out;
  std::uint64_t count = n;
  for (;;) {
    const std::uint64_t blocks = pass_blocks(k, count, block, wave_blocks);
    out.push_back({count, blocks});
    if (blocks == 1 || k == kernel::vector_single_pass) break;
    count = blocks;
  }
  return out;
}

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
  reduction_point(const cudalab::params& p, cudalab::session& s)
      : n_(static_cast<std::uint64_t>(p.integer("n"))), sm_count_(std::max(1, s.device().sm_count)) {
    d_in_ = cudalab::device_buffer<T>(n_);
    fill_input<T>(d_in_.data(), n_, s.seed(), s.stream());
    s.register_input(d_in_.data(), d_in_.bytes(), cudalab::memory_kind::device);
    // The reference: exact integer sums of the input (units of 2^-24 for float), on the GPU.
    const exact_sums sums = reference_sums<T>(d_in_.data(), n_, s.stream());
    if constexpr (std::is_integral_v<T>) {
      ref_int_ = sums.sum;
      ref_sum_ = double(sums.sum);
      ref_abs_ = double(sums.abs_sum);
    } else {
      ref_sum_ = std::ldexp(double(sums.sum), -24);
      ref_abs_ = std::ldexp(double(sums.abs_sum), -24);
    }
    plan(static_cast<unsigned>(p.integer("block")));
    d_counter_ = cudalab::device_buffer<unsigned>(1);
    d_counter_.fill_bytes(0, s.stream());  // kernel 9 leaves it at 0 again for the next launch
    cub_temp_bytes_ = cub_sum_temp_bytes<T>(n_);
    d_cub_temp_ = cudalab::device_buffer<unsigned char>(std::max<std::size_t>(cub_temp_bytes_, 1));
    d_result_ = s.output<T>(1);
  }

  void retune(const cudalab::params& p) override { plan(static_cast<unsigned>(p.integer("block"))); }

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

// ---- trace(): the warp accesses of every pass ----

using cudalab::access_kind;
using cudalab::memory_space;

/// Emits, for every warp of a block, one step `sdata[t] += sdata[t + s]` of a shared tree: load
/// word t, load word t + s, store word t, for the threads where `target(tid)` is >= 0.
template <class Target>
void trace_tree_step(unsigned block, unsigned s, Target target, cudalab::trace_sink& sink) {
  for (unsigned w = 0; w < block / warp_size; ++w) {
    auto word = [&, w](long long offset) {
      return [&, w, offset](unsigned lane) -> long long {
        const long long t = target(w * warp_size + lane);
        return t < 0 ? -1 : (t + offset) * element_bytes;
      };
    };
    sink.warp(memory_space::shared, access_kind::load, element_bytes, word(0));
    sink.warp(memory_space::shared, access_kind::load, element_bytes, word(s));
    sink.warp(memory_space::shared, access_kind::store, element_bytes, word(0));
  }
}

/// The shared-memory tree of tree kernels 1-7 on one block, in program order.
void trace_shared_tree(kernel k, unsigned block, cudalab::trace_sink& sink) {
  auto lanes_from = [](unsigned first_word) {
    return [first_word](unsigned lane) -> long long { return (long long)(first_word + lane) * element_bytes; };
  };
  auto first_threads = [](unsigned s) { return [s](unsigned tid) -> long long { return tid < s ? tid : -1LL; }; };
  for (unsigned w = 0; w < block / warp_size; ++w)  // sdata[tid] = loaded value
    sink.warp(memory_space::shared, access_kind::store, element_bytes, lanes_from(w * warp_size));
  switch (k) {
    case kernel::interleaved_divergent:
      for (unsigned s = 1; s < block; s *= 2)
        trace_tree_step(
            block, s, [s](unsigned tid) -> long long { return divergent_adds(tid, s) ? tid : -1LL; }, sink);
      return;
    case kernel::interleaved_strided:
      for (unsigned s = 1; s < block; s *= 2)
        trace_tree_step(
            block, s,
            [s, block](unsigned tid) -> long long {
              const unsigned t = strided_word(tid, s);
              return t < block ? t : -1LL;
            },
            sink);
      return;
    case kernel::sequential:
    case kernel::first_add:
      for (unsigned s = block / 2; s > 0; s >>= 1) trace_tree_step(block, s, first_threads(s), sink);
      return;
    default:
      break;
  }
  // Kernels 5-7: block-wide steps while s > 32, then warp 0 alone (warp_reduce_shared).
  for (unsigned s = block / 2; s > 32; s >>= 1) trace_tree_step(block, s, first_threads(s), sink);
  sink.warp(memory_space::shared, access_kind::load, element_bytes, lanes_from(0));
  sink.warp(memory_space::shared, access_kind::load, element_bytes, lanes_from(32));
  for (unsigned s = 16; s > 0; s >>= 1) {
    sink.warp(memory_space::shared, access_kind::store, element_bytes, lanes_from(0));
    sink.warp(memory_space::shared, access_kind::load, element_bytes, lanes_from(s));
  }
  sink.warp(memory_space::shared, access_kind::store, element_bytes,
            [](unsigned lane) { return lane == 0 ? 0LL : -1LL; });
}

/// Thread 0 reads the block's sum from sdata[0] to write it out (kernels 1-7).
void trace_tree_result(cudalab::trace_sink& sink) {
  sink.warp(memory_space::shared, access_kind::load, element_bytes,
            [](unsigned lane) { return lane == 0 ? 0LL : -1LL; });
}

/// block_reduce_shuffle's one shared stage: lane 0 of each warp stores its total, warp 0 reads them.
void trace_shuffle_stage(unsigned block, cudalab::trace_sink& sink) {
  const unsigned warps = block / warp_size;
  for (unsigned w = 0; w < warps; ++w)
    sink.warp(memory_space::shared, access_kind::store, element_bytes,
              [&](unsigned lane) -> long long { return lane == 0 ? (long long)w * element_bytes : -1; });
  sink.warp(memory_space::shared, access_kind::load, element_bytes,
            [&](unsigned lane) -> long long { return lane < warps ? (long long)lane * element_bytes : -1; });
}

/// Kernel 9's ticket, in every block after its partial is written: thread 0 takes it with an atomic on
/// the counter and stores in shared memory (a bool after the 32 warp totals) whether its block is the
/// last; every warp then reads that flag (all lanes, one byte: a broadcast).
void trace_last_block_ticket(unsigned block, cudalab::trace_sink& sink) {
  constexpr long long flag = 32 * element_bytes;
  sink.warp(memory_space::global, access_kind::atomic, 4, [](unsigned lane) { return lane == 0 ? 0LL : -1LL; });
  sink.warp(memory_space::shared, access_kind::store, 1, [&](unsigned lane) { return lane == 0 ? flag : -1LL; });
  for (unsigned w = 0; w < block / warp_size; ++w)
    sink.warp(memory_space::shared, access_kind::load, 1, [&](unsigned) { return flag; });
}

/// Kernel 9's last block: a block-stride loop over the `blocks` partials (each warp step 32 contiguous
/// floats), the shuffle stage again, and thread 0 storing the result and resetting the counter.
void trace_last_block_finish(unsigned block, std::uint64_t blocks, cudalab::trace_sink& sink) {
  cudalab::trace_warp_steps(sink, blocks, [&](std::uint64_t first, unsigned lanes) {
    sink.warp(memory_space::global, access_kind::load, element_bytes, [&](unsigned lane) -> long long {
      return lane < lanes ? static_cast<long long>((first + lane) * element_bytes) : -1;
    });
  });
  trace_shuffle_stage(block, sink);
  for (int store = 0; store < 2; ++store)  // *d_result, then *d_counter: one lane each, apart
    sink.warp(memory_space::global, access_kind::store, element_bytes,
              [](unsigned lane) { return lane == 0 ? 0LL : -1LL; });
}

/// Every access of one pass of kernel k over `n` elements in `blocks` blocks.
void trace_pass(kernel k, std::uint64_t n, unsigned block, std::uint64_t blocks, cudalab::trace_sink& sink) {
  auto element_at = [](std::uint64_t i, std::uint64_t limit, unsigned width) -> long long {
    return i < limit ? static_cast<long long>(i * width) : -1;
  };
  if (is_grid_stride(k)) {
    // Whatever the wave, the loop's warp steps are the aligned runs of 32 items (16-byte vectors for kernel 9).
    const bool vector = k == kernel::vector_single_pass;
    const std::uint64_t items = vector ? n / vector_width : n;
    const unsigned width = vector ? element_bytes * vector_width : element_bytes;
    cudalab::trace_warp_steps(sink, items, [&](std::uint64_t first, unsigned lanes) {
      sink.warp(memory_space::global, access_kind::load, width,
                [&](unsigned lane) { return element_at(first + lane, first + lanes, width); });
    });
    if (vector)  // the < 4 trailing elements, read by the first threads of the grid
      sink.warp(memory_space::global, access_kind::load, element_bytes,
                [&](unsigned lane) { return element_at(items * vector_width + lane, n, element_bytes); });
  }
  // Block 0 stands for every block but the last, which holds the tail of the tree kernels' loads.
  sink.trace_blocks(blocks, [&](std::uint64_t b) {
    if (!is_grid_stride(k))
      for (unsigned w = 0; w < block / warp_size; ++w)
        for (unsigned j = 0; j < loads_per_thread(k); ++j)
          sink.warp(memory_space::global, access_kind::load, element_bytes, [&](unsigned lane) {
            const std::uint64_t i = tree_load_index(b, block, w * warp_size + lane, loads_per_thread(k), j);
            return element_at(i, n, element_bytes);
          });
    if (k == kernel::warp_shuffle || k == kernel::vector_single_pass) {
      trace_shuffle_stage(block, sink);
    } else {
      trace_shared_tree(k, block, sink);
      trace_tree_result(sink);
    }
    // Thread 0 writes the block's partial (the result itself when there is one block).
    sink.warp(memory_space::global, access_kind::store, element_bytes,
              [&](unsigned lane) { return lane == 0 ? static_cast<long long>(b * element_bytes) : -1LL; });
    if (k == kernel::vector_single_pass) trace_last_block_ticket(block, sink);
  });
  if (k == kernel::vector_single_pass) trace_last_block_finish(block, blocks, sink);
}

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
    s.params = {
        cudalab::param_spec::integer("n", std::int64_t(1) << 28, 1, std::int64_t(1) << 31, "elements",
                                     "elements to sum"),
        cudalab::param_spec::integer("block", 256, 64, 1024, "threads",
                                     "threads per block, a power of two (the unrolled kernels need it)")
            .only(block_sizes::values())
            .tunes(),
        cudalab::param_spec::choice("type", "float", {"float", "int"},
                                    "element type: float (checked against the exact sum with a stated bound) "
                                    "or int (checked exactly)"),
    };
    s.variants = variants.specs();
    s.baseline = "cub";
    s.slots = {{"reduce_sum", cudalab::slot_kind::launcher, "warp_shuffle",
                "sum n floats into one on the device: a launcher that picks the passes, grids and blocks", "reduce_sum",
                "reduce_sum.cu", cudalab_slot_source::reduce_sum_cu}};
    return s;
  }

  cudalab::requirements requirements_of(const cudalab::params& p) const override {
    return requirements_at(static_cast<std::uint64_t>(p.integer("n")));
  }

  cudalab::traffic traffic_of(const cudalab::params& p, cudalab::variant_index) const override {
    return {static_cast<std::uint64_t>(p.integer("n")) * element_bytes, element_bytes, cudalab::memory_path::device};
  }

  void trace(const cudalab::params& p, cudalab::variant_index v, const cudalab::lab_context& ctx,
             cudalab::trace_sink& sink) const override {
    const std::optional<kernel> k = variants[v].hand_written;
    if (!k) return;  // CUB: a library call, not modelled
    const auto n = static_cast<std::uint64_t>(p.integer("n"));
    const auto block = static_cast<unsigned>(p.integer("block"));
    // The grid-stride kernels' wave at full occupancy on ctx.device (setup() asks the occupancy calculator).
    const std::uint64_t wave = std::uint64_t(std::max(1, ctx.device.sm_count)) *
                               std::uint64_t(std::max(1, ctx.device.max_threads_per_sm / int(block)));
    // Every launch of a run: later passes reduce the partials of the one before (Nsight Compute counts
    // them all too).
    for (const pass& each : reduction_passes(*k, n, block, is_grid_stride(*k) ? wave : 1))
      trace_pass(*k, each.count, block, each.blocks, sink);
  }

  std::unique_ptr<cudalab::lab_point> setup(const cudalab::params& p, cudalab::session& s) const override {
    if (p.choice("type") == "int") return std::make_unique<reduction_point<int>>(p, s);
    return std::make_unique<reduction_point<float>>(p, s);
  }
};

}  // namespace reduction

CUDALAB_REGISTER_LAB(reduction::reduction_lab)
