// One message of a compiler, or of the header policy, about a line of a student's file: where, how
// bad (typed: what decides - "the build was denied" - reads the severity, never the words) and what.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace cudalab::host {

/// How bad a diagnostic is. A build with any but a warning or a remark does not pass.
enum class diagnostic_severity {
  error,
  catastrophic,  ///< NVRTC's front end could not go on ("catastrophic error": a file it cannot open)
  fatal,         ///< the host compiler could not go on ("fatal error")
  warning,
  remark,
  denied,  ///< the assignment's policy refused it (a denied header or library), not the compiler
};

/// "error", "catastrophic error", "fatal error", "warning", "remark", "denied": the words compilers and grade.json use.
const char* severity_name(diagnostic_severity s);
/// The severity named `name` (as severity_name writes it), or nullopt.
std::optional<diagnostic_severity> parse_severity(const std::string& name);

struct compile_diagnostic {
  std::string file;  ///< the file it is about, as the student named it ("transpose.cu")
  int line = 0;      ///< 1-based; 0 when the compiler named none
  diagnostic_severity severity = diagnostic_severity::error;
  std::string message;  ///< what the compiler said, on one line

  /// False for warnings and remarks: the build may still pass.
  bool fails_build() const {
    return severity != diagnostic_severity::warning && severity != diagnostic_severity::remark;
  }
  /// "transpose.cu:12: error: identifier "x" is undefined"
  std::string text() const;
};

/// True when one of `found` fails the build (compile_diagnostic::fails_build).
bool any_fails_build(const std::vector<compile_diagnostic>& found);

/// What of `found` a student is shown: messages about `file_name`, about a header under one of `roots`
/// (the toolkit's, the system's) and about no file (the linker's), each on one line of at most 500 bytes
/// with its control characters escaped (printable: "\x1b[31m", never the byte);
/// a message about any other file (one the submission tried to read) says only that there was one, not
/// what it quoted. At most 50, then one that says how many more there were. Build output reaches a
/// student only through this: never the compiler's raw words.
std::vector<compile_diagnostic> for_the_student(const std::vector<compile_diagnostic>& found,
                                                const std::string& file_name, const std::vector<std::string>& roots);

}  // namespace cudalab::host
