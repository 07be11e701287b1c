// What the access model predicts, as data: global sectors and lines, shared-memory wavefronts and
// conflicts, per load and store side. Results, reports and explain read it; access_model fills it.
#pragma once

#include <cstdint>

namespace cudalab::host {

/// Sector and line size of the L1/L2 path for global memory, and the shared-memory bank layout.
inline constexpr unsigned sector_bytes = 32;
inline constexpr unsigned line_bytes = 128;
inline constexpr unsigned bank_count = 32;
inline constexpr unsigned bank_width_bytes = 4;

/// Totals for global loads or stores.
struct global_totals {
  std::uint64_t requests = 0;
  std::uint64_t sectors = 0;
  std::uint64_t lines = 0;
  std::uint64_t requested_bytes = 0;
  double sectors_per_request() const { return requests ? double(sectors) / double(requests) : 0.0; }
  /// Bytes asked for over bytes the sectors carry (Nsight Compute's global load/store efficiency).
  double efficiency() const {
    return sectors ? double(requested_bytes) / (double(sector_bytes) * double(sectors)) : 0.0;
  }
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
  /// True when the trace recorded no access at all (a library call or host work: nothing modelled).
  bool empty() const {
    return global_load.requests + global_store.requests + shared_load.requests + shared_store.requests == 0;
  }
};

}  // namespace cudalab::host
