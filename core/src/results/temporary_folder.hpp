// A folder of this process's own in the system's temporary folder, for files a tool writes that
// nobody else may plant anything among: mkdtemp makes it new with mode 0700, and the temporary
// folder's sticky bit keeps other users from renaming it.
#pragma once

#include <filesystem>
#include <string>

namespace cudalab::host {

/// Makes TMPDIR/PREFIX-XXXXXX and removes it, with all in it, when it goes (errors then ignored).
class temporary_folder {
 public:
  /// Throws write_error (safe_file.hpp): "cannot create a work folder PATTERN: why".
  explicit temporary_folder(const std::string& prefix);
  ~temporary_folder();
  temporary_folder(const temporary_folder&) = delete;
  temporary_folder& operator=(const temporary_folder&) = delete;

  /// The folder's path.
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace cudalab::host
