// The reduction lab: summing an array, from the textbook shared-memory tree to a single-pass kernel that races CUB.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "cudalab/device_buffer.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/plugin.hpp"
#include "reduction.hpp"
#include "reduction_kernels.cuh"

namespace reduction {

namespace {

/// A variant: a hand-written kernel, or the library call (CUB).
struct variant_plan {
  const char* name;
  const char* summary;
  bool library;
  kernel k;
};

const variant_plan plans[] = {
    {"interleaved_divergent", "1: interleaved pairs, tid % (2s) == 0 adds: divergent warps, a modulo per step",
     false, kernel::interleaved_divergent},
    {"interleaved_strided", "2: interleaved pairs at word 2*s*tid: no divergence, 2- to 32-way bank conflicts", false,
     kernel::interleaved_strided},
    {"sequential", "3: sequential addressing, tid < s adds tid + s: no conflicts, half the threads idle", false,
     kernel::sequential},
    {"first_add", "4: two elements added per thread during the load: half the blocks", false, kernel::first_add},
    {"unroll_last_warp", "5: first add, the last six steps by one warp with __syncwarp only", false,
     kernel::unroll_last_warp},
    {"unroll_complete", "6: every tree step unrolled for a compile-time block size", false, kernel::unroll_complete},
    {"grid_stride", "7: one wave of blocks, many elements per thread in a grid-stride loop, unrolled tree", false,
     kernel::grid_stride},
    {"warp_shuffle", "8: grid-stride loop, __shfl_down_sync in registers, one shared stage", false,
     kernel::warp_shuffle},
    {"vector_single_pass", "9: 16-byte loads, 4 in flight per thread, shuffles, one launch (last block finishes)",
     false, kernel::vector_single_pass},
    {"cub", "cub::DeviceReduce::Sum (the baseline)", true, kernel::vector_single_pass},
};

const variant_plan& plan_of(const std::string& name) {
  for (const auto& p : plans)
    if (name == p.name) return p;
  throw std::out_of_range("reduction: no variant '" + name + "'");
}

/// trace() runs without a GPU: it assumes an H100 SXM's SMs and full occupancy for the wave size
/// (setup() asks the occupancy calculator of the real device instead).
constexpr unsigned assumed_sm_count = 132;

unsigned log2_of(std::uint64_t v) {
  unsigned l = 0;
  while ((std::uint64_t(1) << l) < v) ++l;
  return l;
}

bool is_power_of_two(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

std::uint64_t div_up(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

/// One launch of a multi-pass reduction: it reads `count` elements and writes `blocks` partials
/// (the result itself when blocks == 1).
struct pass {
  std::uint64_t count;
  std::uint64_t blocks;
};

/// The launches kernel `k` needs to reduce n elements to one; kernel 9 always needs one.
std::vector<pass> plan_passes(kernel k, std::uint64_t n, unsigned block, std::uint64_t wave_blocks) {
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
      case kernel::grid_stride: d += div_up(p.count, threads) + tree; break;
      case kernel::warp_shuffle: d += div_up(p.count, threads) + 10; break;
      case kernel::vector_single_pass:
        // Per thread: its vectors (2 adds inside each) and one tail element; then the block, then
        // the last block's loop over the partials and its block reduction.
        d += div_up(p.count / vector_width, threads) + 3 + 10 + div_up(p.blocks, block) + 10;
        break;
      default: d += (loads_per_thread(k) - 1) + tree; break;
    }
  }
  return d;
}

/// The device state of one element type: input, scratch, result, CUB storage, and the reference.
class reduction_state {
 public:
  virtual ~reduction_state() = default;
  virtual void run(const variant_plan& plan, cudaStream_t stream) = 0;
  virtual cudalab::check verify(const variant_plan& plan) = 0;
  virtual std::size_t element_bytes() const = 0;
};

template <class T>
class typed_state final : public reduction_state {
 public:
  typed_state(std::uint64_t n, unsigned block, cudalab::session& s) : n_(n), block_(block), stream_(s.stream()) {
    const auto sms = std::uint64_t(std::max(1, s.device().sm_count));
    for (kernel k : {kernel::grid_stride, kernel::warp_shuffle, kernel::vector_single_pass})
      wave_[static_cast<int>(k)] = sms * std::uint64_t(resident_blocks_per_sm<T>(k, block));
    make_inputs(s.seed());

    d_in_ = cudalab::device_buffer<T>(n_);
    d_in_.upload(h_in_.data(), stream_);
    // Ping-pong scratch for the multi-pass kernels: the first pass writes at most ceil(n / block)
    // partials, the second at most ceil(that / block), later ones fewer again.
    const std::uint64_t first = std::max<std::uint64_t>(div_up(n_, block_), 1);
    d_scratch_a_ = cudalab::device_buffer<T>(first);
    d_scratch_b_ = cudalab::device_buffer<T>(std::max<std::uint64_t>(div_up(first, block_), 1));
    d_partials_ = cudalab::device_buffer<T>(wave_of(kernel::vector_single_pass));
    d_counter_ = cudalab::device_buffer<unsigned>(1);
    d_counter_.fill_bytes(0, stream_);
    cub_temp_bytes_ = cub_sum_temp_bytes<T>(n_);
    d_cub_temp_ = cudalab::device_buffer<unsigned char>(std::max<std::size_t>(cub_temp_bytes_, 1));
    d_result_ = cudalab::device_buffer<T>(1);
    s.register_output(d_result_.data(), d_result_.bytes(), cudalab::memory_kind::device);
    CUDALAB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    h_in_ = {};  // the reference is computed; the input lives on the device now
  }

