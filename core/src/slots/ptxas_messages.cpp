// ptxas's messages as located diagnostics (ptxas_messages.hpp).
#include "slots/ptxas_messages.hpp"

#include <cxxabi.h>
#include <fmt/format.h>

#include <cstdlib>
#include <memory>
#include <regex>
#include <sstream>

namespace cudalab::host {

namespace {

// The index of the bracket that opens the one closing at `close` (text[close] is `closing`), or npos.
std::size_t opening_of(const std::string& text, std::size_t close, char opening, char closing) {
  int depth = 0;
  for (std::size_t i = close + 1; i-- > 0;) {
    if (text[i] == closing) ++depth;
    if (text[i] == opening && --depth == 0) return i;
  }
  return std::string::npos;
}

// The first line of `source` where `name` stands as a whole word before a '(' or a '<' (a definition,
// a declaration, a call), 0 when none.
int line_naming(const std::string& source, const std::string& name) {
  if (name.empty()) return 0;
  const std::regex at(std::string(R"((^|[^A-Za-z0-9_]))") + name + R"(\s*[(<])");
  std::istringstream lines(source);
  std::string text;
  for (int line = 1; std::getline(lines, text); ++line)
    if (std::regex_search(text, at)) return line;
  return 0;
}

std::string kib(unsigned long bytes) {
  return bytes % 1024 == 0 ? fmt::format("{} KiB", bytes / 1024) : fmt::format("{:.1f} KiB", bytes / 1024.0);
}

}  // namespace

std::string source_name_of(const std::string& symbol) {
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> demangled(abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status),
                                                         std::free);
  std::string name = status == 0 && demangled ? demangled.get() : symbol;
  if (!name.empty() && name.back() == ')') {
    const std::size_t open = opening_of(name, name.size() - 1, '(', ')');
    if (open != std::string::npos) name.erase(open);
  }
  while (!name.empty() && name.back() == ' ') name.pop_back();
  if (!name.empty() && name.back() == '>') {
    const std::size_t open = opening_of(name, name.size() - 1, '<', '>');
    if (open != std::string::npos) name.erase(open);
  }
  const std::size_t colons = name.rfind("::");
  return colons == std::string::npos ? name : name.substr(colons + 2);
}

std::vector<compile_diagnostic> parse_ptxas_messages(const std::string& output, const std::string& source,
                                                     const std::string& file_name) {
  static const std::regex ptxas_line(R"(^ptxas (fatal|error|warning)\s*: (.*)$)");
  static const std::regex names_function(R"(function '([^']+)')");
  static const std::regex too_much_shared(
      R"(^Entry function '[^']+' uses too much shared data \((0x[0-9a-fA-F]+) bytes, (0x[0-9a-fA-F]+) max\)$)");
  std::vector<compile_diagnostic> found;
  std::istringstream lines(output);
  std::string text;
  while (std::getline(lines, text)) {
    while (!text.empty() && text.back() == '\r') text.pop_back();
    std::smatch m;
    if (!std::regex_match(text, m, ptxas_line)) continue;
    const diagnostic_severity severity = m[1] == "fatal"   ? diagnostic_severity::fatal
                                         : m[1] == "error" ? diagnostic_severity::error
                                                           : diagnostic_severity::warning;
    const std::string said = m[2];
    std::string function, message;
    std::smatch f;
    if (std::regex_search(said, f, names_function)) function = source_name_of(f[1]);
    std::smatch s;
    if (std::regex_match(said, s, too_much_shared)) {
      const unsigned long used = std::stoul(s[1], nullptr, 16), limit = std::stoul(s[2], nullptr, 16);
      message = fmt::format(
          "kernel '{}' declares {} bytes ({}) of __shared__ data, more than the {} bytes ({}) a block may declare "
          "statically on this GPU: make its __shared__ arrays smaller (ptxas)",
          function, used, kib(used), limit, kib(limit));
    } else {
      message = "ptxas: " +
                (function.empty() ? said : std::regex_replace(said, names_function, "function '" + function + "'"));
    }
    found.push_back({file_name, line_naming(source, function), severity, message});
  }
  return found;
}

}  // namespace cudalab::host
