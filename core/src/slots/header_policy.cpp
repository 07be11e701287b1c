// An assignment's header policy (header_policy.hpp).
#include "slots/header_policy.hpp"

#include <fnmatch.h>

#include <filesystem>
#include <functional>
#include <regex>
#include <sstream>

namespace cudalab::host {

namespace fs = std::filesystem;

std::vector<compile_diagnostic> denied_includes(const std::string& source, const std::string& file_name,
                                                const std::vector<std::string>& deny) {
  static const std::regex include(R"(^\s*#\s*include\s*[<"]([^>"]+)[>"])");
  std::vector<compile_diagnostic> found;
  std::istringstream lines(source);
  std::string text;
  for (int line = 1; std::getline(lines, text); ++line) {
    std::smatch m;
    if (!std::regex_search(text, m, include)) continue;
    const std::string header = m[1];
    for (const std::string& pattern : deny) {
      if (::fnmatch(pattern.c_str(), header.c_str(), 0) != 0) continue;
      found.push_back({file_name, line, diagnostic_severity::denied,
                       "#include <" + header + ">: the assignment does not allow headers matching " + pattern});
      break;
    }
  }
  return found;
}

bool header_matches(const std::string& header, const std::string& pattern) {
  // "bin/../" resolved, and only the part from the first "include" folder on: the CUDA toolkit's own
  // folder is called cuda, and "cuda/*" means the <cuda/...> headers, not every header of the toolkit.
  const std::string path = std::filesystem::path(header).lexically_normal().generic_string();
  const std::size_t include = path.find("/include/");
  const std::size_t from = include == std::string::npos ? 0 : include + 1;
  if (::fnmatch(pattern.c_str(), path.c_str() + from, 0) == 0) return true;
  for (std::size_t slash = path.find('/', from); slash != std::string::npos; slash = path.find('/', slash + 1))
    if (::fnmatch(pattern.c_str(), path.c_str() + slash + 1, 0) == 0) return true;
  return false;
}

std::vector<compile_diagnostic> mark_denied(std::vector<compile_diagnostic> found,
                                            const std::vector<std::string>& deny) {
  static const std::regex front_end(R"re(^(?:could not|cannot) open source file "([^"]+)".*$)re");
  static const std::regex host_compiler(R"(^([^:]+): No such file or directory$)");
  for (compile_diagnostic& d : found) {
    std::smatch m;
    if (!std::regex_match(d.message, m, front_end) && !std::regex_match(d.message, m, host_compiler)) continue;
    const std::string header = m[1];
    for (const std::string& pattern : deny)
      if (header_matches(header, pattern) || ::fnmatch(pattern.c_str(), header.c_str(), 0) == 0) {
        d.severity = diagnostic_severity::denied;
        d.message = "#include <" + header + ">: the assignment does not allow headers matching " + pattern;
        break;
      }
  }
  return found;
}

std::vector<std::string> denied_header_paths(const std::vector<std::string>& roots,
                                             const std::vector<std::string>& deny) {
  std::vector<std::string> found;
  if (deny.empty()) return found;
  const auto denied = [&](const fs::path& file) {
    for (const std::string& pattern : deny)
      if (header_matches(file.string(), pattern)) return true;
    return false;
  };
  // Whether every file under `dir` is denied; the denied ones of a folder that is not wholly denied
  // are added one by one.
  std::function<bool(const fs::path&, std::vector<std::string>&)> walk = [&](const fs::path& dir,
                                                                             std::vector<std::string>& out) {
    std::vector<std::string> inside;
    bool all = true;
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
      std::error_code kind;
      if (e.is_directory(kind) && !e.is_symlink(kind)) {
        std::vector<std::string> below;
        if (walk(e.path(), below))
          inside.push_back(e.path().string());
        else
          all = false, inside.insert(inside.end(), below.begin(), below.end());
      } else if (denied(e.path())) {
        inside.push_back(e.path().string());
      } else {
        all = false;
      }
    }
    if (all && !inside.empty()) return true;
    out.insert(out.end(), inside.begin(), inside.end());
    return false;
  };
  for (const std::string& root : roots) {
    // A root inside another (include/cccl in include) is walked with it.
    bool nested = false;
    for (const std::string& other : roots) nested = nested || (other != root && root.rfind(other + "/", 0) == 0);
    if (nested) continue;
    std::vector<std::string> below;
    if (walk(root, below))
      found.push_back(root);
    else
      found.insert(found.end(), below.begin(), below.end());
  }
  return found;
}

}  // namespace cudalab::host
