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
  const bool privatized = k == kernel::shared_privatized || k == kernel::shared_vectorized;
  // shared_vectorized: the input at offset 0 has no head; its quads step 32 to a warp step.
  const std::uint64_t head = vector_head(0, s.n);
  const std::uint64_t quads = (s.n - head) / 4;
  const std::uint64_t quad_steps = (quads + warp_size - 1) / warp_size;
  std::vector<std::uint32_t> block_counts(privatized ? s.bins : 0);
  auto count = [&](const warp_step& step) {
    for (unsigned lane = 0; lane < step.lanes; ++lane) ++block_counts[step.bin[lane]];
  };
  for (std::uint64_t j = 0; j < traced; ++j) {
    const std::uint64_t b = j * blocks / traced;
    if (privatized) {
      trace_shared_zeroing(s.bins, sink);
      std::fill(block_counts.begin(), block_counts.end(), 0u);
    }
    // Warp w of block b steps over values [32 r, 32 r + 32) (quads, for shared_vectorized) for
    // r = b * warps + w, then every grid_warps steps on: a grid-stride loop's warp steps are the
    // aligned runs of 32 values (quads).
    for (std::uint64_t w = 0; w < warps; ++w) {
      if (k == kernel::shared_vectorized) {
        for (std::uint64_t r = b * warps + w; r < quad_steps; r += grid_warps) {
          const quad_step step = quad_step_at(values, head, r * warp_size, quads);
          trace_quad_load(step, sink);
          for (const warp_step& element : step.element) {
            trace_lane_atomics(memory_space::shared, element, sink);
            count(element);
          }
        }
        if (b == 0 && w == 0) count(trace_leftovers(values, head, head + 4 * quads, s.n, sink));
        continue;
      }
      for (std::uint64_t r = b * warps + w; r < steps; r += grid_warps) {
        const warp_step step = step_at(values, r * warp_size, s.n);
        trace_value_load(step, sink);
        switch (k) {
          case kernel::global_atomics:
            trace_lane_atomics(memory_space::global, step, sink);
            break;
          case kernel::shared_privatized:
            trace_lane_atomics(memory_space::shared, step, sink);
            count(step);
            break;
          case kernel::warp_aggregated:
            trace_leader_atomics(step, sink);
            break;
          case kernel::shared_vectorized:  // stepped over quads above
            break;
        }
      }
    }
    if (privatized) trace_flush(block_counts, sink);
  }
  if (traced < blocks) sink.sampled(traced * warps, grid_warps);
}

}  // namespace histogram
