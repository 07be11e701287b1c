// What the access model predicts for one variant: requests, 32-byte sectors, 128-byte lines and
// shared-memory wavefronts, as Nsight Compute counts them (docs/model.md has the mapping).
#pragma once

#include <cstdint>

namespace cudalab {

/// Totals for global loads, stores or atomics. For atomics, `sectors` counts serialised sector
/// accesses: lanes that hit one word are served one after another, each round one sector access.
struct global_totals {
  std::uint64_t requests = 0;  ///< warp instructions with at least one active lane
  std::uint64_t sectors = 0;
  std::uint64_t lines = 0;
  std::uint64_t requested_bytes = 0;  ///< bytes the active lanes asked for
  double sectors_per_request() const { return requests ? double(sectors) / double(requests) : 0.0; }
  /// Bytes asked for over bytes the sectors carry (Nsight Compute's global load/store efficiency);
  /// at most 1: lanes that repeat an address ask for those bytes once.
  double efficiency() const { return sectors ? double(requested_bytes) / (32.0 * double(sectors)) : 0.0; }
};

/// Totals for shared loads, stores or atomics.
struct shared_totals {
  std::uint64_t requests = 0;
  std::uint64_t wavefronts = 0;
  std::uint64_t ideal_wavefronts = 0;  ///< the fewest possible: one per 128 bytes moved, at least one
  /// Extra wavefronts caused by bank conflicts (Nsight Compute's bank_conflicts counter).
  std::uint64_t conflicts() const { return wavefronts > ideal_wavefronts ? wavefronts - ideal_wavefronts : 0; }
  double conflicts_per_request() const { return requests ? double(conflicts()) / double(requests) : 0.0; }
  double wavefronts_per_request() const { return requests ? double(wavefronts) / double(requests) : 0.0; }
};

/// A variant's predicted memory traffic, scaled to the whole launch when the trace was a sample.
struct access_stats {
  global_totals global_load, global_store, global_atomic;
  shared_totals shared_load, shared_store, shared_atomic;
  std::uint64_t traced_warps = 0;  ///< from trace_sink::sampled(); 0 when nothing was sampled
  std::uint64_t total_warps = 0;
  /// True when the variant recorded no access (a library call records none).
  bool empty() const {
    return global_load.requests + global_store.requests + global_atomic.requests + shared_load.requests +
               shared_store.requests + shared_atomic.requests ==
           0;
  }
};

}  // namespace cudalab
