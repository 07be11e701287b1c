// What a child leaves behind, adopted and killed (descendants.hpp).
#include "process/descendants.hpp"

#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace cudalab::host {

namespace {

std::mutex& registry_lock() {
  static std::mutex lock;
  return lock;
}

std::set<pid_t>& watched() {
  static std::set<pid_t> pids;
  return pids;
}

// The processes whose parent is this one, from /proc/PID/stat (the parent is the 4th field, after the
// command name in parentheses, which may hold spaces and parentheses of its own).
std::vector<pid_t> children_of_this_process() {
  std::vector<pid_t> out;
  const pid_t self = ::getpid();
  DIR* proc = ::opendir("/proc");
  if (!proc) return out;
  while (const dirent* entry = ::readdir(proc)) {
    char* end = nullptr;
    const long pid = std::strtol(entry->d_name, &end, 10);
    if (pid <= 0 || *end != '\0') continue;
    std::ifstream stat(std::string("/proc/") + entry->d_name + "/stat");
    std::string text;
    if (!std::getline(stat, text)) continue;
    const std::size_t close = text.rfind(')');
    if (close == std::string::npos || close + 4 > text.size()) continue;
    // ") S PPID ..."
    const long parent = std::strtol(text.c_str() + close + 4, nullptr, 10);
    if (parent == self) out.push_back(pid_t(pid));
  }
  ::closedir(proc);
  return out;
}

}  // namespace

void adopt_orphans() {
  static std::once_flag once;
  std::call_once(once, [] { ::prctl(PR_SET_CHILD_SUBREAPER, 1); });
}

watched_child::watched_child(pid_t pid) : pid_(pid) { watched().insert(pid); }

watched_child::~watched_child() {
  const std::lock_guard<std::mutex> g(registry_lock());
  watched().erase(pid_);
}

spawning_lock::spawning_lock() { registry_lock().lock(); }
spawning_lock::~spawning_lock() { registry_lock().unlock(); }

int sweep_orphans() {
  int killed = 0;
  // Each round kills what is there; what those had started is adopted and found by the next round.
  for (int round = 0; round < 64; ++round) {
    std::vector<pid_t> orphans;
    {
      const std::lock_guard<std::mutex> g(registry_lock());
      for (const pid_t pid : children_of_this_process())
        if (!watched().count(pid)) orphans.push_back(pid);
      for (const pid_t pid : orphans) ::kill(pid, SIGKILL);
    }
    if (orphans.empty()) break;
    for (const pid_t pid : orphans) {
      int status = 0;
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
    }
    killed += int(orphans.size());
  }
  return killed;
}

}  // namespace cudalab::host
