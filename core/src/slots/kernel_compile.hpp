// Compiling a student's kernel (a `kernel` slot: device code only) with NVRTC into a CUBIN for one
// GPU architecture, with the header policy of the assignment: only the allowed include folders are
// searched, and a build whose file includes a denied header - as NVRTC's trace of the headers it opened
// says - is refused (header_policy.hpp). Needs no GPU.
#pragma once

#include <string>
#include <vector>

#include "slots/compile_diagnostic.hpp"
#include "slots/header_policy.hpp"

namespace cudalab::host {

/// What to compile and how.
struct kernel_compile_request {
  std::string source;                     ///< the submission's text
  std::string file_name;                  ///< its name in messages ("transpose.cu")
  std::string arch = "sm_90";             ///< the GPU's architecture: sm_XY (a CUBIN for it)
  std::vector<std::string> options;       ///< more NVRTC options ([build] flags: "-lineinfo", "-DTILE=32")
  std::vector<std::string> include_dirs;  ///< the only folders #include "..." and <...> may come from
  std::vector<std::string> deny_headers;  ///< glob patterns ("cub/*", "cuda/*"): such an #include is refused
};

/// What came of it.
struct kernel_compile_result {
  bool ok = false;                              ///< a CUBIN was made
  std::vector<char> cubin;                      ///< the CUBIN (an ELF file) when ok
  std::string log;                              ///< NVRTC's whole log
  std::string include_trace;                    ///< the headers NVRTC opened (parse_include_trace reads it)
  std::vector<compile_diagnostic> diagnostics;  ///< the header policy's denials, then the log's messages
};

/// The messages of an NVRTC log: lines "FILE(LINE): SEVERITY: MESSAGE" (a warning's or a remark's
/// number, "warning #177-D:", left out) and "FILE: ..." without a line, in order; the source echo and
/// caret lines between them are left out.
std::vector<compile_diagnostic> parse_nvrtc_log(const std::string& log);

/// Every message of the NVRTC log of a compile of `request`: NVRTC's own (parse_nvrtc_log), then
/// ptxas's, each at the line of `request.source` that defines the function it names (ptxas_messages.hpp).
std::vector<compile_diagnostic> log_diagnostics(const std::string& log, const kernel_compile_request& request);

/// Compiles `request.source` with NVRTC (-arch=sm_XY, -std=c++17, the request's options and include
/// folders), tracing the headers it opens, and judges the build by the header policy: a denied header
/// the file includes fails it. The trace is NVRTC's stderr, which this redirects for the while: call it
/// from one thread only (the compile child). Never throws for the submission's faults: a compile error
/// is a result with ok = false and its diagnostics. Throws std::runtime_error when NVRTC itself fails
/// (out of memory, an option it does not know is the submission's fault: a diagnostic).
kernel_compile_result compile_kernel(const kernel_compile_request& request);

/// `result` judged by the header policy: the denials of the headers its include trace lists for
/// `request` (denied_headers) put before its diagnostics, and the build failed when there is one - or
/// when there is no trace at all while headers are denied (a policy that cannot be checked is no pass).
void judge_included_headers(kernel_compile_result& result, const kernel_compile_request& request);

}  // namespace cudalab::host
