// Running one child process under a watchdog (child_process.hpp): the pipes, the command behind its
// wrappers (limits, sandbox), the spawn in a session of its own, the watch; what it leaves behind killed.
#include "process/child_process.hpp"

#include "process/descendants.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>

extern char** environ;

namespace cudalab::host {

namespace {

// A pipe end out of the way of the descriptors the child is given (0-2 and result_fd), close-on-exec.
int high_fd(int fd) {
  const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 10);
  ::close(fd);
  return moved;
}

// A descriptor to read `text` from, from its start: a file in memory, so that no writer has to keep
// pace with the child. -1 (errno set) when it cannot be made.
int input_file(const std::string& text) {
  const int fd = ::memfd_create("cudalab-child-input", MFD_CLOEXEC);
  if (fd < 0) return -1;
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      return -1;
    }
    done += std::size_t(n);
  }
  if (::lseek(fd, 0, SEEK_SET) != 0) {
    ::close(fd);
    return -1;
  }
  return high_fd(fd);
}

// Splits what arrives on one pipe into lines of at most `max_bytes`: a longer line is handed over cut
// as soon as it reaches the limit, with a note, and the rest of it is dropped, so that a child writing
// megabytes without a newline costs the parent no more than one line's worth of memory.
class line_reader {
 public:
  line_reader(int fd, std::size_t max_bytes, std::function<void(const std::string&)> on_line)
      : fd_(fd), max_bytes_(max_bytes), on_line_(std::move(on_line)) {}
  int fd() const { return fd_; }
  bool open() const { return fd_ >= 0; }
  // Reads what is there; at end of file hands over a last unterminated line and closes.
  void read_some() {
    char buf[65536];
    const ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
    if (n <= 0) {
      if (!pending_.empty()) deliver(pending_);
      pending_.clear();
      ::close(fd_);
      fd_ = -1;
      return;
    }
    const char* data = buf;
    const char* const end = buf + n;
    while (data < end) {
      const char* const newline = static_cast<const char*>(std::memchr(data, '\n', std::size_t(end - data)));
      append(data, newline ? newline : end);
      if (!newline) break;
      if (!cut_) deliver(pending_);
      pending_.clear();
      cut_ = false;
      data = newline + 1;
    }
  }
  ~line_reader() {
    if (fd_ >= 0) ::close(fd_);
  }

 private:
  // Adds [from, to) to the line, up to the limit; a line that passes it is handed over at once.
  void append(const char* from, const char* to) {
    if (cut_) return;  // the rest of a line already handed over
    const std::size_t room = max_bytes_ - pending_.size();
    const std::size_t size = std::size_t(to - from);
    pending_.append(from, std::min(size, room));
    if (size <= room) return;
    deliver(pending_ + " [line cut at " + std::to_string(max_bytes_) + " bytes]");
    pending_.clear();
    cut_ = true;
  }
  void deliver(const std::string& line) {
    if (on_line_) on_line_(line);
  }
  int fd_;
  std::size_t max_bytes_;
  std::function<void(const std::string&)> on_line_;
  std::string pending_;  // the line so far
  bool cut_ = false;     // the line was handed over cut: drop the rest of it
};

// A started child that has not been reaped yet: when the watch over it ends early (a callback
// threw), the destructor kills its group and reaps it, so that it never outlives run_child.
class child_guard {
 public:
  explicit child_guard(pid_t pid) : pid_(pid) {}
  ~child_guard() {
    if (pid_ <= 0) return;
    ::kill(-pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  child_guard(const child_guard&) = delete;
  child_guard& operator=(const child_guard&) = delete;
  void reaped() { pid_ = 0; }

 private:
  pid_t pid_;
};

// The parent's environment with `settings` set over it, as "NAME=value" strings.
std::vector<std::string> environment_with(const std::vector<std::pair<std::string, std::string>>& settings) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    const bool replaced = std::any_of(settings.begin(), settings.end(), [&](const auto& s) { return s.first == name; });
    if (!replaced) env.push_back(entry);
  }
  for (const auto& [name, value] : settings) env.push_back(name + "=" + value);
  return env;
}

// A limit as the child will have it: at most the hard limit it inherits from this process (raising one
// needs a privilege, and a lower one is as good).
struct bounded {
  rlim_t soft, hard;
};
bounded within_hard(__rlimit_resource resource, rlim_t soft, rlim_t hard) {
  rlimit now{};
  if (::getrlimit(resource, &now) == 0 && now.rlim_max != RLIM_INFINITY) {
    hard = std::min(hard, now.rlim_max);
    soft = std::min(soft, hard);
  }
  return {soft, hard};
}

