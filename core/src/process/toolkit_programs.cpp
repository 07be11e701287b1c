// Finding programs on this machine.
#include "process/toolkit_programs.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace cudalab::host {

namespace fs = std::filesystem;

std::optional<fs::path> find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (!path) return std::nullopt;
  const std::string list = path;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t end = std::min(list.find(':', start), list.size());
    const fs::path candidate = fs::path(list.substr(start, end - start)) / name;
    if (end > start && ::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return std::nullopt;
}

std::optional<fs::path> find_toolkit_program(const std::string& name) {
  if (auto found = find_on_path(name)) return found;
  std::vector<fs::path> folders;
  if (auto nvcc = find_on_path("nvcc")) {
    std::error_code ec;
    folders.push_back(fs::canonical(*nvcc, ec).parent_path());
    folders.push_back(nvcc->parent_path());
  }
  if (const char* home = std::getenv("CUDA_HOME")) folders.push_back(fs::path(home) / "bin");
  folders.emplace_back("/usr/local/cuda/bin");
  for (const fs::path& folder : folders) {
    const fs::path candidate = folder / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

}  // namespace cudalab::host
