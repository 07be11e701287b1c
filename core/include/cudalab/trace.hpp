// The warp-level access trace a lab gives the CPU access model (`cudalab explain`, and every result).
#pragma once

#include <array>
#include <cstdint>

namespace cudalab {

/// Which memory one warp-wide instruction touches.
enum class memory_space { global, shared };

/// What it does there. An atomic (atomicAdd, red, atom) reads and writes its word. In global memory,
/// lanes that hit the same word are served one after another, so the model charges them as serialised;
/// in shared memory the lanes on one word are combined, and the banks cost what a load's would.
enum class access_kind { load, store, atomic };

/// One warp-wide memory instruction: the address each lane touches (bytes; global addresses are
/// relative to a 256-byte-aligned allocation, shared ones to the block's shared memory) and how
/// many bytes each lane moves (1, 2, 4, 8 or 16; atomics 4 or 8). Lanes whose bit is clear in
/// `active` do nothing.
struct warp_access {
  memory_space space = memory_space::global;
  access_kind kind = access_kind::load;
  unsigned bytes_per_lane = 4;
  std::uint32_t active = 0xffffffffu;
  std::array<std::uint64_t, 32> address{};
};

/// Receives a variant's warp accesses. A lab may trace every warp, or trace one warp for many with
/// a weight (exact when those warps are alike), or a uniform sample and say so with sampled().
class trace_sink {
 public:
  virtual ~trace_sink() = default;

  /// Records one warp-wide memory instruction, counted weight() times.
  virtual void access(const warp_access& access) = 0;

  /// Each access recorded from now on stands for `times` identical warp instructions.
  /// REQUIRES: times > 0. Prefer the scoped class `weighted`, which composes with outer weights.
  virtual void set_weight(std::uint64_t times) = 0;

  /// The weight accesses are recorded with now (1 until set).
  virtual std::uint64_t weight() const = 0;

  /// Declares that the accesses traced stand for `total_warps` warps of which `traced_warps` were
  /// traced: every total is scaled by total/traced. Use it for a uniform sample; use weights when
  /// the warps traced stand for known numbers of others (a full block and a partial tail block).
  virtual void sampled(std::uint64_t traced_warps, std::uint64_t total_warps) = 0;

  /// Traces a launch of `blocks` blocks whose blocks 0 .. blocks-2 all behave like block 0 (the
  /// same pattern at another offset) and whose last block may hold a tail: `trace_block(b)` records
  /// block b's accesses; block 0 is traced once for blocks-1 blocks, the last block once. Weights
  /// multiply any weight already set.
  template <class F>
  void trace_blocks(std::uint64_t blocks, F&& trace_block);

  /// Convenience: records an access whose lane addresses come from `lane_address(lane)`, which
  /// returns a negative value for an inactive lane. Nothing is recorded when no lane is active.
  template <class F>
  void warp(memory_space space, access_kind kind, unsigned bytes_per_lane, F&& lane_address) {
    warp_access a;
    a.space = space;
    a.kind = kind;
    a.bytes_per_lane = bytes_per_lane;
    a.active = 0;
    for (unsigned lane = 0; lane < 32; ++lane) {
      const long long addr = static_cast<long long>(lane_address(lane));
      if (addr < 0) continue;
      a.active |= 1u << lane;
      a.address[lane] = static_cast<std::uint64_t>(addr);
    }
    if (a.active != 0) access(a);
  }
};

/// Multiplies the sink's weight by `times` for its lifetime, then restores it: what one traced warp
/// stands for inside a loop or block that itself stands for several. REQUIRES: times > 0.
class weighted {
 public:
  weighted(trace_sink& sink, std::uint64_t times) : sink_(sink), outer_(sink.weight()) {
    sink_.set_weight(outer_ * times);
  }
  weighted(const weighted&) = delete;
  weighted& operator=(const weighted&) = delete;
  ~weighted() { sink_.set_weight(outer_); }

 private:
  trace_sink& sink_;
  std::uint64_t outer_;
};

template <class F>
void trace_sink::trace_blocks(std::uint64_t blocks, F&& trace_block) {
  if (blocks == 0) return;
  if (blocks > 1) {
    weighted w(*this, blocks - 1);
    trace_block(std::uint64_t(0));
  }
  trace_block(blocks - 1);
}

}  // namespace cudalab
