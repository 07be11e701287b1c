// A launcher slot run in the submission's own process (issue 31: the process that times and verifies never
// runs a student's host code): `cudalab __submission ARTIFACT ENTRY`, started by the harness (the unit child
// that has the lab) with one socket, which loads the launcher and makes each call on the harness's own
// buffers - device memory through CUDA IPC handles, pinned host memory (pinned_buffer) through its memfd - on
// streams of its own ordered with the harness's by IPC events: "go" recorded on the harness's stream before
// the call and waited on there, "done" recorded after the launcher's work and waited on here. The harness
// makes itself undumpable first, so that the other process, the same user in the same sandbox, cannot
// read or write its memory.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cudalab/device_buffer.hpp"
#include "cudalab/pinned_buffer.hpp"
#include "slots/remote_launcher.hpp"

namespace cudalab::host {

/// The argument that starts the submission's process: `cudalab __submission ARTIFACT ENTRY` (fd 3 its socket).
inline constexpr const char* submission_entry = "__submission";

class submission_process final : public remote_launcher {
 public:
  /// Starts `executable __submission artifact entry` and waits for it to say it has loaded `entry` from
  /// `artifact` ("": no code - a calibration peer, which makes handshakes only). Throws std::runtime_error
  /// with its message when it cannot (the file, the symbol, the spawn).
  submission_process(const std::string& executable, const std::string& artifact, const std::string& entry);
  /// Tells the process to end, and reaps it (killed when it does not end at once).
  ~submission_process() override;

  cudaError_t call(const slot_call& call) const override;
  void census_next_call() const override {
    census_next_ = true;
    last_census_.reset();
  }
  std::optional<kernel_census> census_of_last_call() const override { return last_census_; }
  /// The handshake with a peer of its own that loads no student code (started at the first call, in the same
  /// way): a launcher's process cannot slow the calibration down, which is taken off its own times.
  void handshake(cudaStream_t stream) const override;
  void end_handshakes() const override { peer_.reset(); }
  persisting_found persisting_l2() const override { return persisting_; }
  void order_through(cudaStream_t session) const override { through_ = session; }

 private:
  struct stream_pair {
    cudaEvent_t go = nullptr, done = nullptr;
  };
  struct copy_scratch {  ///< what each stream handed over copies before it waits on the hub (send())
    copy_scratch() : device(1), host(1) {}
    device_buffer<std::uint32_t> device;
    pinned_buffer<std::uint32_t> host;
  };
  struct exchange;  // one call's wire message, being built (submission_process.cpp)
  cudaError_t send(exchange& x, bool handshake_only) const;
  std::string ended() const;

  std::string executable_;
  bool peer_only_ = false;                            ///< a calibration peer: no student code
  mutable std::unique_ptr<submission_process> peer_;  ///< the calibration peer of a launcher's process
  mutable pid_t pid_ = -1;                            ///< reaped (-1) once ended() has seen it end
  int socket_ = -1;
  mutable bool census_next_ = false;
  mutable std::optional<kernel_census> last_census_;
  mutable persisting_found persisting_;          ///< what the calls found set when they came
  mutable std::vector<stream_pair> events_;      ///< by stream index
  mutable std::optional<cudaStream_t> through_;  ///< order_through()'s stream, once said
  mutable std::vector<cudaEvent_t> joins_;       ///< local: [0] the hub's after "done", [k + 1] stream k's before "go"
  mutable std::optional<copy_scratch> copy_scratch_;
  mutable std::map<std::string, std::uint64_t> device_ids_;            ///< IPC handle bytes -> buffer id
  mutable std::map<std::pair<dev_t, ino_t>, std::uint64_t> host_ids_;  ///< memfd -> buffer id
  mutable std::set<std::uint64_t> held_device_, held_host_;            ///< what the other process holds open now
  mutable std::uint64_t next_id_ = 1;
  mutable std::mt19937_64 nonces_{std::random_device{}()};  ///< each call's nonce
  mutable std::string broken_;                              ///< why no more calls can be made ("" while they can)
};

/// The submission's process: serves the harness on descriptor `socket` until it closes or says so. Loads
/// `entry` from `artifact` first and says whether it could. Gives the process's exit code.
int serve_submission(int socket, const std::string& artifact, const std::string& entry);

}  // namespace cudalab::host