// Each limit asked for: (prlimit's option name, the resource, soft, hard).
struct limit_setting {
  const char* option;
  __rlimit_resource resource;
  bounded value;
};
std::vector<limit_setting> settings_of(const child_limits& limits) {
  std::vector<limit_setting> out;
  if (limits.max_processes > 0)
    out.push_back({"nproc", RLIMIT_NPROC, within_hard(RLIMIT_NPROC, limits.max_processes, limits.max_processes)});
  if (limits.max_file_bytes > 0)
    out.push_back({"fsize", RLIMIT_FSIZE, within_hard(RLIMIT_FSIZE, limits.max_file_bytes, limits.max_file_bytes)});
  // The soft limit sends SIGXCPU (a signal the outcome names), the hard one a second later SIGKILL.
  if (limits.max_address_bytes > 0)
    out.push_back({"as", RLIMIT_AS, within_hard(RLIMIT_AS, limits.max_address_bytes, limits.max_address_bytes)});
  if (limits.cpu_seconds > 0)
    out.push_back({"cpu", RLIMIT_CPU, within_hard(RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds + 1)});
  if (limits.no_core_files) out.push_back({"core", RLIMIT_CORE, {0, 0}});
  return out;
}

// util-linux's prlimit(1), which sets the limits on itself and executes the program: the limits hold
// from the program's first instruction. "" when this machine has none.
std::string limits_wrapper() {
  for (const char* path : {"/usr/bin/prlimit", "/bin/prlimit"})
    if (::access(path, X_OK) == 0) return path;
  return "";
}

// The fallback without prlimit(1): the limits set on the running child with prlimit(2). "" or what failed.
std::string set_limits(pid_t pid, const std::vector<limit_setting>& settings) {
  for (const limit_setting& s : settings) {
    const rlimit wanted{s.value.soft, s.value.hard};
    if (::prlimit(pid, s.resource, &wanted, nullptr) != 0)
      return std::string("prlimit(") + s.option + "): " + std::strerror(errno);
  }
  return "";
}

}  // namespace

std::string child_outcome::describe() const {
  if (!started) return "could not be started: " + start_error;
  if (timed_out) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", timeout_s);
    return std::string("timed out after ") + limit + " s without a result (killed by the watchdog)";
  }
  if (stopped) return "was interrupted";
  if (signal != 0) {
    const char* abbrev = ::sigabbrev_np(signal);
    return "was killed by signal " + (abbrev ? "SIG" + std::string(abbrev) : std::to_string(signal)) + " (" +
           ::strsignal(signal) + ")";
  }
  return "exited with code " + std::to_string(exit_code);
}

