// Compiler diagnostics (compile_diagnostic.hpp).
#include "slots/compile_diagnostic.hpp"

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

}  // namespace cudalab::host
