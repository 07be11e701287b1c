// A launcher slot whose host code runs in a process of its own (the submission's process), not in the one that
// times and verifies it: what the runner asks of such code beyond slot_code. isolation/submission_process.hpp
// makes one.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "cudalab/slot.hpp"
#include "results/census.hpp"

namespace cudalab::host {

class remote_launcher : public slot_code {
 public:
  slot_kind kind() const final { return slot_kind::launcher; }
  void launch(dim3, dim3, std::size_t, cudaStream_t, void**) const final {
    throw std::logic_error("a launcher slot is called through entry(), not launched");
  }

  /// The next call() takes a kernel census of what the launcher puts on the GPU (CUPTI in the submission's
  /// process, whose session stream stands for the one it was given); census_of_last_call() gives it.
  virtual void census_next_call() const = 0;
  /// The census the last call took; nullopt when it took none.
  virtual std::optional<kernel_census> census_of_last_call() const = 0;

  /// The stream whose events time the calls (the session stream): each call's "go" is recorded there after
  /// the call's streams have joined it, its "done" waited on there, and the call's streams wait on it after.
  /// Until it is said, the call's first stream carries them. Only the stream that holds the timing's events
  /// may wait on the other process: in a standalone two-process program on the H100, a session stream that
  /// waited on a hub that waited on the other process made every copy and kernel of the work cost two switches
  /// between the processes (48 on one stream: 35.9 ms for 5.6; docs/grading.md).
  virtual void order_through(cudaStream_t session) const = 0;

  /// Enqueues on `stream` the ordering a call adds around the launcher's work - "go" recorded, waited on
  /// in another process, "done" recorded there and waited on here - with no work between: what the runner
  /// times to calibrate the handshake. The other process is one that runs no student code (a launcher could
  /// otherwise slow its handshakes to have more taken off its times). Throws like call().
  virtual void handshake(cudaStream_t stream) const = 0;
  /// The calibration is over: the other process of handshake() ends (a later handshake() starts another), so
  /// that while the launcher is timed only the harness's and the submission's contexts are on the GPU.
  virtual void end_handshakes() const = 0;

  /// What the calls so far found set in the submission's process when they came, that would keep a launcher's
  /// input in L2 across timed launches: how many calls found some, and what the first found, in words (""
  /// when none did). The harness's cold L2 before each timed launch resets its own process's state only.
  struct persisting_found {
    std::uint64_t calls = 0;
    std::string first;
  };
  virtual persisting_found persisting_l2() const = 0;
};

}  // namespace cudalab::host
