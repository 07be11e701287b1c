// The warp-level access trace a lab gives the CPU access model (`cudalab explain`).
#pragma once

#include <array>
#include <cstdint>

namespace cudalab {

/// Which memory one warp-wide instruction touches.
enum class memory_space { global, shared };
/// Whether it reads or writes.
enum class access_kind { load, store };

/// One warp-wide memory instruction: the address each lane touches (bytes; global addresses are
/// relative to a 256-byte-aligned allocation, shared ones to the block's shared memory) and how
/// many bytes each lane moves (1, 2, 4, 8 or 16). Lanes whose bit is clear in `active` do nothing.
struct warp_access {
  memory_space space = memory_space::global;
  access_kind kind = access_kind::load;
  unsigned bytes_per_lane = 4;
  std::uint32_t active = 0xffffffffu;
  std::array<std::uint64_t, 32> address{};
};

/// Receives a variant's warp accesses. A lab may trace every warp, or a sample of them and say so.
class trace_sink {
 public:
  virtual ~trace_sink() = default;

  /// Records one warp-wide memory instruction.
  virtual void access(const warp_access& access) = 0;

  /// Each access recorded from now on stands for `times` identical warp instructions (1 until
  /// called), so a lab can trace one representative block for many and its tail block once.
  /// REQUIRES: times > 0.
  virtual void repeat(std::uint64_t times) = 0;

  /// Declares that the accesses traced stand for `total_warps` warps of which `traced_warps` were
  /// traced: every total is scaled by total/traced. Use it for a uniform sample; use repeat() (or
  /// trace_blocks) when the warps traced are not alike, e.g. a full block and a partial tail block.
  virtual void sampled(std::uint64_t traced_warps, std::uint64_t total_warps) = 0;

  /// Traces a launch of `blocks` blocks whose blocks 0 .. blocks-2 all behave like block 0 (the
  /// same pattern at another offset) and whose last block may hold a tail: `trace_block(b)` records
  /// block b's accesses; block 0 is traced once with weight blocks-1, the last block with weight 1.
  template <class F>
  void trace_blocks(std::uint64_t blocks, F&& trace_block) {
    if (blocks == 0) return;
    if (blocks > 1) {
      repeat(blocks - 1);
      trace_block(std::uint64_t(0));
    }
    repeat(1);
    trace_block(blocks - 1);
  }

  /// Convenience: records an access whose lane addresses come from `lane_address(lane)`, which
  /// returns a negative value for an inactive lane.
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

}  // namespace cudalab
