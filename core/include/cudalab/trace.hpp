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

  /// Declares that the accesses traced stand for `total_warps` warps of which `traced_warps` were
  /// traced, so totals can be scaled. Without a call the trace is taken as complete.
  virtual void sampled(std::uint64_t traced_warps, std::uint64_t total_warps) = 0;

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
