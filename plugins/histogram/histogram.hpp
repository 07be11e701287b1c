// What the histogram lab's files share: a point's settings and the table that declares and reads them, its
// launchers (the only door to its kernels), the memory a point needs, and the trace of each kernel.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cudalab/device_info.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/param_table.hpp"
#include "cudalab/random.hpp"
#include "cudalab/trace.hpp"
#include "histogram_kernels.cuh"

namespace histogram {

/// Which hand-written kernel a variant launches.
enum class kernel { global_atomics, shared_privatized, shared_vectorized, warp_aggregated };

/// The largest number of bins: the shared-memory histogram of one block is bins x 4 bytes (16 KiB).
constexpr std::int64_t max_bins = 4096;

/// The distributions the `distribution` parameter chooses between, by name.
inline const cudalab::choice_names<distribution> distributions = {
    {"uniform", distribution::uniform}, {"skewed", distribution::skewed}, {"cyclic", distribution::cyclic}};

/// The parameters of one point.
struct settings {
  std::uint64_t n;
  unsigned bins;
  distribution shape;
  double hot_fraction;
  unsigned block;

  /// The input of this point for `seed` (random stream 0 of the seed).
  input_values values(std::uint64_t seed) const {
    input_values v;
    v.stream = cudalab::random_stream(seed, 0);
    v.bins = bins;
    v.hot_below = hot_threshold(hot_fraction);
    v.shape = shape;
    return v;
  }
};

using settings_table = cudalab::param_table<settings>;

/// The lab's parameters, each said once: spec() lists them, read() gives a point's settings. `block`
/// is a tuning parameter (lab_point::retune).
inline const settings_table parameters = {
    settings_table::integer(&settings::n, "n", std::int64_t(1) << 26, 1, std::int64_t(1) << 31, "values",
                            "values to count"),
    settings_table::integer(&settings::bins, "bins", 256, 1, max_bins, "bins",
                            "counters in the histogram (4 bytes each; a block's shared copy is bins x 4 bytes)"),
    settings_table::choice(&settings::shape, "distribution", distribution::uniform, distributions,
                           "how the values spread over the bins: uniform at random; skewed (a fraction "
                           "hot_fraction in bin 0, the rest uniform); cyclic (value i in bin i mod bins)"),
    settings_table::real(&settings::hot_fraction, "hot_fraction", 0.9, 0.0, 1.0, "fraction",
                         "skewed only: the fraction of the values that fall in bin 0 (each value "
                         "independently); ignored by uniform and cyclic"),
    settings_table::integer(&settings::block, "block", 256, 32, 1024, "threads", "threads per block, a multiple of 32")
        .multiple(32)
        .tunes(),
};

/// Enqueues kernel `k` over d_values[0, n) on `stream`: `blocks` blocks of `block` threads (the
/// shared-memory kernel with bins x 4 bytes of dynamic shared memory), adding into d_counts[0, bins).
/// REQUIRES: every value < bins; block a multiple of 32; blocks >= 1.
void launch_histogram(kernel k, const std::uint32_t* d_values, std::uint64_t n, std::uint32_t* d_counts, unsigned bins,
                      unsigned blocks, unsigned block, cudaStream_t stream);

/// Fills d_values[0, n) on the GPU: element i is values(i).
void fill_input(std::uint32_t* d_values, std::uint64_t n, const input_values& values, cudaStream_t stream);

/// Scratch bytes cub::DeviceHistogram::HistogramEven needs for n values in `bins` bins.
std::size_t cub_histogram_temp_bytes(std::uint64_t n, unsigned bins);

/// d_counts[0, bins) = cub::DeviceHistogram::HistogramEven of d_values[0, n), levels 0, 1, ..., bins (CUB
/// writes every bin itself). REQUIRES: d_temp holds cub_histogram_temp_bytes(n, bins) bytes.
void launch_cub_histogram(void* d_temp, std::size_t temp_bytes, const std::uint32_t* d_values, std::uint64_t n,
                          std::uint32_t* d_counts, unsigned bins, cudaStream_t stream);

/// The memory a point needs: on the device the input (4 bytes a value), the counts and CUB's scratch
/// (a few KB: 1 MiB allowed); on the host the reference counts and a downloaded copy of the result.
inline cudalab::requirements requirements_at(std::uint64_t n, unsigned bins) {
  return {n * 4 + std::uint64_t(bins) * 4 + (1u << 20), 0, std::uint64_t(bins) * 4 * 2};
}

// The model (histogram_trace.cpp): each kernel's warp accesses, lane by lane from the bins of the input values.

/// Bytes of one value and of one count.
constexpr unsigned word_bytes = 4;

/// Above this many warp steps of 32 values (2 Mi values), trace() traces an even sample of the blocks
/// instead of every one (sink.sampled): below it, every warp of the grid is traced and the totals are exact.
constexpr std::uint64_t max_exact_steps = std::uint64_t(1) << 16;

/// One warp step of a grid-stride loop: lane l works on value first + l, whose bin is bin[l], for
/// l < lanes; the other lanes have run past n.
struct warp_step {
  std::uint64_t first = 0;
  unsigned lanes = 0;
  std::array<std::uint32_t, warp_size> bin{};
};

/// The warp step over values [first, min(first + 32, n)) of the input `values`.
warp_step step_at(const input_values& values, std::uint64_t first, std::uint64_t n);

/// The load of the step's values: lane l reads d_values[first + l] (4 bytes, coalesced).
void trace_value_load(const warp_step& s, cudalab::trace_sink& sink);

/// atomicAdd(&counts[bin], 1) from every working lane: to the global histogram (global_atomics) or
/// to the block's shared one (shared_privatized). Lanes on one word are served one after another.
void trace_lane_atomics(cudalab::memory_space space, const warp_step& s, cudalab::trace_sink& sink);

/// warp_aggregated's atomic: __match_any_sync groups the working lanes by bin, and the lowest lane
/// of each group adds the group's size: one lane per distinct bin sends an atomic.
void trace_leader_atomics(const warp_step& s, cudalab::trace_sink& sink);

/// One warp step of shared_vectorized's loop over the quads after the head: lane l loads quad first + l,
/// values head + 4 (first + l) + k for k = 0..3, as one uint4, for l < lanes. element[k] holds each
/// lane's bin of value k of its quad (its `first` is unused: the lanes' values are 4 apart).
struct quad_step {
  std::uint64_t head = 0;
  std::uint64_t first = 0;
  unsigned lanes = 0;
  std::array<warp_step, 4> element{};
};

/// The warp step over quads [first, min(first + 32, quads)) after `head` values of the input `values`.
quad_step quad_step_at(const input_values& values, std::uint64_t head, std::uint64_t first, std::uint64_t quads);

/// shared_vectorized's load: lane l reads its quad, 16 bytes at d_values + head + 4 (first + l)
/// (a warp request of 512 contiguous bytes when the head is 0).
void trace_quad_load(const quad_step& s, cudalab::trace_sink& sink);

/// shared_vectorized's leftovers, counted by lanes of block 0's warp 0 after the loop: lane l < head
/// counts value l, lane head + t counts value tail_first + t for tail_first + t < n. A 4-byte load of
/// each value, then its shared atomic; nothing when there are none. Returns the step (its lanes' bins).
warp_step trace_leftovers(const input_values& values, std::uint64_t head, std::uint64_t tail_first, std::uint64_t n,
                          cudalab::trace_sink& sink);

/// shared_privatized's (and shared_vectorized's) first loop in one block: its threads zero the shared histogram
/// block-stride, so its warp steps are the aligned runs of 32 bins, whatever the block.
void trace_shared_zeroing(unsigned bins, cudalab::trace_sink& sink);

/// shared_privatized's (and shared_vectorized's) last loop in one block whose shared histogram holds `block_counts`:
/// each warp step reads 32 bins from shared memory, and the lanes whose bin is not 0 add it to the global histogram
/// (one atomic per lane, every lane on its own word).
void trace_flush(const std::vector<std::uint32_t>& block_counts, cudalab::trace_sink& sink);

/// Every access of kernel `k` at the point `s` on `device`, the input made from `seed` as setup() makes
/// it: block by block, each warp's grid-stride steps (the load of its values, then its atomics) with the
/// lanes' bins computed from the input, and for the shared-memory kernels each block's zeroing and flush.
/// shared_vectorized's warps step over quads (a 16-byte load, then 4 shared atomics: element 0 of every
/// lane's quad, then element 1, ...), block 0's warp 0 then its leftovers (vector_head at offset 0: none
/// before, the tail n % 4 after). Every
/// block is traced up to max_exact_steps warp steps; above, an even sample of the blocks, scaled to all
/// with sink.sampled().
void trace_histogram(kernel k, const settings& s, const cudalab::device_info& device, std::uint64_t seed,
                     cudalab::trace_sink& sink);

}  // namespace histogram
