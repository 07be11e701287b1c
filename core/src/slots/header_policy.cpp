// An assignment's header policy (header_policy.hpp).
#include "slots/header_policy.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <regex>
#include <sstream>

namespace cudalab::host {

namespace fs = std::filesystem;

namespace {

// The glob of `deny` that `path` matches, as given or resolved through links (a student's own path
// to the toolkit), or nullopt.
std::optional<std::string> denying_pattern(const std::string& path, const std::vector<std::string>& deny) {
  std::error_code ec;
  const std::string resolved = fs::weakly_canonical(path, ec).string();
  for (const std::string& pattern : deny)
    if (header_matches(path, pattern) || (!ec && header_matches(resolved, pattern))) return pattern;
  return std::nullopt;
}

// The line of the #include directive of `source` whose header name `path` ends with, and that name;
// {0, ""} when none does (the header was named through a macro, or split over lines).
std::pair<int, std::string> directive_of(const std::string& source, const std::string& path) {
  static const std::regex include(R"(^\s*#\s*include\s*[<"]([^>"]+)[>"])");
  const std::string opened = fs::path(path).lexically_normal().generic_string();
  std::istringstream lines(source);
  std::string text;
  for (int line = 1; std::getline(lines, text); ++line) {
    std::smatch m;
    if (!std::regex_search(text, m, include)) continue;
    const std::string name = fs::path(m[1].str()).lexically_normal().generic_string();
    const bool ends_with = opened.size() > name.size() &&
                           opened.compare(opened.size() - name.size(), name.size(), name) == 0 &&
                           opened[opened.size() - name.size() - 1] == '/';
    if (opened == name || ends_with) return {line, m[1].str()};
  }
  return {0, ""};
}

}  // namespace

std::vector<opened_header> parse_include_trace(const std::string& trace) {
  std::vector<opened_header> found;
  std::istringstream lines(trace);
  std::string text;
  while (std::getline(lines, text)) {
    const std::size_t start = text.find_first_not_of(' ');
    if (start == std::string::npos) continue;
    std::string path = text.substr(start);
    while (!path.empty() && (path.back() == '\r' || path.back() == ' ')) path.pop_back();
    if (path.find('/') == std::string::npos) continue;  // NVRTC's own: __nv_nvrtc_builtin_header.h, __nv_name_map
    found.push_back({path, int(start) + 1});
  }
  return found;
}

std::vector<opened_header> parse_header_tree(const std::string& output) {
  static const std::regex tree_line(R"(^(\.+) (\S.*)$)");
  std::vector<opened_header> found;
  std::istringstream lines(output);
  std::string text;
  while (std::getline(lines, text)) {
    std::smatch m;
    if (std::regex_match(text, m, tree_line)) found.push_back({m[2].str(), int(m[1].length())});
  }
  return found;
}

bool header_matches(const std::string& header, const std::string& pattern) {
  // "bin/../" resolved, and only the part from the first "include" folder on: the CUDA toolkit's own
  // folder is called cuda, and "cuda/*" means the <cuda/...> headers, not every header of the toolkit.
  const std::string path = fs::path(header).lexically_normal().generic_string();
  const std::size_t include = path.find("/include/");
  const std::size_t from = include == std::string::npos ? 0 : include + 1;
  if (::fnmatch(pattern.c_str(), path.c_str() + from, 0) == 0) return true;
  for (std::size_t slash = path.find('/', from); slash != std::string::npos; slash = path.find('/', slash + 1))
    if (::fnmatch(pattern.c_str(), path.c_str() + slash + 1, 0) == 0) return true;
  return false;
}

std::vector<compile_diagnostic> denied_headers(const std::vector<opened_header>& opened, const std::string& source,
                                               const std::string& file_name, const std::vector<std::string>& deny) {
  std::vector<compile_diagnostic> found;
  std::vector<std::string> seen;
  for (const opened_header& h : opened) {
    if (h.depth != 1) continue;  // what an allowed header includes for its own use is its business
    const std::optional<std::string> pattern = denying_pattern(h.path, deny);
    if (!pattern || std::find(seen.begin(), seen.end(), h.path) != seen.end()) continue;
    seen.push_back(h.path);
    const auto [line, name] = directive_of(source, h.path);
    if (line > 0)
      found.push_back({file_name, line, diagnostic_severity::denied,
                       "#include <" + name + ">: the assignment does not allow headers matching " + *pattern});
    else
      found.push_back({file_name, 0, diagnostic_severity::denied,
                       "it includes " + h.path + " (named through a macro or a path of its own), which matches " +
                           *pattern + ": the assignment does not allow such headers"});
  }
  return found;
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

}  // namespace cudalab::host
