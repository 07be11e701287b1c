// The histogram lab's trace: every block of a kernel's grid (or an even sample of them), warp step by warp step.
#include "histogram_trace.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace histogram {

void trace_histogram(kernel k, const settings& s, const cudalab::device_info& device, std::uint64_t seed,
                     cudalab::trace_sink& sink) {
  using cudalab::memory_space;
  const std::uint64_t blocks = grid_blocks(s.n, s.block, device.sm_count, device.max_threads_per_sm);
  const std::uint64_t warps = s.block / warp_size;
  const std::uint64_t steps = (s.n + warp_size - 1) / warp_size;
  const std::uint64_t grid_warps = blocks * warps;
  const input_values values = s.values(seed);
  // The blocks traced: all of them, or an even sample holding about max_exact_steps warp steps.
  const std::uint64_t traced =
      steps <= max_exact_steps ? blocks : std::max<std::uint64_t>(1, blocks * max_exact_steps / steps);
  const bool privatized = k == kernel::shared_privatized;
  std::vector<std::uint32_t> block_counts(privatized ? s.bins : 0);
  for (std::uint64_t j = 0; j < traced; ++j) {
    const std::uint64_t b = j * blocks / traced;
    if (privatized) {
      trace_shared_zeroing(s.bins, sink);
      std::fill(block_counts.begin(), block_counts.end(), 0u);
    }
    // Warp w of block b steps over values [32 r, 32 r + 32) for r = b * warps + w, then every
    // grid_warps steps on: a grid-stride loop's warp steps are the aligned runs of 32 values.
    for (std::uint64_t w = 0; w < warps; ++w)
      for (std::uint64_t r = b * warps + w; r < steps; r += grid_warps) {
        const warp_step step = step_at(values, r * warp_size, s.n);
        trace_value_load(step, sink);
        switch (k) {
          case kernel::global_atomics:
            trace_lane_atomics(memory_space::global, step, sink);
            break;
          case kernel::shared_privatized:
            trace_lane_atomics(memory_space::shared, step, sink);
            for (unsigned lane = 0; lane < step.lanes; ++lane) ++block_counts[step.bin[lane]];
            break;
          case kernel::warp_aggregated:
            trace_leader_atomics(step, sink);
            break;
        }
      }
    if (privatized) trace_flush(block_counts, sink);
  }
  if (traced < blocks) sink.sampled(traced * warps, grid_warps);
}

}  // namespace histogram
