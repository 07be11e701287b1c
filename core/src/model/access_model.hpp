// The CPU access model: counts sectors, lines and shared-memory bank wavefronts from warp traces.
#pragma once

#include <cstdint>

#include "cudalab/access_stats.hpp"
#include "cudalab/trace.hpp"

namespace cudalab::host {

/// Sector and line size of the L1/L2 path for global memory, and the shared-memory bank layout.
inline constexpr unsigned sector_bytes = 32;
inline constexpr unsigned line_bytes = 128;
inline constexpr unsigned bank_count = 32;
inline constexpr unsigned bank_width_bytes = 4;

/// What one global-memory warp instruction costs.
struct global_cost {
  unsigned sectors = 0;               ///< sector accesses: distinct sectors touched; for an atomic, each
                                      ///< sector once per lane that hits its busiest word (serialised)
  unsigned lines = 0;                 ///< distinct 128-byte lines touched
  std::uint64_t requested_bytes = 0;  ///< distinct bytes the active lanes asked for
};

/// What one shared-memory warp instruction costs: wavefronts the banks need, and the fewest
/// possible (one per 128 bytes the warp moves, at least one).
struct shared_cost {
  unsigned wavefronts = 0;
  unsigned ideal_wavefronts = 0;
};

/// Counts for a global access: the distinct 32-byte sectors and 128-byte lines its lanes touch. Lanes
/// of an atomic that hit the same word are served one after another: a sector costs as many accesses
/// as its busiest word has lanes. REQUIRES: access.space == global.
global_cost global_request_cost(const warp_access& access);

/// Counts for a shared access: lanes are served in phases of 128 bytes (32 lanes of <= 4 bytes,
/// 16 of 8, 8 of 16); in each phase a bank serves one distinct 4-byte word per wavefront, and lanes
/// on the same word share it (broadcast). An atomic's lanes on one word are combined alike (counted on
/// the H100: a histogram's shared atomicAdd with every lane on one bin took one wavefront); its lanes
/// are served in one phase of 32 whatever their width. REQUIRES: access.space == shared.
shared_cost shared_request_cost(const warp_access& access);

/// A trace_sink that accumulates access_stats.
class access_model final : public trace_sink {
 public:
  void access(const warp_access& access) override;
  void set_weight(std::uint64_t times) override;
  std::uint64_t weight() const override { return weight_; }
  void sampled(std::uint64_t traced_warps, std::uint64_t total_warps) override;
  /// The totals, with every count scaled by total/traced warps when the trace was a sample.
  access_stats stats() const;

 private:
  access_stats raw_;
  std::uint64_t weight_ = 1;
};

}  // namespace cudalab::host