  std::size_t element_bytes() const override { return sizeof(T); }

  void run(const variant_plan& plan, cudaStream_t stream) override {
    if (plan.library) {
      launch_cub_sum<T>(d_cub_temp_.data(), cub_temp_bytes_, d_in_.data(), d_result_.data(), n_, stream);
      return;
    }
    const std::vector<pass> passes = plan_passes(plan.k, n_, block_, wave_of(plan.k));
    if (plan.k == kernel::vector_single_pass) {
      launch_vector_single_pass<T>(d_in_.data(), d_partials_.data(), d_counter_.data(), d_result_.data(), n_,
                                   passes.front().blocks, block_, stream);
      return;
    }
    const T* src = d_in_.data();
    for (std::size_t i = 0; i < passes.size(); ++i) {
      T* dst = passes[i].blocks == 1 ? d_result_.data() : (i % 2 == 0 ? d_scratch_a_.data() : d_scratch_b_.data());
      launch_pass<T>(plan.k, src, dst, passes[i].count, passes[i].blocks, block_, stream);
      src = dst;
    }
  }

  cudalab::check verify(const variant_plan& plan) override {
    T got{};
    CUDALAB_CUDA_CHECK(cudaMemcpyAsync(&got, d_result_.data(), sizeof(T), cudaMemcpyDeviceToHost, stream_));
    CUDALAB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    std::ostringstream order;
    if (plan.library) {
      order << "CUB's order is unspecified";
    } else {
      const auto passes = plan_passes(plan.k, n_, block_, wave_of(plan.k));
      order << passes.size() << (passes.size() == 1 ? " launch" : " launches") << ", first grid "
            << passes.front().blocks << " x " << block_;
    }
    if constexpr (std::is_integral_v<T>) {
      // Two's-complement addition is associative modulo 2^32, so every order gives the same bits.
      const auto expected = static_cast<T>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(ref_int_)));
      cudalab::check c = cudalab::compare_scalar(double(got), double(expected), 0.0,
                                                 "exact (int sums wrap modulo 2^32 on both sides)");
      c.note = "int sum of " + std::to_string(n_) + " values in [-100, 100]; " + order.str();
      return c;
    }
    // Float: any summation tree of depth d has |error| <= gamma_d * sum|x|, gamma_d = d*u/(1-d*u),
    // u = 2^-24. d follows the variant's order; CUB's order is unknown, so it gets a generous d.
    const std::uint64_t d = plan.library
                                ? div_up(n_, 1u << 14) + 2 * log2_of(n_) + 16
                                : addition_depth(plan.k, plan_passes(plan.k, n_, block_, wave_of(plan.k)), block_);
    const double u = std::ldexp(1.0, -24);
    const double du = std::min(0.5, double(d) * u);
    const double tol = du / (1.0 - du) * ref_abs_ + std::numeric_limits<float>::denorm_min();
    std::ostringstream rule;
    rule << "|got - ref| <= gamma_d * sum|x| = " << tol << " (d = " << d << " additions deep, u = 2^-24)";
    cudalab::check c = cudalab::compare_scalar(double(got), ref_sum_, tol, rule.str());
    c.note = "reference: double sum of " + std::to_string(n_) + " floats in [0, 1); " + order.str();
    return c;
  }

