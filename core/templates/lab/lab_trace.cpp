// The @LAB@ lab's model side: the warp accesses of each kernel, in program order, for the access model.
#include "@LAB@.hpp"
#include "cudalab/trace_loops.hpp"

namespace @LAB@ {

namespace {

using cudalab::access_kind;
using cudalab::memory_space;

constexpr std::uint64_t warp_size = 32;
constexpr unsigned element_bytes = sizeof(float);
constexpr unsigned vector_bytes = floats_per_vector * element_bytes;

/// A load and a store of the same addresses: each kernel reads element (or vector) i and writes it back.
template <class Address>
void load_and_store(cudalab::trace_sink& sink, unsigned bytes, Address&& address) {
  sink.warp(memory_space::global, access_kind::load, bytes, address);
  sink.warp(memory_space::global, access_kind::store, bytes, address);
}

}  // namespace

void trace_kernel(kernel k, const settings& s, cudalab::trace_sink& sink) {
  if (k == kernel::one_per_thread) {
    // Block 0 stands for every block but the last, which holds the tail.
    const auto block = static_cast<std::uint64_t>(s.block);
    sink.trace_blocks((s.n + block - 1) / block, [&](std::uint64_t b) {
      for (std::uint64_t w = 0; w < block / warp_size; ++w)
        load_and_store(sink, element_bytes, [&](unsigned lane) -> long long {
          const std::uint64_t i = first_item(b, block, w * warp_size + lane);
          return i < s.n ? static_cast<long long>(i * element_bytes) : -1;
        });
    });
    return;
  }
  // The grid-stride loop: whatever the grid and unroll, its warp steps are the aligned runs of 32 vectors.
  const std::uint64_t vectors = s.n / floats_per_vector;
  cudalab::trace_warp_steps(sink, vectors, [&](std::uint64_t first, unsigned lanes) {
    load_and_store(sink, vector_bytes, [&](unsigned lane) -> long long {
      return lane < lanes ? static_cast<long long>((first + lane) * vector_bytes) : -1;
    });
  });
  // Then block 0's first threads scale the floats after the last whole vector.
  load_and_store(sink, element_bytes, [&](unsigned lane) -> long long {
    const std::uint64_t i = vectors * floats_per_vector + lane;
    return i < s.n ? static_cast<long long>(i * element_bytes) : -1;
  });
}

}  // namespace @LAB@
