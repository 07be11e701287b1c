// A cold start for every timed launch: what the last launch, or code run before it, left in the L2 -
// its lines, persisting lines, a persisting set-aside, the stream's access policy window - undone
// outside the timed region.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cudalab/device_buffer.hpp"

namespace cudalab::host {

/// What reset_state() found set before it reset it: a submission that keeps its inputs resident in L2
/// across launches (a persisting window that carries into the next timed launch) leaves these behind.
struct persisting_l2_state {
  std::uint64_t set_aside_bytes = 0;  ///< cudaLimitPersistingL2CacheSize
  std::uint64_t window_bytes = 0;     ///< num_bytes of the stream's access policy window

  /// True when either was set.
  bool any() const { return set_aside_bytes > 0 || window_bytes > 0; }
  /// "a persisting-L2 set-aside of 4194304 bytes and an access policy window of 1048576 bytes on the
  /// timed stream", naming what was set; "" when nothing was.
  std::string text() const;
};

/// Reads the current device's persisting-L2 set-aside as the driver left it, before any lab or submission
/// code runs (open_device calls it): the floor a cold_cache judges readings against. The H100 (driver 580)
/// sets 9830400 bytes aside of its own. No-op on a device without persisting L2 or where it cannot be read.
void record_persisting_l2_default();

/// What is set now that would keep data in L2 across launches - a set-aside above the driver's own
/// (record_persisting_l2_default's reading; any, where it was not read) and the largest access policy window
/// of `streams` - read only: nothing is reset and nothing waits for the GPU. Nothing on a device without
/// persisting L2. The submission's process (isolation/submission_process.hpp) reports it with each call.
persisting_l2_state read_persisting_l2(const std::vector<cudaStream_t>& streams);

/// The L2 made cold before each timed launch of a sample_timer with l2_flush.
class cold_cache {
 public:
  /// A scratch buffer of twice `l2_bytes` (at least 1 MiB) on the current device, which is asked
  /// whether it has persisting L2 at all; where it has, its set-aside is read, reset and read back (the
  /// floor a later reading is judged against). Throws cuda_error.
  explicit cold_cache(std::uint64_t l2_bytes);

  /// Host side, between samples (the stream idle: the last sample was waited for): reads the
  /// persisting-L2 set-aside and `stream`'s access policy window, then resets every persisting line to
  /// normal (cudaCtxResetPersistingL2Cache), the set-aside to 0 and the window to none. Returns what was
  /// set: a set-aside above the floor (the most read where nothing timed had set one), a window. Does nothing on a
  /// device without persisting L2. Every call checked: throws cuda_error.
  persisting_l2_state reset_state(cudaStream_t stream);

  /// Enqueues on `stream` a write of the scratch buffer, which evicts whatever the last launch left
  /// in L2 (after reset_state(), persisting lines included). Throws cuda_error.
  void flush(cudaStream_t stream);

 private:
  /// Persisting lines back to normal, the set-aside to 0; returns the set-aside as read back then.
  std::uint64_t reset_and_read_back();

  device_buffer<unsigned char> scratch_;
  bool persisting_ = false;  // the device sets L2 aside for persisting accesses (compute capability 8.0 on)
  // The most set-aside seen where nothing timed had set one: when the harness was made, and after each of
  // its resets (the driver's own). A reading above it was set by the code timed.
  std::uint64_t floor_bytes_ = 0;
  std::uint64_t found_before_ = 0;  // a set-aside above the floor when this was made (the first reset reports it)
};

}  // namespace cudalab::host