 private:
  std::uint64_t wave_of(kernel k) const { return is_grid_stride(k) ? wave_[static_cast<int>(k)] : 1; }

  void make_inputs(std::uint64_t seed) {
    h_in_.resize(n_);
    std::mt19937_64 rng(seed);
    // One 64-bit draw feeds two elements; floats are multiples of 2^-24 in [0, 1) (exact), ints are
    // in [-100, 100] so no partial sum comes near 2^31.
    for (std::uint64_t i = 0; i < n_; i += 2) {
      const std::uint64_t r = rng();
      for (std::uint64_t j = 0; j < 2 && i + j < n_; ++j) {
        const auto bits = static_cast<std::uint32_t>(r >> (32 * j));
        if constexpr (std::is_integral_v<T>)
          h_in_[i + j] = static_cast<T>(int(bits % 201u) - 100);
        else
          h_in_[i + j] = static_cast<T>(std::ldexp(double(bits & 0xffffffu), -24));
      }
    }
    ref_sum_ = 0.0;
    ref_abs_ = 0.0;
    ref_int_ = 0;
    for (const T v : h_in_) {
      ref_sum_ += double(v);
      ref_abs_ += std::fabs(double(v));
      if constexpr (std::is_integral_v<T>) ref_int_ += v;
    }
  }

  std::uint64_t n_;
  unsigned block_;
  cudaStream_t stream_;
  std::uint64_t wave_[9] = {};
  std::vector<T> h_in_;
  double ref_sum_ = 0.0, ref_abs_ = 0.0;
  std::int64_t ref_int_ = 0;
  std::size_t cub_temp_bytes_ = 0;
  cudalab::device_buffer<T> d_in_, d_scratch_a_, d_scratch_b_, d_partials_, d_result_;
  cudalab::device_buffer<unsigned> d_counter_;
  cudalab::device_buffer<unsigned char> d_cub_temp_;
};

// ---- trace(): the warp accesses of the first pass, for the first and the last block ----

/// Emits, for every warp of a block, one step `sdata[t] += sdata[t + s]` of a shared tree: load
/// word t, load word t + s, store word t, for the threads where `target(tid)` is >= 0.
template <class Target>
void trace_tree_step(unsigned block, unsigned s, unsigned bytes, Target target, cudalab::trace_sink& sink) {
  using cudalab::access_kind;
  using cudalab::memory_space;
  for (unsigned w = 0; w < block / warp_size; ++w) {
    auto word = [&, w](long long offset) {
      return [&, w, offset](unsigned lane) -> long long {
        const long long t = target(w * warp_size + lane);
        return t < 0 ? -1 : (t + offset) * bytes;
      };
    };
    sink.warp(memory_space::shared, access_kind::load, bytes, word(0));
    sink.warp(memory_space::shared, access_kind::load, bytes, word(s));
    sink.warp(memory_space::shared, access_kind::store, bytes, word(0));
  }
}

