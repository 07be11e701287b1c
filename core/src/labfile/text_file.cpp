// Reading a text file into memory: a regular file of at most max_text_bytes, so that /dev/zero, a FIFO
// or a huge file is refused at once instead of filling memory or blocking for ever.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "labfile/text_file.hpp"

namespace cudalab::host {
namespace {

// Closes a file descriptor when it goes out of scope.
class file_descriptor {
 public:
  explicit file_descriptor(int fd) : fd_(fd) {}
  file_descriptor(const file_descriptor&) = delete;
  file_descriptor& operator=(const file_descriptor&) = delete;
  ~file_descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

// What a file that is not a regular file is, in words.
std::string file_kind(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "a file of an unknown kind";
}

}  // namespace

std::string read_text(const std::filesystem::path& path, const std::string& what) {
  auto refused = [&](const std::string& why) {
    return lab_file_error({lab_problem{source_location{path.string(), 0, 0}, why}});
  };
  auto size_refused = [&](const std::string& size) {
    return refused("is too large (" + size + "), over the " + std::to_string(max_text_bytes >> 20) + " MiB a " + what +
                   " may have");
  };
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
  const file_descriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) throw refused("cannot open the " + what + " for reading: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw refused("cannot read the " + what + ": " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw refused("is a directory, not a " + what);
  if (!S_ISREG(st.st_mode))
    throw refused("is not a regular file but " + file_kind(st.st_mode) + "; a " + what + " must be a regular file");
  if (static_cast<unsigned long long>(st.st_size) > max_text_bytes)
    throw size_refused(std::to_string(st.st_size) + " bytes");

  // Read to the end, but never past the limit: the file may have grown since fstat.
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw refused("cannot read the " + what + ": " + std::strerror(errno));
    if (got == 0) break;
    text.append(buffer, static_cast<std::size_t>(got));
    if (text.size() > max_text_bytes) throw size_refused(std::to_string(text.size()) + " bytes read so far");
  }
  return text;
}

}  // namespace cudalab::host
