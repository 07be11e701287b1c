// The aos_soa lab's model side: the warp accesses of each kernel, in program order, for the access model.
#include <algorithm>
#include <cstdint>

#include "aos_soa.hpp"
#include "aos_soa_kernels.cuh"
#include "cudalab/trace_loops.hpp"

namespace aos_soa {

namespace {

using cudalab::access_kind;
using cudalab::memory_space;

/// One load and one store of each lane's address (the update kernels read and write the same place).
template <class F>
void load_and_store(cudalab::trace_sink& sink, unsigned bytes, F&& address) {
  sink.warp(memory_space::global, access_kind::load, bytes, address);
  sink.warp(memory_space::global, access_kind::store, bytes, address);
}

/// One SoA field array as the warp of threads [first, first + 32) moves it: its runs of 32 consecutive
/// 16-byte vectors, element by element where a vector would run past n.
void trace_soa_field(const settings& s, int f, std::uint64_t first, cudalab::trace_sink& sink) {
  // A lane's soa_group elements of a 4- or 8-byte field fill `vectors` 16-byte vectors of per_vector elements.
  const unsigned size = s.l.size[f], per_vector = 16 / size, vectors = soa_group * size / 16;
  for (unsigned v = 0; v < vectors; ++v) {
    const auto vector_first = [&, v](unsigned lane) { return soa_vector_first(first + lane, v, per_vector); };
    load_and_store(sink, 16, [&](unsigned lane) -> long long {
      const std::uint64_t e = vector_first(lane);
      return e + per_vector <= s.n ? static_cast<long long>(s.soa.start[f] + e * size) : -1;
    });
    for (unsigned j = 0; j < per_vector; ++j)
      load_and_store(sink, size, [&](unsigned lane) -> long long {
        const std::uint64_t e = vector_first(lane) + j;
        return vector_first(lane) + per_vector > s.n && e < s.n ? static_cast<long long>(s.soa.start[f] + e * size)
                                                                : -1;
      });
  }
}

/// The warp of threads [first, first + 32) of a kernel that gives each thread its own record (or four
/// words, or SoA group). All 32 lanes are traced, each with the kernel's own bounds checks: the kernels
/// launch whole warps, and an SoA lane moves the warp's vectors, not only its own elements.
void trace_thread_warp(kernel k, const settings& s, std::uint64_t first, cudalab::trace_sink& sink) {
  const layout& l = s.l;
  switch (k) {
    case kernel::copy: {
      const std::uint64_t words = s.n * l.record_bytes / 4;
      load_and_store(sink, 16, [&](unsigned lane) -> long long {
        const std::uint64_t t = first + lane;
        return 4 * t + 4 <= words ? static_cast<long long>(16 * t) : -1;
      });
      for (unsigned j = 0; j < 3; ++j)  // the thread at the end copies the last 1-3 words one by one
        load_and_store(sink, 4, [&](unsigned lane) -> long long {
          const std::uint64_t t = first + lane;
          return 4 * t + 4 > words && 4 * t + j < words ? static_cast<long long>(4 * (4 * t + j)) : -1;
        });
      return;
    }
    case kernel::aos_all:
    case kernel::aos_one: {
      const int k0 = k == kernel::aos_one ? s.field : 0, k1 = k == kernel::aos_one ? s.field + 1 : l.fields;
      for (int f = k0; f < k1; ++f)
        load_and_store(sink, l.size[f], [&](unsigned lane) -> long long {
          const std::uint64_t i = first + lane;
          return i < s.n ? static_cast<long long>(i * l.record_bytes + l.offset[f]) : -1;
        });
      return;
    }
    case kernel::aos_all_aligned: {
      // The whole record in vector words: all loads, then (after the update) all stores.
      for (access_kind kind : {access_kind::load, access_kind::store})
        for (unsigned c = 0; c < l.aligned_bytes / l.vector_bytes; ++c)
          sink.warp(memory_space::global, kind, l.vector_bytes, [&](unsigned lane) -> long long {
            const std::uint64_t i = first + lane;
            return i < s.n ? static_cast<long long>(i * l.aligned_bytes + c * l.vector_bytes) : -1;
          });
      return;
    }
    case kernel::soa_all:
      for (int f = 0; f < l.fields; ++f) trace_soa_field(s, f, first, sink);
      return;
    case kernel::soa_one:
      trace_soa_field(s, s.field, first, sink);
      return;
    case kernel::aos_to_soa:
    case kernel::soa_to_aos:
      return;  // block by block: trace_tile_block
  }
}

/// Block `b` of aos_to_soa or soa_to_aos: the block-stride copy of its records' words between global
/// memory and the swizzled tile, and each thread's fields between the tile and the field arrays.
void trace_tile_block(kernel k, const settings& s, std::uint64_t b, cudalab::trace_sink& sink) {
  const layout& l = s.l;
  const unsigned words = l.record_bytes / 4;
  const std::uint64_t base = thread_element(b, s.block, 0);
  const unsigned count = static_cast<unsigned>(std::min<std::uint64_t>(s.block, s.n - base));
  // The loop `for (w = threadIdx.x; w < count * words; w += blockDim.x)`, global side first when reading.
  const auto tile_walk = [&](access_kind global_kind) {
    const access_kind shared_kind = global_kind == access_kind::load ? access_kind::store : access_kind::load;
    cudalab::trace_warp_steps(sink, count * words, [&](std::uint64_t w0, unsigned lanes) {
      const auto global = [&](unsigned lane) -> long long {
        return lane < lanes ? static_cast<long long>(base * l.record_bytes + 4 * (w0 + lane)) : -1;
      };
      const auto shared = [&](unsigned lane) -> long long {
        return lane < lanes ? static_cast<long long>(4u * swizzled_word(unsigned(w0) + lane, words)) : -1;
      };
      if (global_kind == access_kind::load) sink.warp(memory_space::global, global_kind, 4, global);
      sink.warp(memory_space::shared, shared_kind, 4, shared);
      if (global_kind == access_kind::store) sink.warp(memory_space::global, global_kind, 4, global);
    });
  };
  // Thread t < count moves record t: word j of it in the tile, field f of it in field array f.
  const auto per_record = [&](auto&& warp_step) { cudalab::trace_warp_steps(sink, count, warp_step); };
  const auto tile = [&](access_kind kind, std::uint64_t t0, unsigned lanes, unsigned j) {
    sink.warp(memory_space::shared, kind, 4, [&](unsigned lane) -> long long {
      return lane < lanes ? static_cast<long long>(4u * swizzled_word(unsigned(t0 + lane) * words + j, words)) : -1;
    });
  };
  const auto field_array = [&](access_kind kind, std::uint64_t t0, unsigned lanes, int f) {
    sink.warp(memory_space::global, kind, l.size[f], [&](unsigned lane) -> long long {
      return lane < lanes ? static_cast<long long>(s.soa.start[f] + (base + t0 + lane) * l.size[f]) : -1;
    });
  };
  if (k == kernel::aos_to_soa) {
    tile_walk(access_kind::load);
    per_record([&](std::uint64_t t0, unsigned lanes) {
      for (int f = 0; f < l.fields; ++f) {
        for (unsigned h = 0; h < l.size[f] / 4; ++h) tile(access_kind::load, t0, lanes, l.offset[f] / 4 + h);
        field_array(access_kind::store, t0, lanes, f);
      }
    });
  } else {
    per_record([&](std::uint64_t t0, unsigned lanes) {
      for (unsigned j = 0; j < words; ++j)  // padding words are zeroed
        if (with_record(s.shape, [&](auto tag) { return padding_word<typename decltype(tag)::type>(j); }))
          tile(access_kind::store, t0, lanes, j);
      for (int f = 0; f < l.fields; ++f) {
        field_array(access_kind::load, t0, lanes, f);
        for (unsigned h = 0; h < l.size[f] / 4; ++h) tile(access_kind::store, t0, lanes, l.offset[f] / 4 + h);
      }
    });
    tile_walk(access_kind::store);
  }
}

}  // namespace

void trace_kernel(kernel k, const settings& s, cudalab::trace_sink& sink) {
  if (k == kernel::aos_to_soa || k == kernel::soa_to_aos) {
    // Block 0 stands for every block but the last, which holds the tail and is traced on its own.
    sink.trace_blocks((s.n + s.block - 1) / s.block, [&](std::uint64_t b) { trace_tile_block(k, s, b, sink); });
    return;
  }
  // One thread per record, per 4 words (copy) or per SoA group: the warps are the aligned runs of 32
  // threads. Those whose lanes all have whole work are alike, and traced with exact weights; the one
  // with the tail (which may lie in a full warp of threads) is traced on its own.
  const std::uint64_t items = k == kernel::copy ? s.n * s.l.record_bytes / 4 : s.n;
  const std::uint64_t per_thread = k == kernel::copy ? 4 : k == kernel::soa_all || k == kernel::soa_one ? soa_group : 1;
  const std::uint64_t whole_warps = items / (32 * per_thread);
  cudalab::trace_warp_steps(sink, 32 * whole_warps,
                            [&](std::uint64_t first, unsigned) { trace_thread_warp(k, s, first, sink); });
  if (32 * whole_warps * per_thread < items) trace_thread_warp(k, s, 32 * whole_warps, sink);
}

}  // namespace aos_soa