/// The shared-memory tree of tree kernels 1-7 on one block, in program order.
void trace_shared_tree(kernel k, unsigned block, unsigned bytes, cudalab::trace_sink& sink) {
  using cudalab::access_kind;
  using cudalab::memory_space;
  for (unsigned w = 0; w < block / warp_size; ++w)  // sdata[tid] = loaded value
    sink.warp(memory_space::shared, access_kind::store, bytes, [&](unsigned lane) -> long long {
      return (long long)(w * warp_size + lane) * bytes;
    });
  switch (k) {
    case kernel::interleaved_divergent:
      for (unsigned s = 1; s < block; s *= 2)
        trace_tree_step(block, s, bytes, [s](unsigned tid) -> long long { return divergent_adds(tid, s) ? (long long)tid : -1LL; },
                        sink);
      return;
    case kernel::interleaved_strided:
      for (unsigned s = 1; s < block; s *= 2)
        trace_tree_step(block, s, bytes, [s, block](unsigned tid) -> long long {
          const unsigned t = strided_word(tid, s);
          return t < block ? (long long)t : -1LL;
        }, sink);
      return;
    case kernel::sequential:
    case kernel::first_add:
      for (unsigned s = block / 2; s > 0; s >>= 1)
        trace_tree_step(block, s, bytes, [s](unsigned tid) -> long long { return tid < s ? (long long)tid : -1LL; }, sink);
      return;
    default:
      break;
  }
  // Kernels 5-7: block-wide steps while s > 32, then warp 0 alone (warp_reduce_shared).
  for (unsigned s = block / 2; s > 32; s >>= 1)
    trace_tree_step(block, s, bytes, [s](unsigned tid) -> long long { return tid < s ? (long long)tid : -1LL; }, sink);
  auto lanes_at = [bytes](unsigned offset) {
    return [bytes, offset](unsigned lane) -> long long { return (long long)(lane + offset) * bytes; };
  };
  sink.warp(memory_space::shared, access_kind::load, bytes, lanes_at(0));
  sink.warp(memory_space::shared, access_kind::load, bytes, lanes_at(32));
  for (unsigned s = 16; s > 0; s >>= 1) {
    sink.warp(memory_space::shared, access_kind::store, bytes, lanes_at(0));
    sink.warp(memory_space::shared, access_kind::load, bytes, lanes_at(s));
  }
  sink.warp(memory_space::shared, access_kind::store, bytes, [](unsigned lane) { return lane == 0 ? 0LL : -1LL; });
}

/// block_reduce_shuffle's one shared stage: lane 0 of each warp stores its total, warp 0 reads them.
void trace_shuffle_stage(unsigned block, unsigned bytes, cudalab::trace_sink& sink) {
  using cudalab::access_kind;
  using cudalab::memory_space;
  const unsigned warps = block / warp_size;
  for (unsigned w = 0; w < warps; ++w)
    sink.warp(memory_space::shared, access_kind::store, bytes,
              [&](unsigned lane) -> long long { return lane == 0 ? (long long)w * bytes : -1; });
  sink.warp(memory_space::shared, access_kind::load, bytes,
            [&](unsigned lane) -> long long { return lane < warps ? (long long)lane * bytes : -1; });
}

