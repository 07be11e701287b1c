// The CPU access model: counts sectors, lines and shared-memory bank wavefronts from warp traces.
#pragma once

#include <cstdint>

#include "cudalab/trace.hpp"

namespace cudalab::host {

/// Sector and line size of the L1/L2 path for global memory, and the shared-memory bank layout.
inline constexpr unsigned sector_bytes = 32;
inline constexpr unsigned line_bytes = 128;
inline constexpr unsigned bank_count = 32;
inline constexpr unsigned bank_width_bytes = 4;

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

/// Totals for global loads or stores.
struct global_totals {
  std::uint64_t requests = 0;
  std::uint64_t sectors = 0;
  std::uint64_t lines = 0;
  std::uint64_t requested_bytes = 0;
  double sectors_per_request() const { return requests ? double(sectors) / double(requests) : 0.0; }
  /// Bytes asked for over bytes the sectors carry (Nsight Compute's global load/store efficiency).
  double efficiency() const { return sectors ? double(requested_bytes) / (32.0 * double(sectors)) : 0.0; }
};

/// Totals for shared loads or stores.
struct shared_totals {
  std::uint64_t requests = 0;
  std::uint64_t wavefronts = 0;
  std::uint64_t ideal_wavefronts = 0;
  /// Extra wavefronts caused by bank conflicts (Nsight Compute's bank_conflicts counter).
  std::uint64_t conflicts() const { return wavefronts > ideal_wavefronts ? wavefronts - ideal_wavefronts : 0; }
  double conflicts_per_request() const { return requests ? double(conflicts()) / double(requests) : 0.0; }
  double wavefronts_per_request() const { return requests ? double(wavefronts) / double(requests) : 0.0; }
};

/// A variant's predicted memory traffic, scaled to the whole launch when the trace was a sample.
struct access_stats {
  global_totals global_load, global_store;
  shared_totals shared_load, shared_store;
  std::uint64_t traced_warps = 0;  ///< from sampled(); 0 when the trace was complete
  std::uint64_t total_warps = 0;
};

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
