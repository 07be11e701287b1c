// The histogram lab's model side: the warp accesses of each kernel, lane by lane from the bins of the input values.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "cudalab/device_info.hpp"
#include "cudalab/trace.hpp"
#include "histogram.hpp"
#include "histogram_kernels.cuh"

namespace histogram {

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
inline warp_step step_at(const input_values& values, std::uint64_t first, std::uint64_t n) {
  warp_step s;
  s.first = first;
  s.lanes = first >= n ? 0u : static_cast<unsigned>(n - first < warp_size ? n - first : warp_size);
  for (unsigned lane = 0; lane < s.lanes; ++lane) s.bin[lane] = values(first + lane);
  return s;
}

/// The load of the step's values: lane l reads d_values[first + l] (4 bytes, coalesced).
inline void trace_value_load(const warp_step& s, cudalab::trace_sink& sink) {
  sink.warp(cudalab::memory_space::global, cudalab::access_kind::load, word_bytes, [&](unsigned lane) -> long long {
    return lane < s.lanes ? static_cast<long long>((s.first + lane) * word_bytes) : -1;
  });
}

/// atomicAdd(&counts[bin], 1) from every working lane: to the global histogram (global_atomics) or
/// to the block's shared one (shared_privatized). Lanes on one word are served one after another.
inline void trace_lane_atomics(cudalab::memory_space space, const warp_step& s, cudalab::trace_sink& sink) {
  sink.warp(space, cudalab::access_kind::atomic, word_bytes, [&](unsigned lane) -> long long {
    return lane < s.lanes ? static_cast<long long>(s.bin[lane]) * word_bytes : -1;
  });
}

/// warp_aggregated's atomic: __match_any_sync groups the working lanes by bin, and the lowest lane
/// of each group adds the group's size: one lane per distinct bin sends an atomic.
inline void trace_leader_atomics(const warp_step& s, cudalab::trace_sink& sink) {
  sink.warp(cudalab::memory_space::global, cudalab::access_kind::atomic, word_bytes, [&](unsigned lane) -> long long {
    if (lane >= s.lanes) return -1;
    for (unsigned lower = 0; lower < lane; ++lower)
      if (s.bin[lower] == s.bin[lane]) return -1;  // not the group's lowest lane
    return static_cast<long long>(s.bin[lane]) * word_bytes;
  });
}

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
inline quad_step quad_step_at(const input_values& values, std::uint64_t head, std::uint64_t first,
                              std::uint64_t quads) {
  quad_step s;
  s.head = head;
  s.first = first;
  s.lanes = first >= quads ? 0u : static_cast<unsigned>(quads - first < warp_size ? quads - first : warp_size);
  for (unsigned k = 0; k < 4; ++k) {
    s.element[k].lanes = s.lanes;
    for (unsigned lane = 0; lane < s.lanes; ++lane) s.element[k].bin[lane] = values(head + 4 * (first + lane) + k);
  }
  return s;
}

/// shared_vectorized's load: lane l reads its quad, 16 bytes at d_values + head + 4 (first + l)
/// (a warp request of 512 contiguous bytes when the head is 0).
inline void trace_quad_load(const quad_step& s, cudalab::trace_sink& sink) {
  sink.warp(cudalab::memory_space::global, cudalab::access_kind::load, 4 * word_bytes, [&](unsigned lane) -> long long {
    return lane < s.lanes ? static_cast<long long>((s.head + 4 * (s.first + lane)) * word_bytes) : -1;
  });
}

/// shared_vectorized's leftovers, counted by lanes of block 0's warp 0 after the loop: lane l < head
/// counts value l, lane head + t counts value tail_first + t for tail_first + t < n. A 4-byte load of
/// each value, then its shared atomic; nothing when there are none. Returns the step (its lanes' bins).
inline warp_step trace_leftovers(const input_values& values, std::uint64_t head, std::uint64_t tail_first,
                                 std::uint64_t n, cudalab::trace_sink& sink) {
  warp_step s;
  s.lanes = static_cast<unsigned>(head + (n - tail_first));
  if (s.lanes == 0) return s;
  auto value_of = [&](unsigned lane) { return lane < head ? lane : tail_first + (lane - head); };
  for (unsigned lane = 0; lane < s.lanes; ++lane) s.bin[lane] = values(value_of(lane));
  sink.warp(cudalab::memory_space::global, cudalab::access_kind::load, word_bytes, [&](unsigned lane) -> long long {
    return lane < s.lanes ? static_cast<long long>(value_of(lane) * word_bytes) : -1;
  });
  trace_lane_atomics(cudalab::memory_space::shared, s, sink);
  return s;
}

/// shared_privatized's (and shared_vectorized's) first loop in one block: its threads zero the shared histogram
/// block-stride, so its warp steps are the aligned runs of 32 bins, whatever the block.
inline void trace_shared_zeroing(unsigned bins, cudalab::trace_sink& sink) {
  for (unsigned first = 0; first < bins; first += warp_size)
    sink.warp(cudalab::memory_space::shared, cudalab::access_kind::store, word_bytes, [&](unsigned lane) -> long long {
      return first + lane < bins ? static_cast<long long>(first + lane) * word_bytes : -1;
    });
}

/// shared_privatized's (and shared_vectorized's) last loop in one block whose shared histogram holds `block_counts`:
/// each warp step reads 32 bins from shared memory, and the lanes whose bin is not 0 add it to the global histogram
/// (one atomic per lane, every lane on its own word).
inline void trace_flush(const std::vector<std::uint32_t>& block_counts, cudalab::trace_sink& sink) {
  const auto bins = static_cast<unsigned>(block_counts.size());
  for (unsigned first = 0; first < bins; first += warp_size) {
    auto bin_of = [&](unsigned lane) -> long long {
      return first + lane < bins ? static_cast<long long>(first + lane) * word_bytes : -1;
    };
    sink.warp(cudalab::memory_space::shared, cudalab::access_kind::load, word_bytes, bin_of);
    sink.warp(cudalab::memory_space::global, cudalab::access_kind::atomic, word_bytes, [&](unsigned lane) -> long long {
      return first + lane < bins && block_counts[first + lane] != 0 ? bin_of(lane) : -1;
    });
  }
}

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
