// Where find_package(cudalab) finds the running cudalab (cmake_prefix.hpp).
#include "scaffold/cmake_prefix.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

std::optional<fs::path> own_cmake_prefix() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return std::nullopt;
  const fs::path prefix = exe.parent_path().parent_path();
  // The places CMake's config-mode search looks under a prefix, for the two layouts cudalab comes in.
  for (const char* config :
       {"lib/cmake/cudalab/cudalabConfig.cmake", "lib64/cmake/cudalab/cudalabConfig.cmake", "cudalabConfig.cmake"})
    if (fs::is_regular_file(prefix / config, ec)) return prefix;
  return std::nullopt;
}

}  // namespace cudalab::host
