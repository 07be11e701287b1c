// The toolkit's vendor libraries found on this machine (vendor_libraries.hpp).
#include "slots/vendor_libraries.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <set>

#include "process/sandbox.hpp"
#include "process/toolkit_programs.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

namespace {

bool matches(const std::vector<std::string>& globs, const std::string& name) {
  return std::any_of(globs.begin(), globs.end(),
                     [&](const std::string& g) { return ::fnmatch(g.c_str(), name.c_str(), 0) == 0; });
}

}  // namespace

const std::vector<vendor_library>& vendor_libraries() {
  static const std::vector<vendor_library> all = {
      {"cublas", {"libcublas.so*", "libcublasLt.so*", "libnvblas.so*"}},
      {"cufft", {"libcufft.so*", "libcufftw.so*"}},
      {"cusparse", {"libcusparse.so*"}},
      {"cusolver", {"libcusolver.so*", "libcusolverMg.so*"}},
      {"curand", {"libcurand.so*"}},
      {"npp", {"libnpp*.so*"}},
      {"nvjpeg", {"libnvjpeg.so*"}},
      {"cudnn", {"libcudnn*.so*"}},
      {"cutensor", {"libcutensor*.so*"}},
  };
  return all;
}

std::vector<std::string> vendor_library_files(const std::vector<fs::path>& folders,
                                              const std::vector<std::string>& needed) {
  std::set<std::string> kept_families;
  for (const std::string& n : needed)
    for (const vendor_library& v : vendor_libraries())
      if (matches(v.files, n)) kept_families.insert(v.family);
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const fs::path& folder : folders) {
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      const auto family = std::find_if(vendor_libraries().begin(), vendor_libraries().end(),
                                       [&](const vendor_library& v) { return matches(v.files, name); });
      if (family == vendor_libraries().end() || kept_families.count(family->family)) continue;
      std::error_code resolve;
      const fs::path real = fs::canonical(it->path(), resolve);
      if (resolve || !fs::is_regular_file(real, resolve)) continue;
      if (seen.insert(real.string()).second) out.push_back(real.string());
    }
  }
  return out;
}

std::vector<fs::path> library_search_folders() {
  std::vector<fs::path> out;
  const auto add = [&](const fs::path& f) {
    std::error_code ec;
    if (fs::is_directory(f, ec) && std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
  };
  for (const fs::path& bin : toolkit_folders()) {
    const fs::path root = bin.parent_path();
    if (!fs::exists(root / "bin" / "nvcc")) continue;  // a toolkit's bin, not /usr/bin's neighbours
    add(root / "lib64");
    std::error_code ec;
    for (fs::directory_iterator it(root / "targets", ec), end; !ec && it != end; it.increment(ec))
      add(it->path() / "lib");
  }
  for (const std::string& f : library_folders()) add(f);
  add("/usr/lib/x86_64-linux-gnu");
  return out;
}

}  // namespace cudalab::host
