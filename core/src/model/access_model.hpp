// The CPU access model: counts sectors, lines and shared-memory bank wavefronts from warp traces.
#pragma once

#include <cstdint>

#include "cudalab/trace.hpp"
#include "model/access_stats.hpp"

namespace cudalab::host {

/// What one global-memory warp instruction costs.
struct global_cost {
  unsigned sectors = 0;          ///< distinct 32-byte sectors touched
  unsigned lines = 0;            ///< distinct 128-byte lines touched
  std::uint64_t requested_bytes = 0;  ///< bytes the active lanes asked for
};

/// What one shared-memory warp instruction costs: wavefronts the banks need, and the fewest
/// possible (one per 128 bytes the warp moves, at least one).
struct shared_cost {
  unsigned wavefronts = 0;
  unsigned ideal_wavefronts = 0;
};

/// Counts for a global access. REQUIRES: access.space == global.
global_cost global_request_cost(const warp_access& access);

/// Counts for a shared access: lanes are served in phases of 128 bytes (32 lanes of <= 4 bytes,
/// 16 of 8, 8 of 16); in each phase a bank serves one distinct 4-byte word per wavefront, and lanes
/// reading the same word share it (broadcast). REQUIRES: access.space == shared.
shared_cost shared_request_cost(const warp_access& access);

/// A trace_sink that accumulates access_stats.
class access_model final : public trace_sink {
 public:
  void access(const warp_access& access) override;
  void repeat(std::uint64_t times) override;
  void sampled(std::uint64_t traced_warps, std::uint64_t total_warps) override;
  /// The totals, with request and sector counts scaled by total/traced warps.
  access_stats stats() const;

 private:
  access_stats raw_;
  std::uint64_t weight_ = 1;
};

}  // namespace cudalab::host
