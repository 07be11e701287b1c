// The histogram lab's model side: every block of a kernel's grid (or an even sample of them), warp step by warp
// step, each lane's bin from the input values.
#include "histogram.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace histogram {

warp_step step_at(const input_values& values, std::uint64_t first, std::uint64_t n) {
  warp_step s;
  s.first = first;
  s.lanes = first >= n ? 0u : static_cast<unsigned>(n - first < warp_size ? n - first : warp_size);
  for (unsigned lane = 0; lane < s.lanes; ++lane) s.bin[lane] = values(first + lane);
  return s;
}

void trace_value_load(const warp_step& s, cudalab::trace_sink& sink) {
  sink.warp(cudalab::memory_space::global, cudalab::access_kind::load, word_bytes, [&](unsigned lane) -> long long {
    return lane < s.lanes ? static_cast<long long>((s.first + lane) * word_bytes) : -1;
  });
}

void trace_lane_atomics(cudalab::memory_space space, const warp_step& s, cudalab::trace_sink& sink) {
  sink.warp(space, cudalab::access_kind::atomic, word_bytes, [&](unsigned lane) -> long long {
    return lane < s.lanes ? static_cast<long long>(s.bin[lane]) * word_bytes : -1;
  });
}

void trace_leader_atomics(const warp_step& s, cudalab::trace_sink& sink) {
  sink.warp(cudalab::memory_space::global, cudalab::access_kind::atomic, word_bytes, [&](unsigned lane) -> long long {
    if (lane >= s.lanes) return -1;
    for (unsigned lower = 0; lower < lane; ++lower)
      if (s.bin[lower] == s.bin[lane]) return -1;  // not the group's lowest lane
    return static_cast<long long>(s.bin[lane]) * word_bytes;
  });
}

quad_step quad_step_at(const input_values& values, std::uint64_t head, std::uint64_t first, std::uint64_t quads) {
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

void trace_quad_load(const quad_step& s, cudalab::trace_sink& sink) {
  sink.warp(cudalab::memory_space::global, cudalab::access_kind::load, 4 * word_bytes, [&](unsigned lane) -> long long {
    return lane < s.lanes ? static_cast<long long>((s.head + 4 * (s.first + lane)) * word_bytes) : -1;
  });
}

warp_step trace_leftovers(const input_values& values, std::uint64_t head, std::uint64_t tail_first, std::uint64_t n,
                          cudalab::trace_sink& sink) {
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

void trace_shared_zeroing(unsigned bins, cudalab::trace_sink& sink) {
  for (unsigned first = 0; first < bins; first += warp_size)
    sink.warp(cudalab::memory_space::shared, cudalab::access_kind::store, word_bytes, [&](unsigned lane) -> long long {
      return first + lane < bins ? static_cast<long long>(first + lane) * word_bytes : -1;
    });
}

void trace_flush(const std::vector<std::uint32_t>& block_counts, cudalab::trace_sink& sink) {
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
