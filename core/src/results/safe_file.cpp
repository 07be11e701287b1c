// Files written into a results folder, never through a symlink and every write checked: a final file
// is written whole to a new temporary file beside it, synced and renamed over its name; a streamed
// file (results.jsonl) is created new and written a flush at a time, and synced when it is closed.
// Files are created with O_EXCL | O_NOFOLLOW (never an existing file, never a symlink's target) and
// O_CLOEXEC (never inherited by the child processes of an isolated run).
#include "results/safe_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>
#include <string>

namespace cudalab::host {
namespace {

namespace fs = std::filesystem;

write_error error_writing(const fs::path& path, int error) {
  return write_error(fmt::format("cannot write {}: {}", path.string(), std::strerror(error)));
}

// Writes all of `text` to `fd`; on failure returns the error (0: all written).
int write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

// Syncs and closes `fd`; returns the first error (0: none).
int sync_and_close(int fd) {
  const int synced = ::fsync(fd) == 0 ? 0 : errno;
  const int closed = ::close(fd) == 0 ? 0 : errno;
  return synced ? synced : closed;
}

const char* const temporary_marker = ".tmp-";

// A new temporary file beside `path`, ".NAME.tmp-XXXXXX", created here (O_EXCL): its descriptor and name.
std::pair<int, fs::path> create_temporary(const fs::path& path) {
  static std::mt19937_64 random{std::random_device{}()};
  for (int attempt = 0;; ++attempt) {
    const fs::path name = path.parent_path() /
                          fmt::format(".{}{}{:06x}", path.filename().string(), temporary_marker, random() & 0xffffff);
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) return {fd, name};
    if (errno != EEXIST || attempt == 100) throw error_writing(path, errno);
  }
}

}  // namespace

void write_file_atomically(const fs::path& path, std::string_view text) {
  const auto [fd, temporary] = create_temporary(path);
  int error = write_all(fd, text);
  const int closed = sync_and_close(fd);
  if (!error) error = closed;
  if (!error && ::rename(temporary.c_str(), path.c_str()) != 0) error = errno;
  if (error) {
    ::unlink(temporary.c_str());
    throw error_writing(path, error);
  }
}

bool is_temporary_file_name(const std::string& name) {
  return name.size() > 1 && name[0] == '.' && name.find(temporary_marker) != std::string::npos;
}

void create_folder_for(const fs::path& file) {
  const fs::path folder = file.parent_path();
  if (::mkdir(folder.c_str(), 0777) == 0) return;
  if (errno != EEXIST) throw error_writing(file, errno);
  struct stat st {};
  if (::lstat(folder.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return;
  throw write_error(fmt::format("cannot write {}: {} is there and is not a folder", file.string(), folder.string()));
}

// The stream's buffer: what was written since the last flush, which sync() writes to the file whole.
class streamed_file::buffer final : public std::streambuf {
 public:
  explicit buffer(int fd) : fd_(fd) {}
  ~buffer() override {
    if (fd_ >= 0) ::close(fd_);
  }
  // Flushes, syncs and closes; returns the first error of all writes (0: none).
  int close() {
    sync();
    const int closed = sync_and_close(fd_);
    fd_ = -1;
    return error_ ? error_ : closed;
  }

 protected:
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) pending_ += traits_type::to_char_type(c);
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    pending_.append(s, static_cast<std::size_t>(n));
    return n;
  }
  int sync() override {
    if (!error_ && !pending_.empty()) {
      error_ = write_all(fd_, pending_);
      if (error_)
        (void)::ftruncate(fd_, written_);  // the file ends with the last whole flush
      else
        written_ += static_cast<off_t>(pending_.size());
    }
    pending_.clear();
    return error_ ? -1 : 0;
  }

 private:
  int fd_;
  std::string pending_;
  off_t written_ = 0;
  int error_ = 0;
};

streamed_file::streamed_file(const fs::path& path) : std::ostream(nullptr), path_(path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) throw error_writing(path, errno);
  buffer_ = std::make_unique<buffer>(fd);
  rdbuf(buffer_.get());
}

streamed_file::~streamed_file() = default;

void streamed_file::close() {
  if (!buffer_) return;
  const int error = buffer_->close();
  rdbuf(nullptr);
  buffer_.reset();
  if (error) throw error_writing(path_, error);
}

}  // namespace cudalab::host