/// Every access of block `b` of the first pass of kernel k over n elements.
void trace_block(kernel k, std::uint64_t n, unsigned block, std::uint64_t blocks, std::uint64_t b, unsigned bytes,
                 cudalab::trace_sink& sink) {
  using cudalab::access_kind;
  using cudalab::memory_space;
  const unsigned warps = block / warp_size;
  const std::uint64_t stride = blocks * block;
  auto element_at = [&](std::uint64_t i, std::uint64_t limit, unsigned width) -> long long {
    return i < limit ? static_cast<long long>(i * width) : -1;
  };
  if (!is_grid_stride(k)) {
    for (unsigned w = 0; w < warps; ++w)
      for (unsigned j = 0; j < loads_per_thread(k); ++j)
        sink.warp(memory_space::global, access_kind::load, bytes, [&](unsigned lane) {
          return element_at(tree_load_index(b, block, w * warp_size + lane, loads_per_thread(k), j), n, bytes);
        });
  } else {
    const bool vector = k == kernel::vector_single_pass;
    const std::uint64_t items = vector ? n / vector_width : n;
    const unsigned width = vector ? bytes * vector_width : bytes;
    for (unsigned w = 0; w < warps; ++w) {
      const std::uint64_t first = grid_stride_start(b, block, w * warp_size);
      for (std::uint64_t i = first; i < items; i += stride)
        sink.warp(memory_space::global, access_kind::load, width,
                  [&](unsigned lane) { return element_at(i + lane, items, width); });
      if (vector)  // the < 4 trailing elements, read by the first threads of the grid
        sink.warp(memory_space::global, access_kind::load, bytes, [&](unsigned lane) {
          const std::uint64_t i = items * vector_width + first + lane;
          return element_at(i, n, bytes);
        });
    }
  }
  if (k == kernel::warp_shuffle || k == kernel::vector_single_pass)
    trace_shuffle_stage(block, bytes, sink);
  else
    trace_shared_tree(k, block, bytes, sink);
  // Thread 0 writes the block's partial (the result itself when there is one block).
  sink.warp(memory_space::global, access_kind::store, bytes,
            [&](unsigned lane) { return lane == 0 ? static_cast<long long>(b * bytes) : -1LL; });
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
                                     "threads per block, a power of two (64, 128, 256, 512 or 1024)"),
        cudalab::param_spec::choice("type", "float", {"float", "int"},
                                    "element type: float (checked against a double sum with a stated bound) "
                                    "or int (checked exactly)"),
    };
    for (const auto& p : plans) s.variants.push_back({p.name, p.summary});
    s.baseline = "cub";
    return s;
  }

  void check_params(const cudalab::params& p) const override {
    const std::int64_t block = p.integer("block");
    if (!is_power_of_two(block) || block < 64 || block > 1024)
      throw std::invalid_argument("block must be a power of two from 64 to 1024 (the unrolled kernels need it), not " +
                                  std::to_string(block));
    if (p.integer("n") < 1) throw std::invalid_argument("n must be at least 1");
    const std::string& type = p.choice("type");
    if (type != "float" && type != "int") throw std::invalid_argument("type must be float or int, not " + type);
  }

  cudalab::requirements require(const cudalab::params& p) const override {
    const auto n = static_cast<std::uint64_t>(p.integer("n"));
    const std::uint64_t input = n * 4;  // both types are 4 bytes
    // Scratch: the two ping-pong partial arrays (at most n/64 + n/4096 elements), the wave's
    // partials, and CUB's temporary storage (a few KB; 1 MiB allowed).
    const std::uint64_t scratch = (div_up(n, 64) + div_up(n, 4096) + 2 + 64 * 1024) * 4 + (1u << 20);
    return {input + scratch, 0, input};
  }

  void setup(const cudalab::params& p, cudalab::session& s) override {
    check_params(p);
    state_.reset();  // free a previous point's buffers before allocating this one's
    n_ = static_cast<std::uint64_t>(p.integer("n"));
    const auto block = static_cast<unsigned>(p.integer("block"));
    if (p.choice("type") == "int")
      state_ = std::make_unique<typed_state<int>>(n_, block, s);
    else
      state_ = std::make_unique<typed_state<float>>(n_, block, s);
  }

  cudalab::traffic traffic_of(const cudalab::variant_spec&) const override {
    const std::uint64_t bytes = state_ ? state_->element_bytes() : 4;
    return {n_ * bytes, bytes, cudalab::memory_path::device};
  }

  void run(const cudalab::variant_spec& v, cudaStream_t stream) override {
    if (!state_) throw std::logic_error("reduction: run() before setup()");
    state_->run(plan_of(v.name), stream);
  }

  cudalab::check verify(const cudalab::variant_spec& v) override {
    if (!state_) throw std::logic_error("reduction: verify() before setup()");
    return state_->verify(plan_of(v.name));
  }

  void trace(const cudalab::params& p, const cudalab::variant_spec& v, cudalab::trace_sink& sink) const override {
    const variant_plan& plan = plan_of(v.name);
    if (plan.library) return;  // CUB: a library call, not modelled
    check_params(p);
    const auto n = static_cast<std::uint64_t>(p.integer("n"));
    const auto block = static_cast<unsigned>(p.integer("block"));
    const unsigned bytes = 4;  // float and int alike
    const std::uint64_t wave = std::uint64_t(assumed_sm_count) * (max_threads_per_sm / block);
    // The first pass carries all the input traffic; later passes read under 1/64 of it and are not
    // traced. Of the first pass, the first block and the last (the ragged tail) stand for all.
    const std::uint64_t blocks = pass_blocks(plan.k, n, block, wave);
    std::vector<std::uint64_t> sample = {0};
    if (blocks > 1) sample.push_back(blocks - 1);
    for (std::uint64_t b : sample) trace_block(plan.k, n, block, blocks, b, bytes, sink);
    const std::uint64_t warps = block / warp_size;
    sink.sampled(sample.size() * warps, blocks * warps);
  }

  void teardown() noexcept override { state_.reset(); }

 private:
  std::uint64_t n_ = 0;
  std::unique_ptr<reduction_state> state_;
};

}  // namespace reduction

CUDALAB_REGISTER_LAB(reduction::reduction_lab)
