// What a child leaves behind: this process adopts every process its children orphan (it is their
// "subreaper"), so that a process a child started in a session of its own (setsid escapes the process
// group the watchdog kills) comes back here when the child ends, and is killed then. A sandboxed child
// needs none of this (its process-id namespace ends with it); every other child gets it too.
#pragma once

#include <sys/types.h>

namespace cudalab::host {

/// Makes this process the reaper of the orphans of its descendants (PR_SET_CHILD_SUBREAPER). Idempotent.
void adopt_orphans();

/// A child this process started and watches: while it lives it is registered, so that a sweep leaves it
/// alone. Register it under the lock sweeps take (spawning_lock), in the same step as the spawn.
class watched_child {
 public:
  explicit watched_child(pid_t pid);
  ~watched_child();
  watched_child(const watched_child&) = delete;
  watched_child& operator=(const watched_child&) = delete;

 private:
  pid_t pid_;
};

/// Held while a child is spawned and registered, and by a sweep: no sweep sees a child before it is watched.
class spawning_lock {
 public:
  spawning_lock();
  ~spawning_lock();
  spawning_lock(const spawning_lock&) = delete;
  spawning_lock& operator=(const spawning_lock&) = delete;
};

/// Kills (SIGKILL) and reaps every child of this process that is not watched: what the children that
/// ended left behind, and, as they are adopted in turn, what those started. Returns how many it killed.
int sweep_orphans();

}  // namespace cudalab::host
