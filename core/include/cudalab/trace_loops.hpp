// Tracing the loops kernels are made of, with exact weights: grid-stride and block-stride loops (grids of
// blocks that tile an array: trace_tiles.hpp).
#pragma once

#include <algorithm>
#include <cstdint>

#include "cudalab/trace.hpp"

namespace cudalab {

/// Traces a loop in which warps of 32 consecutive threads step through `items` work items, such as
/// a grid-stride loop `for (i = global_thread; i < items; i += grid_threads)` or a block-stride loop
/// `for (i = threadIdx.x; i < items; i += blockDim.x)`, with a grid or block that is a whole number
/// of warps. Whatever the grid, the warp steps of such a loop are the aligned runs of 32 items:
/// run k covers items [32k, 32k + 32), and the last run may be partial.
///
/// `warp_step(first, lanes)` records the accesses of one warp step over items [first, first + lanes)
/// (lane l works on item first + l). With at most `max_traced` full runs each is traced once and the
/// totals are exact. Otherwise `max_traced` evenly spaced runs are traced, each weighted by the runs it
/// stands for: the totals are exact when the full runs record alike (the same instructions, with
/// addresses that differ by where the run starts), and an even sample when addresses depend on the
/// data. So the warp steps that differ (a thread whose items run out inside a full run, a tail that
/// is not the last partial run) must be traced apart, not through this helper. The partial run is
/// traced on its own. Weights multiply any weight already set (`weighted`).
/// REQUIRES: max_traced > 0.
template <class F>
void trace_warp_steps(trace_sink& sink, std::uint64_t items, F&& warp_step, std::uint64_t max_traced = 1024) {
  const std::uint64_t full = items / 32;
  const std::uint64_t traced = std::min(full, max_traced);
  for (std::uint64_t j = 0; j < traced; ++j) {
    // Run j of the sample stands for runs [first_run, next_run): the weights add up to `full`.
    const std::uint64_t first_run = j * full / traced;
    const std::uint64_t next_run = (j + 1) * full / traced;
    weighted w(sink, next_run - first_run);
    warp_step(first_run * 32, 32u);
  }
  if (items % 32 != 0) warp_step(full * 32, static_cast<unsigned>(items % 32));
}

}  // namespace cudalab
