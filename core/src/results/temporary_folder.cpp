// A private temporary folder (temporary_folder.hpp), made by mkdtemp.
#include "results/temporary_folder.hpp"

#include <fmt/format.h>
#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "results/safe_file.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

temporary_folder::temporary_folder(const std::string& prefix) {
  std::string pattern = (fs::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (!::mkdtemp(pattern.data()))
    throw write_error(fmt::format("cannot create a work folder {}: {}", pattern, std::strerror(errno)));
  path_ = pattern;
}

temporary_folder::~temporary_folder() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

}  // namespace cudalab::host
