// The signals that end a run from outside, turned into a request to stop (stop_signals.hpp). The
// handler does only what is safe in a signal handler: atomics, sigaction, dup2, write.
#include "process/stop_signals.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <initializer_list>

namespace cudalab::host {
namespace {

std::atomic<bool> requested_flag{false};
int dev_null = -1;                            // where SIGHUP sends the terminal's output
bool on_terminal[3] = {false, false, false};  // stdout and stderr (1, 2) were the terminal

constexpr int caught[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
struct sigaction previous[sizeof caught / sizeof caught[0]];

void set_disposition(int signal, void (*handler)(int)) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // a write or wait in progress goes on; the run checks the flag
  ::sigaction(signal, &action, nullptr);
}

void say(const char* text) {
  const ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

extern "C" void on_stop_signal(int signal) {
  const int saved_errno = errno;
  requested_flag.store(true);
  switch (signal) {
    case SIGINT:
    case SIGTERM:
      // From now on one more ends the process: a hung kernel never lets the run reach its check.
      set_disposition(SIGINT, SIG_DFL);
      set_disposition(SIGTERM, SIG_DFL);
      say("\ncudalab: stopping (Ctrl-C again quits at once)\n");
      break;
    case SIGHUP:
      // Not counted as a second request: a closed terminal may send it twice (the kernel, the shell).
      for (int fd : {STDOUT_FILENO, STDERR_FILENO})
        if (on_terminal[fd] && dev_null >= 0) ::dup2(dev_null, fd);
      break;
    case SIGPIPE:
      set_disposition(SIGPIPE, SIG_IGN);
      break;
    default:
      break;
  }
  errno = saved_errno;
}

}  // namespace

stop_signals::stop_signals() {
  requested_flag.store(false);
  dev_null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  for (int fd : {STDOUT_FILENO, STDERR_FILENO}) on_terminal[fd] = ::isatty(fd) != 0;
  for (std::size_t i = 0; i < sizeof caught / sizeof caught[0]; ++i) {
    ::sigaction(caught[i], nullptr, &previous[i]);
    set_disposition(caught[i], on_stop_signal);
  }
}

stop_signals::~stop_signals() {
  for (std::size_t i = 0; i < sizeof caught / sizeof caught[0]; ++i) ::sigaction(caught[i], &previous[i], nullptr);
  if (dev_null >= 0) ::close(dev_null);
  dev_null = -1;
}

const std::atomic<bool>* stop_signals::requested() const { return &requested_flag; }

}  // namespace cudalab::host
