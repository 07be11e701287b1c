// Finding programs on this machine.
#include "process/toolkit_programs.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace cudalab::host {

namespace fs = std::filesystem;

namespace {

// The folders of $PATH, in order, empty entries left out.
std::vector<fs::path> path_folders() {
  std::vector<fs::path> folders;
  const char* path = std::getenv("PATH");
  if (!path) return folders;
  const std::string list = path;
  for (std::size_t start = 0; start <= list.size();) {
    const std::size_t end = std::min(list.find(':', start), list.size());
    if (end > start) folders.emplace_back(list.substr(start, end - start));
    start = end + 1;
  }
  return folders;
}

// The first of `folders` with an executable `name`, with the name.
std::optional<fs::path> first_with(const std::vector<fs::path>& folders, const std::string& name) {
  for (const fs::path& folder : folders) {
    const fs::path candidate = folder / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

}  // namespace

std::optional<fs::path> find_on_path(const std::string& name) { return first_with(path_folders(), name); }

std::vector<fs::path> toolkit_folders() {
  std::vector<fs::path> folders;
  const auto add = [&](const fs::path& folder) {
    if (!folder.empty() && std::find(folders.begin(), folders.end(), folder) == folders.end())
      folders.push_back(folder);
  };
  for (const fs::path& folder : path_folders()) add(folder);
  if (auto nvcc = find_on_path("nvcc")) {
    std::error_code ec;
    add(fs::canonical(*nvcc, ec).parent_path());
    add(nvcc->parent_path());
  }
  if (const char* home = std::getenv("CUDA_HOME")) add(fs::path(home) / "bin");
  add("/usr/local/cuda/bin");
  return folders;
}

std::optional<fs::path> find_toolkit_program(const std::string& name) { return first_with(toolkit_folders(), name); }

}  // namespace cudalab::host
