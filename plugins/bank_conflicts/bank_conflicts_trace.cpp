// The bank-conflict micro-lab's model side: the warp accesses of its kernel, in program order, for the access model.
#include "bank_conflicts.hpp"
#include "bank_conflicts_kernels.cuh"

namespace bank_conflicts {

void trace_read(unsigned width_bytes, const settings& s, cudalab::trace_sink& sink) {
  using cudalab::access_kind;
  using cudalab::memory_space;
  const unsigned elements = shared_elements(s.stride);
  const unsigned n_words = elements * words_per_element(width_bytes);
  // Every block does the same: block 0's warps, traced in full, stand for every block.
  cudalab::weighted per_block(sink, s.blocks);
  for (unsigned warp = 0; warp < s.threads / 32; ++warp) {
    for (unsigned base = warp * 32; base < n_words; base += s.threads) {
      auto word = [=](unsigned lane) -> long long { return base + lane < n_words ? (base + lane) * 4ll : -1; };
      sink.warp(memory_space::global, access_kind::load, 4, word);
      sink.warp(memory_space::shared, access_kind::store, 4, word);
    }
    unsigned first[32];
    for (unsigned lane = 0; lane < 32; ++lane) first[lane] = first_element(lane, s.stride);
    for (unsigned i = 0; i < s.iterations; ++i) {
      sink.warp(memory_space::shared, access_kind::load, width_bytes,
                [&](unsigned lane) -> long long { return static_cast<long long>(first[lane]) * width_bytes; });
      for (auto& e : first) e = next_element(e, elements);
    }
    sink.warp(memory_space::global, access_kind::store, 4,
              [=](unsigned lane) -> long long { return (warp * 32ll + lane) * 4; });
  }
}

}  // namespace bank_conflicts
