// Compiling a student's kernel (a `kernel` slot: device code only) with NVRTC into a CUBIN for one
// GPU architecture, with the header policy of the assignment: only the allowed include folders are
// searched, and an #include of a denied header is refused before the compiler runs. Needs no GPU.
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
  std::vector<compile_diagnostic> diagnostics;  ///< the log's messages, and the header policy's, in order
};

/// The messages of an NVRTC log: lines "FILE(LINE): SEVERITY: MESSAGE" (and "FILE: ..." without a
/// line; a numbered "SEVERITY #NNNN-D:" as SEVERITY), in order; the source echo and caret lines between
/// them are left out.
std::vector<compile_diagnostic> parse_nvrtc_log(const std::string& log);

/// Compiles `request.source` with NVRTC (-arch=sm_XY, -std=c++17, the request's options and include
/// folders) unless the header policy refuses it first. Never throws for the submission's faults: a
/// compile error is a result with ok = false and its diagnostics. Throws std::runtime_error when NVRTC
/// itself fails (out of memory, an option it does not know is the submission's fault: a diagnostic).
kernel_compile_result compile_kernel(const kernel_compile_request& request);

}  // namespace cudalab::host
