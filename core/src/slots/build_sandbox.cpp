// Where a submission is built (build_sandbox.hpp).
#include "slots/build_sandbox.hpp"

#include <dlfcn.h>
#include <nvrtc.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <utility>

namespace cudalab::host {

namespace fs = std::filesystem;

namespace {

bool has_headers(const fs::path& root) {
  std::error_code ec;
  return !root.empty() && fs::is_regular_file(root / "include" / "cuda_runtime.h", ec);
}

}  // namespace

std::string toolkit_root() {
  std::vector<fs::path> candidates;
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&nvrtcVersion), &info) != 0 && info.dli_fname) {
    std::error_code ec;
    const fs::path library = fs::canonical(info.dli_fname, ec);
    if (!ec) candidates.push_back(library.parent_path().parent_path());
  }
  if (const char* home = std::getenv("CUDA_HOME"); home && *home) candidates.emplace_back(home);
  candidates.emplace_back("/usr/local/cuda");
  for (const fs::path& c : candidates) {
    std::error_code ec;
    const fs::path root = fs::canonical(c, ec);
    if (!ec && has_headers(root)) return root.string();
  }
  return "";
}

std::vector<std::string> toolkit_include_dirs() {
  const std::string root = toolkit_root();
  if (root.empty()) return {};
  std::vector<std::string> dirs{(fs::path(root) / "include").string()};
  std::error_code ec;
  if (fs::is_directory(fs::path(root) / "include" / "cccl", ec))
    dirs.push_back((fs::path(root) / "include" / "cccl").string());
  return dirs;
}

build_folder::build_folder(std::string path, bool sandboxed) : path_(std::move(path)) {
  if (sandboxed) {
    make_sandbox_folder(path_);
    return;
  }
  std::error_code ec;
  fs::remove_all(path_, ec);
  fs::create_directories(path_, ec);
  if (ec) throw std::runtime_error("cannot make " + path_ + ": " + ec.message());
}

build_folder::~build_folder() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

child_sandbox build_sandbox(const child_sandbox& base, const std::string& work) {
  child_sandbox s = base;
  s.private_folder = work;
  s.gpu = false;
  const std::string root = toolkit_root();
  // The system's folders (/usr) are there already; a toolkit elsewhere (/opt/cuda) is added.
  if (!root.empty() && root.rfind("/usr/", 0) != 0) s.readable.push_back(root);
  std::error_code ec;
  const fs::path self = fs::canonical("/proc/self/exe", ec);
  if (!ec) s.readable.push_back(self.string());
  return s;
}

}  // namespace cudalab::host
