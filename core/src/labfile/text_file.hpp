// Reading a text file cudalab is given (a lab file, a profile, an assignment file, a submission) into
// memory: a regular file of bounded size, so that /dev/zero, a FIFO or a huge file is refused at once.
// TOML-free: the slots and assignments read their files through it too.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "labfile/problems.hpp"

namespace cudalab::host {

/// The most bytes such a file may have (16 MiB): far above any real one.
constexpr std::uint64_t max_text_bytes = std::uint64_t(16) << 20;

/// The whole of the file at `path`, a regular file of at most max_text_bytes. Throws lab_file_error,
/// located at the path, naming the file as a `what` ("lab file", "profile"): it cannot be opened or
/// read, it is not a regular file (a FIFO or a device), or it is too large.
std::string read_text(const std::filesystem::path& path, const std::string& what);

}  // namespace cudalab::host
