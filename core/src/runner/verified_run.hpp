// The life of one sweep point: setup through the session (checked), verified runs of its variants,
// and the teardown that ends the point's registrations. The runner and cudalab::testing share it.
#pragma once

#include <memory>
#include <string>

#include "cudalab/lab.hpp"
#include "plugin/plugin_call.hpp"
#include "runner/host_session.hpp"

namespace cudalab::host {

/// A submission to run in place of a lab variant's own code (a student variant): the slot it fills
/// and its code. Empty for the lab's own variants.
struct student_code {
  const slot_spec* slot = nullptr;
  const slot_code* code = nullptr;
  explicit operator bool() const { return slot && code; }
};

/// Told, inside a verified run, when the run is about to be enqueued and when its stream has finished
/// it: what the kernel census records in between is the run's own work.
class run_watch {
 public:
  virtual ~run_watch() = default;
  /// The outputs are prepared and the device idle; the run is enqueued on `stream` next.
  virtual void started(cudaStream_t stream) = 0;
  /// `stream` has finished the run (synchronised); verify() is next.
  virtual void finished(cudaStream_t stream) = 0;
};

/// A point set up by a lab: destroying it is the lab's teardown, and ends its registrations.
/// What a verified run came to: the lab's verdict (with the changed inputs folded in: such a run fails,
/// its note naming them) and, as data, whether it changed a registered input.
struct checked_run {
  verification verdict;
  bool input_changed = false;
};

class live_point {
 public:
  /// Calls l.setup(p, session) and checks what it made: a point, at least one registered output (or
  /// the host could not tell a missing write from a right one); then records the inputs' checksums.
  /// Throws lab_call_error naming `call` (its function becomes "setup") for a plugin failure or
  /// mistake; cuda_error for the host's own CUDA calls.
  live_point(const lab& l, const params& p, host_session& session, plugin_call call);
  ~live_point();
  live_point(const live_point&) = delete;
  live_point& operator=(const live_point&) = delete;

  /// One verified execution of variant `v` (or of `student`, a submission doing v's job):
  /// outputs prepared (poisoned or zeroed), one run enqueued and waited for, verify(v); then the inputs
  /// are checked, and a variant that changed one fails verification whatever verify() said. `call`
  /// names the variant for messages. The run and the wait for it, and nothing else (no preparation,
  /// no check), are inside an NVTX range named `range` ("": none; nvtx_range.hpp). `watch`, when
  /// given, is told when the run starts and finishes.
  checked_run verified_run(variant_index v, plugin_call call, const student_code& student = {},
                           const std::string& range = {}, run_watch* watch = nullptr);

  /// Moves the point to `p`, which differs from its parameters only in tuning parameters
  /// (lab_point::retune). Throws lab_call_error naming `call` (its function becomes "retune").
  void retune(const params& p, plugin_call call);

  /// Enqueues one run of `v` (or of `student`) on `stream`, for timing (no preparation, no check).
  void run(variant_index v, cudaStream_t stream, const student_code& student = {}) {
    if (student)
      point_->run_slot(student.slot->name, *student.code, stream);
    else
      point_->run(v, stream);
  }

 private:
  host_session& session_;
  std::unique_ptr<lab_point> point_;
};

}  // namespace cudalab::host