namespace {

// A descriptor this process owns, closed when it goes.
class owned_fd {
 public:
  owned_fd() = default;
  explicit owned_fd(int fd) : fd_(fd) {}
  ~owned_fd() { reset(); }
  owned_fd(owned_fd&& o) noexcept : fd_(o.release()) {}
  owned_fd& operator=(owned_fd&& o) noexcept {
    if (this != &o) {
      reset();
      fd_ = o.release();
    }
    return *this;
  }
  owned_fd(const owned_fd&) = delete;
  owned_fd& operator=(const owned_fd&) = delete;
  int get() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

// The pipes of a child: results and output (read ends here, write ends for the child) and its stdin.
struct child_pipes {
  owned_fd results_read, results_write, output_read, output_write, input;
};

// Opens the pipes, out of the way of the child's descriptors; "" or why not.
std::string open_pipes(const child_request& request, child_pipes& p) {
  int results[2], output[2];
  if (::pipe2(results, O_CLOEXEC) != 0) return std::strerror(errno);
  p.results_read = owned_fd(high_fd(results[0]));
  p.results_write = owned_fd(high_fd(results[1]));
  if (::pipe2(output, O_CLOEXEC) != 0) return std::strerror(errno);
  p.output_read = owned_fd(high_fd(output[0]));
  p.output_write = owned_fd(high_fd(output[1]));
  if (!request.input.empty()) {
    p.input = owned_fd(input_file(request.input));
    if (p.input.get() < 0) return std::string("its input: ") + std::strerror(errno);
  }
  return "";
}

// What is executed, after the wrappers: [prlimit limits --] [setpriv ... --] [bwrap ... --] program args,
// with the descriptors the child gets after result_fd.
struct wrapped {
  std::string program;
  std::vector<std::string> argv;
  std::vector<int> pass_fds;          // the request's, then the sandbox's
  std::vector<owned_fd> sandbox_fds;  // the sandbox's, closed here once the child has them
  std::vector<limit_setting> limits;  // set with prlimit(2) after the spawn when there is no prlimit(1)
  bool limits_after_spawn = false;
};

wrapped wrapped_command(const child_request& request, child_outcome& out) {
  wrapped w;
  w.program = request.program.empty() ? request.argv[0] : request.program;
  w.argv = request.argv;  // as it is when nothing wraps it: argv[0] may name it otherwise than its path
  w.pass_fds = request.pass_fds;
  // Through a wrapper, the program goes by its path, and /proc/self/exe (how cudalab starts itself
  // again) would name the wrapper: the program it links to is meant.
  std::vector<std::string> inner = request.argv;
  if ((request.limits || request.sandbox || request.die_with_parent) && w.program == "/proc/self/exe") {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink(w.program, ec);
    if (!ec) w.program = self.string();
  }
  inner[0] = w.program;
  // The sandbox inside the limits: prlimit(1) executes setpriv or bwrap, which runs the program.
  if (request.sandbox) {
    const sandbox_support& support = sandbox_support_of(request.sandbox->bwrap);
    if (support.usable) {
      const int first = request.result_fd + 1 + int(request.pass_fds.size());
      sandbox_launch launch = sandboxed_command(support, *request.sandbox, inner, first, request.environment);
      for (const int fd : launch.pass_fds) {
        w.sandbox_fds.emplace_back(fd);
        w.pass_fds.push_back(fd);
      }
      inner = std::move(launch.argv);
      w.argv = inner;
      w.program = inner[0];
      out.sandboxed = true;
    } else {
      out.sandbox_note = support.why;
    }
  }
  if (request.die_with_parent && !out.sandboxed)
    if (const std::string setpriv = setpriv_program(); !setpriv.empty()) {
      inner.insert(inner.begin(), {setpriv, "--pdeathsig", "KILL", "--"});
      w.argv = inner;
      w.program = setpriv;
    }
  w.limits = request.limits ? settings_of(*request.limits) : std::vector<limit_setting>{};
  const std::string wrapper = w.limits.empty() ? "" : limits_wrapper();
  if (!wrapper.empty()) {
    const auto text = [](rlim_t v) { return v == RLIM_INFINITY ? std::string("unlimited") : std::to_string(v); };
    std::vector<std::string> args = {wrapper};
    for (const limit_setting& s : w.limits)
      args.push_back(std::string("--") + s.option + "=" + text(s.value.soft) + ":" + text(s.value.hard));
    args.push_back("--");
    args.insert(args.end(), inner.begin(), inner.end());
    w.argv = std::move(args);
    w.program = wrapper;
  } else {
    w.limits_after_spawn = !w.limits.empty();
  }
  return w;
}

// Spawns `w` in a session of its own with `p`'s ends on its descriptors; the pid, or 0 and `error`.
pid_t spawn(const child_request& request, const wrapped& w, const child_pipes& p, std::string& error) {
  // The descriptors are put in place one after another: a source that is also an earlier target (the
  // sandbox's folder opened as 3, the result descriptor's number) would be overwritten before it is
  // read. Every source is therefore copied above the highest target first.
  const int top = request.result_fd + 1 + int(w.pass_fds.size());
  std::vector<owned_fd> sources;
  const auto above_targets = [&](int fd) {
    sources.emplace_back(::fcntl(fd, F_DUPFD_CLOEXEC, top));
    return sources.back().get();
  };
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (p.input.get() >= 0)
    posix_spawn_file_actions_adddup2(&actions, above_targets(p.input.get()), 0);
  else
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  const int output = above_targets(p.output_write.get());
  posix_spawn_file_actions_adddup2(&actions, output, 1);
  posix_spawn_file_actions_adddup2(&actions, output, 2);
  posix_spawn_file_actions_adddup2(&actions, above_targets(p.results_write.get()), request.result_fd);
  for (std::size_t i = 0; i < w.pass_fds.size(); ++i)
    posix_spawn_file_actions_adddup2(&actions, above_targets(w.pass_fds[i]), request.result_fd + 1 + int(i));
  // Nothing else of the parent's: its results files, a plugin's descriptors, whatever it opened without
  // close-on-exec, stay in the parent (a misbehaving lab could write into them, or keep them open).
  for (int fd = 3; fd < request.result_fd; ++fd) posix_spawn_file_actions_addclose(&actions, fd);
  posix_spawn_file_actions_addclosefrom_np(&actions, request.result_fd + 1 + int(w.pass_fds.size()));
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // A session of its own: no controlling terminal (it cannot type into the grader's terminal, nor read
  // from it), a process group of its own the watchdog kills whole, and a terminal's Ctrl-C reaches only
  // the parent, which decides what to do (and writes what was measured).
  sigset_t defaults, none;
  sigemptyset(&defaults);
  for (int s : {SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGPIPE, SIGCHLD}) sigaddset(&defaults, s);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  std::vector<char*> argv;
  for (const std::string& a : w.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const std::vector<std::string> env_text = environment_with(request.environment);
  std::vector<char*> envp;
  for (const std::string& e : env_text) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, w.program.c_str(), &actions, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    error = request.argv[0] + ": " + std::strerror(rc);
    return 0;
  }
  return pid;
}

// Watches the started child until it has ended and both pipes are closed: lines to the callbacks, the
// watchdog and `stop`; fills in how it ended.
void watch(const child_request& request, pid_t pid, child_pipes& p, child_guard& guard, child_outcome& out) {
  using clock = std::chrono::steady_clock;
  auto last_result = clock::now();  // the watchdog's clock: restarted by progress only
  std::deque<std::string> tail;
  line_reader result_reader(p.results_read.release(), request.max_result_line_bytes, [&](const std::string& line) {
    const bool progress =
        line.empty() ? request.empty_lines_are_progress : request.on_result_line && request.on_result_line(line);
    if (progress) last_result = clock::now();
  });
  line_reader output_reader(p.output_read.release(), request.max_output_line_bytes, [&](const std::string& line) {
    if (request.on_output_line) request.on_output_line(line);
    if (line.empty()) return;
    tail.push_back(line);
    while (tail.size() > request.keep_lines) tail.pop_front();
  });
  bool reaped = false, killed = false;
  int status = 0;
  auto kill_group = [&] {
    if (!killed) ::kill(-pid, SIGKILL);
    killed = true;
  };
  while (true) {
    if (!reaped && ::waitpid(pid, &status, WNOHANG) == pid) {
      reaped = true;
      guard.reaped();
    }
    if (reaped && !result_reader.open() && !output_reader.open()) break;
    // A grandchild that outlives the child and holds the pipes open goes with its group, and one in a
    // session of its own, adopted by this process when its parent died, with the orphans.
    if (reaped) {
      kill_group();
      out.left_behind += sweep_orphans();
    }
    if (!killed && request.timeout_s > 0 &&
        std::chrono::duration<double>(clock::now() - last_result).count() > request.timeout_s) {
      out.timed_out = !reaped;
      kill_group();
    }
    if (!killed && request.stop && request.stop->load()) {
      out.stopped = !reaped;
      kill_group();
    }
    pollfd fds[2];
    nfds_t count = 0;
    for (const line_reader* r : {&result_reader, &output_reader})
      if (r->open()) fds[count++] = {r->fd(), POLLIN, 0};
    if (count == 0) {
      ::usleep(20000);  // pipes closed, child still running: poll its exit
      continue;
    }
    if (::poll(fds, count, 50) <= 0) continue;  // timeout or EINTR (Ctrl-C): the checks above run again
    for (nfds_t i = 0; i < count; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      (fds[i].fd == result_reader.fd() ? result_reader : output_reader).read_some();
    }
  }
  if (WIFEXITED(status)) {
    out.exited = !out.timed_out && !out.stopped;
    out.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    out.signal = out.timed_out || out.stopped ? 0 : WTERMSIG(status);
  }
  out.last_output.assign(tail.begin(), tail.end());
}

}  // namespace

child_outcome run_child(const child_request& request) {
  child_outcome out;
  out.timeout_s = request.timeout_s;
  if (request.argv.empty()) {
    out.start_error = "no command";
    return out;
  }
  adopt_orphans();
  child_pipes pipes;
  if (const std::string failed = open_pipes(request, pipes); !failed.empty()) {
    out.start_error = failed;
    return out;
  }
  wrapped w;
  try {
    w = wrapped_command(request, out);
  } catch (const std::runtime_error& e) {  // the sandbox's folder cannot be opened
    out.start_error = e.what();
    return out;
  }
  pid_t pid = 0;
  std::optional<watched_child> registered;
  {
    // Registered as it is spawned: no sweep of another thread takes it for something left behind.
    const spawning_lock spawning;
    pid = spawn(request, w, pipes, out.start_error);
    if (pid > 0) registered.emplace(pid);
  }
  pipes.results_write.reset();
  pipes.output_write.reset();
  pipes.input.reset();
  w.sandbox_fds.clear();
  if (pid <= 0) return out;
  child_guard guard(pid);
  // Without prlimit(1): set on the child as soon as posix_spawn returns, which glibc does once the child
  // has executed the program (CLONE_VFORK) - during the program's own start (cudalab's, which loads a
  // plugin and a submission only later), not before it.
  if (w.limits_after_spawn) {
    if (const std::string failed = set_limits(pid, w.limits); !failed.empty()) {
      out.start_error = "its resource limits could not be set: " + failed;
      return out;  // the guard kills and reaps it
    }
  }
  out.started = true;
  watch(request, pid, pipes, guard, out);
  registered.reset();
  out.left_behind += sweep_orphans();
  return out;
}

void die_with_parent(long parent) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  // The parent may have ended before the request was made: then nothing will send the signal.
  if (parent > 0 && ::getppid() != parent) ::raise(SIGKILL);
}

}  // namespace cudalab::host
