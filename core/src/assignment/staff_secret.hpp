// The staff secret of an assignment: 32 random bytes (OpenSSL RAND_bytes), kept as hex in
// `secret.key` beside the assignment file, mode 0600. Per-student seeds are keyed with it
// (student_seeds.hpp); it never goes into a starter kit, and `grade` reads it only on the grader.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace cudalab::host {

/// The secret's bytes (32) and the file's name beside an assignment.
inline constexpr std::size_t staff_secret_bytes = 32;
inline constexpr const char* staff_secret_file_name = "secret.key";

/// The secret file cannot be made or read, or is not one: "secret.key: readable by others (mode 0644)".
class staff_secret_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Creates `path` with a new secret: open(O_CREAT | O_EXCL | O_NOFOLLOW, 0600), so an existing file or
/// a symlink there is refused, never overwritten or followed; the secret as 64 hex digits and a
/// newline, synced. Returns the hex text. Throws staff_secret_error.
std::string create_staff_secret(const std::filesystem::path& path);

/// The secret's bytes from `path`: a regular file (not a symlink) that only its owner can read or
/// write, holding 64 hex digits. Throws staff_secret_error naming what is wrong.
std::string read_staff_secret(const std::filesystem::path& path);

}  // namespace cudalab::host
