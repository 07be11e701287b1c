// Named POSIX shared-memory objects for the fake CUDA runtime's IPC (fake_shm.h).
#include "fake_shm.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>

namespace fakecuda {
namespace {

// The pid namespace this process is in, as the number in /proc/self/ns/pid ("pid:[4026531836]"): pids name
// processes only within one, and a sandbox's processes may share /dev/shm with the host's.
unsigned long long pid_namespace() {
  char link[64] = {};
  if (readlink("/proc/self/ns/pid", link, sizeof link - 1) <= 0) return 0;
  const char* digits = std::strchr(link, '[');
  return digits != nullptr ? std::strtoull(digits + 1, nullptr, 10) : 0;
}

// The start of every name this process gives, "/fakecuda.<pid namespace>.<pid>.<token>.": the token tells
// apart processes of equal pids in namespaces that share /dev/shm. Made again in a forked child (a new pid), so
// that a child and its parent never take each other's objects for their own.
struct identity {
  pid_t pid = 0;
  unsigned long long pid_namespace = 0;
  std::string prefix;
  unsigned long long created = 0;  // the objects created so far, which number the next name
};

std::mutex& lock() {
  static std::mutex m;
  return m;
}

identity& self() {
  static identity me;
  if (me.pid != getpid()) {
    me.pid = getpid();
    me.pid_namespace = pid_namespace();
    std::random_device entropy;
    const auto token = static_cast<unsigned>(
        entropy() ^ static_cast<unsigned>(std::chrono::steady_clock::now().time_since_epoch().count()));
    me.prefix = "/fakecuda." + std::to_string(me.pid_namespace) + "." + std::to_string(me.pid) + ".";
    char hex[16];
    std::snprintf(hex, sizeof hex, "%08x.", token);
    me.prefix += hex;
    me.created = 0;
  }
  return me;
}

// Removes the names a dead process of this pid namespace left in /dev/shm (it was killed before its cudaFree or
// cudaEventDestroy): they would hold their pages until the next boot. A process of another namespace is never
// judged, since its pid means nothing here; nor is one where /proc could not tell the namespace.
void remove_the_dead_ones(const identity& me) {
  if (me.pid_namespace == 0) return;
  DIR* dir = opendir("/dev/shm");
  if (dir == nullptr) return;
  const std::string ours = "fakecuda." + std::to_string(me.pid_namespace) + ".";
  while (const dirent* entry = readdir(dir)) {
    const std::string name = entry->d_name;
    if (name.compare(0, ours.size(), ours) != 0) continue;
    const long pid = std::strtol(name.c_str() + ours.size(), nullptr, 10);
    if (pid <= 0 || pid == me.pid) continue;
    if (kill(pid_t(pid), 0) == -1 && errno == ESRCH) shm_unlink(("/" + name).c_str());
  }
  closedir(dir);
}

std::size_t page_rounded(std::size_t bytes) {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return (bytes + page - 1) / page * page;
}

// Maps the open object `fd` shared, `bytes` of it, and closes it (the mapping keeps the object).
void* map_and_close(int fd, std::size_t bytes) {
  void* p = mmap(nullptr, page_rounded(bytes), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  return p == MAP_FAILED ? nullptr : p;
}

}  // namespace

bool shm_create(std::size_t bytes, shm_mapping& out) {
  std::string name;
  {
    std::lock_guard<std::mutex> g(lock());
    identity& me = self();
    if (me.created == 0) remove_the_dead_ones(me);
    char number[24];
    std::snprintf(number, sizeof number, "%llx", me.created++);
    name = me.prefix + number;
  }
  if (name.size() > shm_name_most) return false;
  // tmpfs kills a process that writes past its size (SIGBUS), and a sparse object counts nothing until written:
  // a container's small /dev/shm (Docker gives 64 MiB) takes only what fits in it now.
  struct statvfs room {};
  if (statvfs("/dev/shm", &room) == 0 && std::uint64_t(room.f_bavail) * room.f_frsize < page_rounded(bytes))
    return false;
  const int fd = shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  // ftruncate leaves the object sparse: tmpfs gives a page only when it is first written.
  if (ftruncate(fd, off_t(page_rounded(bytes))) != 0) {
    close(fd);
    shm_unlink(name.c_str());
    return false;
  }
  void* p = map_and_close(fd, bytes);
  if (p == nullptr) {
    shm_unlink(name.c_str());
    return false;
  }
  out = shm_mapping{p, bytes, name};
  return true;
}

bool shm_attach(const std::string& name, std::size_t bytes, shm_mapping& out) {
  if (bytes == 0) return false;
  const int fd = shm_open(name.c_str(), O_RDWR | O_CLOEXEC, 0);
  if (fd < 0) return false;
  struct stat about {};
  if (fstat(fd, &about) != 0 || std::size_t(about.st_size) < bytes) {
    close(fd);
    return false;
  }
  void* p = map_and_close(fd, bytes);
  if (p == nullptr) return false;
  out = shm_mapping{p, bytes, name};
  return true;
}

void shm_release(const shm_mapping& mapping, bool remove) {
  if (mapping.address != nullptr) munmap(mapping.address, page_rounded(mapping.bytes));
  if (remove) shm_unlink(mapping.name.c_str());
}

bool shm_is_own(const std::string& name) {
  std::lock_guard<std::mutex> g(lock());
  const std::string& prefix = self().prefix;
  return name.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace fakecuda
