// Running one child process under a watchdog: a session of its own (no controlling terminal), a results
// pipe on a chosen fd, its stdout and stderr captured line by line, the whole group killed on a timeout
// or on request, and whatever it left behind killed when it ends (descendants.hpp); optionally under
// resource limits and in a sandbox (sandbox.hpp).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "process/sandbox.hpp"

namespace cudalab::host {

/// Resource limits for a child that runs untrusted code (a student's submission), set before that code
/// runs and inherited by everything it starts. Never RLIMIT_AS: the CUDA driver reserves virtual address
/// ranges far larger than any memory, and a process under an address-space limit fails to initialise CUDA.
struct child_limits {
  /// RLIMIT_NPROC: a fork or thread fails once the user has this many tasks - all of the user's processes
  /// and threads on the machine, not the child's alone (a CUDA process has several threads); 0: unchanged.
  std::uint64_t max_processes = 0;
  std::uint64_t max_file_bytes = 0;  ///< RLIMIT_FSIZE: the largest file it may write (SIGXFSZ past it); 0: unchanged
  std::uint64_t cpu_seconds = 0;     ///< RLIMIT_CPU: CPU time; SIGXCPU past it, SIGKILL a second later; 0: unchanged
  /// RLIMIT_AS: its address space, bytes; 0: unchanged. For compilers only: a CUDA process maps far more
  /// address space than it uses, and fails under any bound that would mean something.
  std::uint64_t max_address_bytes = 0;
  bool no_core_files = true;  ///< RLIMIT_CORE 0: a crash writes no core file
};

/// What to run and how to watch it.
struct child_request {
  std::string program;                                           ///< the file to execute ("": argv[0]; no PATH search)
  std::vector<std::string> argv;                                 ///< its command line; argv[0] names it in messages
  std::string input;                                             ///< what it reads on stdin ("": /dev/null)
  std::vector<std::pair<std::string, std::string>> environment;  ///< set in its environment, over the parent's
  int result_fd = 3;          ///< the child's descriptor of the results pipe (3 or more)
  std::vector<int> pass_fds;  ///< this process's descriptors the child also gets, at result_fd + 1 on (the caller's)
  /// Kill it after this many seconds without progress (a result line on_result_line calls progress, or
  /// the start); 0: none. The limit is absolute between two results: nothing else restarts it.
  double timeout_s = 0;
  const std::atomic<bool>* stop = nullptr;      ///< when set, the child is killed at once
  std::size_t keep_lines = 4;                   ///< how many of its last output lines the outcome keeps
  std::size_t max_output_line_bytes = 4096;     ///< a longer output line is cut there, the rest dropped
  std::size_t max_result_line_bytes = 1 << 20;  ///< likewise for result lines (a cut one is no result)
  /// Each non-empty line it writes to result_fd; returns whether the line was progress (a result the
  /// caller was owed and had not had yet): only progress restarts the watchdog's clock. Empty: no line is.
  std::function<bool(const std::string&)> on_result_line;
  /// An empty result line restarts the watchdog's clock too: only for a child that runs no untrusted code
  /// (the GPU probe, whose steps each send one), never for one that loads a submission (which could write
  /// them forever to run past its limit).
  bool empty_lines_are_progress = false;
  std::function<void(const std::string&)> on_output_line;  ///< each line of its stdout/stderr
  std::optional<child_limits> limits;  ///< set on the child before it runs anything of its own (run_child)
  /// Run it in a sandbox where one can be made; where none can, it runs as it is and the outcome says why.
  std::optional<child_sandbox> sandbox;
  /// Killed when this process dies, even by SIGKILL (a sandbox's child always is; else through setpriv
  /// --pdeathsig, where the machine has it): a child this process cannot watch any more must not run on.
  bool die_with_parent = false;
};

/// How a child ended.
struct child_outcome {
  bool started = false;
  std::string start_error;  ///< why it could not be started
  bool exited = false;      ///< it exited by itself (exit_code is valid)
  int exit_code = 0;
  int signal = 0;                        ///< the signal that ended it, 0 if it exited
  bool timed_out = false;                ///< the watchdog killed it
  bool stopped = false;                  ///< killed because `stop` was set
  double timeout_s = 0;                  ///< the watchdog's limit, for describe()
  std::vector<std::string> last_output;  ///< its last lines of output (stdout and stderr)
  bool sandboxed = false;                ///< it ran in the sandbox it asked for
  std::string sandbox_note;              ///< it asked for one and ran without: why
  int left_behind = 0;                   ///< processes it left running when it ended, killed then

  /// True when it exited by itself (any exit code).
  bool ended_normally() const { return started && exited; }
  /// How it ended, as the rest of a sentence about the child: "was killed by signal SIGSEGV
  /// (Segmentation fault)", "timed out after 5 s without a result (killed by the watchdog)", "exited
  /// with code 7", "was interrupted", "could not be started: ...".
  std::string describe() const;
};

/// Starts `request.argv` in a new session (so with no controlling terminal, and in a process group of
/// its own) with `input` on stdin, its stdout and stderr on one capture pipe, `result_fd` on the results
/// pipe, `pass_fds` after it and no other descriptor of the caller's; calls the callbacks with each
/// complete line (a last unterminated line too) until it ends; kills the group (SIGKILL) when `stop` is
/// set or when timeout_s pass without progress (the clock restarts at each result line on_result_line
/// accepts: a long lab file that keeps reporting is not a hang; stray bytes, empty lines - unless
/// empty_lines_are_progress - and lines the caller refuses leave it running). A line
/// over its limit is handed over cut there ("... [line cut at 4096 bytes]") and the rest of it dropped:
/// whatever the child writes, the parent keeps a bounded amount. When it ends, whatever it left running
/// - a process in a session of its own, out of its group - is killed (this process adopts them:
/// descendants.hpp), and counted in left_behind. Spawns with posix_spawn (no code runs between fork and
/// exec), so the caller's state - a CUDA context included - is never duplicated into a running child.
/// `limits` (never above the hard limits the caller has) are set by util-linux's prlimit(1), which the
/// child runs first and which executes the program under them; on a machine without it, with prlimit(2)
/// as soon as posix_spawn returns (the program has started, before it loads any untrusted code), the
/// child killed when that fails. A `sandbox` runs the program in bwrap (inside the limits; sandbox.hpp).
/// Never throws for the child's faults.
child_outcome run_child(const child_request& request);

/// The child's side, first thing in a child that run_child started from the process `parent`: the
/// kernel kills this process (SIGKILL) when its parent ends, however it ends - SIGKILL included, when
/// no code of the parent's runs - so that no child is left holding the GPU; when the parent is already
/// gone, this process ends at once. `parent` 0: unknown, not checked.
void die_with_parent(long parent);

}  // namespace cudalab::host
