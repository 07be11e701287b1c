// The staff secret file (staff_secret.hpp).
#include "assignment/staff_secret.hpp"

#include <fcntl.h>
#include <openssl/rand.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "assignment/digests.hpp"

namespace cudalab::host {

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& why) {
  throw staff_secret_error(path.string() + ": " + why);
}

// Closes a descriptor when it goes out of scope.
struct fd_closer {
  int fd;
  ~fd_closer() {
    if (fd >= 0) ::close(fd);
  }
};

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string create_staff_secret(const std::filesystem::path& path) {
  unsigned char bytes[staff_secret_bytes];
  if (RAND_bytes(bytes, sizeof bytes) != 1) fail(path, "OpenSSL's RAND_bytes gave no random bytes");
  std::string hex = hex_text(bytes, sizeof bytes);
  const std::string text = hex + "\n";
  // O_EXCL: never replace a secret (students' seeds hang on it); O_NOFOLLOW with O_EXCL: a symlink
  // planted at the name is refused, not followed. 0600 from the start: no moment where others can read it.
  const fd_closer f{::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600)};
  if (f.fd < 0)
    fail(path, errno == EEXIST ? "there is a file there already (a secret is never replaced)" : std::strerror(errno));
  // The umask may only take bits away; make the mode exactly 0600 whatever it is.
  if (::fchmod(f.fd, 0600) != 0) fail(path, std::strerror(errno));
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(f.fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = std::strerror(errno);
      ::unlink(path.c_str());
      fail(path, why);
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(f.fd) != 0) fail(path, std::strerror(errno));
  return hex;
}

std::string read_staff_secret(const std::filesystem::path& path) {
  const fd_closer f{::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC)};
  if (f.fd < 0)
    fail(path, errno == ELOOP ? "is a symlink (a secret is read only from its own file)" : std::strerror(errno));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) fail(path, std::strerror(errno));
  if (!S_ISREG(st.st_mode)) fail(path, "is not a regular file");
  if ((st.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    fail(path, std::string("group or others may read or write it (mode ") + mode + "); chmod 600 it");
  }
  char buffer[2 * staff_secret_bytes + 2];
  std::size_t size = 0;
  while (size < sizeof buffer) {
    const ssize_t n = ::read(f.fd, buffer + size, sizeof buffer - size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(path, std::strerror(errno));
    if (n == 0) break;
    size += static_cast<std::size_t>(n);
  }
  std::string hex(buffer, size);
  if (!hex.empty() && hex.back() == '\n') hex.pop_back();
  if (hex.size() != 2 * staff_secret_bytes) fail(path, "does not hold 64 hex digits");
  std::string bytes;
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const int hi = hex_digit(hex[i]), lo = hex_digit(hex[i + 1]);
    if (hi < 0 || lo < 0) fail(path, "does not hold 64 hex digits");
    bytes += static_cast<char>(hi * 16 + lo);
  }
  return bytes;
}

}  // namespace cudalab::host
