// Files written into a results folder, never through a symlink and every write checked: a final file
// is written whole to a new temporary file beside it, synced and renamed over its name; a streamed
// file (results.jsonl) is created new and written a flush at a time, and synced when it is closed.
#pragma once

#include <filesystem>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string_view>

namespace cudalab::host {

/// A file could not be written: "cannot write DIR/results.json: No space left on device".
class write_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Writes `text` as the file `path`: into a new temporary file in the same folder (created here, never
/// an existing file or a symlink's target), synced, then renamed over `path`, so that `path` is the
/// previous file or the whole new one, never a part; a symlink at `path` is replaced, never followed.
/// Throws write_error, and then leaves no temporary file behind.
void write_file_atomically(const std::filesystem::path& path, std::string_view text);

/// Whether `name` is a temporary file write_file_atomically makes (and removes): ".NAME.tmp-XXXXXX".
bool is_temporary_file_name(const std::string& name);

/// Creates the folder that `file` goes into unless it is there already (a folder, not a symlink to
/// one); throws write_error naming `file` when it cannot, or when something else is there.
void create_folder_for(const std::filesystem::path& file);

/// A file written as it grows: created new, each flush one write(2) of what was written since the
/// last. A write that fails makes the stream bad, cuts the file back to the end of the last flush that
/// was written whole, and writes nothing more.
class streamed_file final : public std::ostream {
 public:
  /// Creates the file `path`; throws write_error when it cannot, or when something is there already (a
  /// file, or a symlink, which is never followed).
  explicit streamed_file(const std::filesystem::path& path);
  ~streamed_file() override;
  streamed_file(const streamed_file&) = delete;
  streamed_file& operator=(const streamed_file&) = delete;

  /// Flushes, syncs and closes the file; throws write_error for this or the first write that failed.
  void close();

 private:
  class buffer;
  std::filesystem::path path_;
  std::unique_ptr<buffer> buffer_;
};

}  // namespace cudalab::host
