// The reduction lab's model side: the warp accesses of every pass of each kernel, in program order, for the
// access model.
#include <algorithm>
#include <cstdint>

#include "cudalab/trace_loops.hpp"
#include "reduction.hpp"
#include "reduction_kernels.cuh"

namespace reduction {

namespace {

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

void trace_kernel(kernel k, const settings& s, const cudalab::device_info& device, cudalab::trace_sink& sink) {
  // The grid-stride kernels' wave at full occupancy on `device` (setup() asks the occupancy calculator).
  const std::uint64_t wave = std::uint64_t(std::max(1, device.sm_count)) *
                             std::uint64_t(std::max(1, device.max_threads_per_sm / int(s.block)));
  for (const pass& each : reduction_passes(k, s.n, s.block, is_grid_stride(k) ? wave : 1))
    trace_pass(k, each.count, s.block, each.blocks, sink);
}

}  // namespace reduction
