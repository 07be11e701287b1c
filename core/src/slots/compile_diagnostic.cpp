// Compiler diagnostics (compile_diagnostic.hpp).
#include "slots/compile_diagnostic.hpp"

#include "results/console_text.hpp"

namespace cudalab::host {

namespace {
constexpr diagnostic_severity all_severities[] = {diagnostic_severity::error,  diagnostic_severity::catastrophic,
                                                  diagnostic_severity::fatal,  diagnostic_severity::warning,
                                                  diagnostic_severity::remark, diagnostic_severity::denied};
}  // namespace

const char* severity_name(diagnostic_severity s) {
  switch (s) {
    case diagnostic_severity::error:
      return "error";
    case diagnostic_severity::catastrophic:
      return "catastrophic error";
    case diagnostic_severity::fatal:
      return "fatal error";
    case diagnostic_severity::warning:
      return "warning";
    case diagnostic_severity::remark:
      return "remark";
    case diagnostic_severity::denied:
      return "denied";
  }
  return "error";
}

std::optional<diagnostic_severity> parse_severity(const std::string& name) {
  for (const diagnostic_severity s : all_severities)
    if (name == severity_name(s)) return s;
  return std::nullopt;
}

std::string compile_diagnostic::text() const {
  return file + (line > 0 ? ":" + std::to_string(line) : "") + ": " + severity_name(severity) + ": " + message;
}

bool any_fails_build(const std::vector<compile_diagnostic>& found) {
  for (const compile_diagnostic& d : found)
    if (d.fails_build()) return true;
  return false;
}

std::vector<compile_diagnostic> for_the_student(const std::vector<compile_diagnostic>& found,
                                                const std::string& file_name, const std::vector<std::string>& roots) {
  constexpr std::size_t max_shown = 50;
  constexpr std::size_t max_bytes = 500;
  std::vector<compile_diagnostic> shown;
  for (const compile_diagnostic& d : found) {
    if (shown.size() == max_shown) {
      shown.push_back({file_name, 0, diagnostic_severity::remark,
                       std::to_string(found.size() - max_shown) + " more messages are not shown"});
      break;
    }
    compile_diagnostic s = d;
    if (s.file.empty()) s.file = file_name;
    bool known = d.file.empty() || d.file == file_name;
    for (const std::string& root : roots) known = known || d.file.rfind(root + "/", 0) == 0;
    if (!known) {
      s.file = file_name;
      s.line = 0;
      s.message = "a message about another file the submission reached (" + std::string(severity_name(d.severity)) +
                  "), not shown: a submission may include only the toolkit's and the system's headers";
    }
    // One line, every control character escaped: a #pragma message's escape sequences are shown, not obeyed.
    s.file = printable(s.file);
    s.message = printable(s.message);
    if (s.message.size() > max_bytes) s.message = s.message.substr(0, max_bytes) + "...";
    shown.push_back(std::move(s));
  }
  return shown;
}

}  // namespace cudalab::host
