// The alignment lab's model side: the warp accesses of each variant, in program order, for the access model.
#include <cstdint>

#include "alignment.hpp"
#include "alignment_kernels.cuh"
#include "cudalab/trace_loops.hpp"

namespace alignment {

namespace {

/// Traces the one-pass kernels (one item per thread and unroll step). `source`/`target` give the
/// element index an item reads and writes; `bytes` the size of one item. Block 0 stands for every
/// block but the last, which is traced on its own (it holds the tail).
template <class Source, class Target>
void trace_one_pass(cudalab::trace_sink& sink, std::uint64_t items, std::uint64_t block, std::uint64_t unroll,
                    unsigned bytes, Source source, Target target) {
  const std::uint64_t warps_per_block = block / 32;
  sink.trace_blocks(blocks_for(items, block, unroll), [&](std::uint64_t b) {
    for (std::uint64_t w = 0; w < warps_per_block; ++w) {
      // All loads of a thread are issued before its stores, as in the kernels.
      for (std::uint64_t k = 0; k < unroll; ++k)
        sink.warp(cudalab::memory_space::global, cudalab::access_kind::load, bytes, [&](unsigned lane) -> long long {
          const std::uint64_t i = unrolled_index(b, block, w * 32 + lane, k, unroll);
          return i < items ? static_cast<long long>(source(i) * bytes) : -1;
        });
      for (std::uint64_t k = 0; k < unroll; ++k)
        sink.warp(cudalab::memory_space::global, cudalab::access_kind::store, bytes, [&](unsigned lane) -> long long {
          const std::uint64_t i = unrolled_index(b, block, w * 32 + lane, k, unroll);
          return i < items ? static_cast<long long>(target(i) * bytes) : -1;
        });
    }
  });
}

/// Traces the scalar tail copy of the vector kernels: block 0's first lanes copy the last floats.
void trace_scalar_tail(cudalab::trace_sink& sink, std::uint64_t first, std::uint64_t tail) {
  if (tail == 0) return;
  auto addr = [&](unsigned lane) -> long long {
    return lane < tail ? static_cast<long long>((first + lane) * sizeof(float)) : -1;
  };
  sink.warp(cudalab::memory_space::global, cudalab::access_kind::load, 4, addr);
  sink.warp(cudalab::memory_space::global, cudalab::access_kind::store, 4, addr);
}

/// Traces the grid-stride float4 copy. Whatever the grid, its warp steps are the aligned runs of 32
/// vectors (the unroll only groups a thread's steps into passes), then block 0 copies the tail.
void trace_grid_stride(cudalab::trace_sink& sink, std::uint64_t n) {
  const std::uint64_t vectors = n / 4;
  cudalab::trace_warp_steps(sink, vectors, [&](std::uint64_t first, unsigned lanes) {
    auto addr = [&](unsigned lane) -> long long {
      return lane < lanes ? static_cast<long long>((first + lane) * 16) : -1;
    };
    sink.warp(cudalab::memory_space::global, cudalab::access_kind::load, 16, addr);
    sink.warp(cudalab::memory_space::global, cudalab::access_kind::store, 16, addr);
  });
  trace_scalar_tail(sink, vectors * 4, n - vectors * 4);
}

}  // namespace

void trace_variant(const policy& v, const settings& s, cudalab::trace_sink& sink) {
  const std::uint64_t block = static_cast<std::uint64_t>(s.block);
  const std::uint64_t unroll = static_cast<std::uint64_t>(s.unroll);
  const std::uint64_t count = s.moved(v.what);
  const std::uint64_t offset = s.offset;
  auto same = [](std::uint64_t i) { return i; };
  auto shifted = [&](std::uint64_t i) { return offset_copy_element(i, offset); };
  switch (v.what) {
    case pattern::offset_read:
      return trace_one_pass(
          sink, count, block, unroll, 4, [&](std::uint64_t i) { return offset_read_source(i, offset); }, same);
    case pattern::offset_write:
      return trace_one_pass(sink, count, block, unroll, 4, same,
                            [&](std::uint64_t i) { return offset_write_target(i, offset); });
    case pattern::offset_copy:
      return trace_one_pass(sink, count, block, unroll, 4, shifted, shifted);
    case pattern::strided:
      return trace_one_pass(
          sink, count, block, unroll, 4, [&](std::uint64_t i) { return strided_source(i, s.stride); }, same);
    case pattern::vector_copy: {
      const std::uint64_t width = static_cast<std::uint64_t>(v.vector_bytes) / sizeof(float);
      const std::uint64_t vectors = s.n / width;
      trace_one_pass(sink, vectors, block, unroll, static_cast<unsigned>(v.vector_bytes), same, same);
      return trace_scalar_tail(sink, vectors * width, s.n - vectors * width);
    }
    case pattern::grid_stride:
      return trace_grid_stride(sink, s.n);
    case pattern::library_copy:
      return;  // a library copy: not modelled
  }
}

}  // namespace alignment
