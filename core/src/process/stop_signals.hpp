// The signals that end a run from outside - Ctrl-C, SIGTERM, a closed terminal, a reader of stdout
// that went away - turned into a request to stop, so that the run still writes what it measured.
#pragma once

#include <atomic>

namespace cudalab::host {

/// While one lives, SIGINT (Ctrl-C), SIGTERM, SIGHUP (the terminal closed) and SIGPIPE (stdout's
/// reader went away, `cudalab run ... | head`) set `requested()` instead of ending the process: the
/// run stops at its next check, writes what was measured and exits 130.
/// - After a SIGINT or SIGTERM, a second SIGINT or SIGTERM ends the process at once (their default
///   action): the way out of a kernel that never ends, from which no check is reached.
/// - A SIGHUP also sends stdout and stderr, where they were the closed terminal, to /dev/null: writing
///   to a hung-up terminal fails, and the run's last messages must not.
/// - After a SIGPIPE, SIGPIPE is ignored: a write to stdout fails (EPIPE) and is dropped.
/// One at a time: signal dispositions belong to the process.
class stop_signals {
 public:
  stop_signals();
  /// Restores the dispositions it found.
  ~stop_signals();
  stop_signals(const stop_signals&) = delete;
  stop_signals& operator=(const stop_signals&) = delete;

  /// Set once one of the signals arrived.
  const std::atomic<bool>* requested() const;
};

}  // namespace cudalab::host
