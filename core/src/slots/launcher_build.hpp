// Building a student's launcher (a `launcher` slot: host and device code) with nvcc into a shared
// library the host loads, under the assignment's policy: no denied header among those the student's file
// opened itself (gcc's -H tree, header_policy.hpp), no shared library needed beyond the allowed ones
// (DT_NEEDED), and a time budget for the compiler.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "process/child_process.hpp"
#include "process/sandbox.hpp"
#include "slots/kernel_compile.hpp"

namespace cudalab::host {

/// What to build and how.
struct launcher_build_request {
  std::string source_path;                   ///< the submission on disk
  std::string file_name;                     ///< its name in messages ("reduce.cu")
  std::string output_path;                   ///< the shared library to write
  std::string arch = "sm_90";                ///< the GPU's architecture: sm_XY
  std::vector<std::string> flags;            ///< [build] nvcc flags ("-O3", "-lineinfo")
  std::vector<std::string> deny_headers;     ///< globs matched against the headers the file includes itself
  std::vector<std::string> allow_libraries;  ///< globs of DT_NEEDED names allowed beyond the C/C++ runtime and cudart
  double timeout_s = 60;                     ///< each nvcc run, seconds
  /// The folder nvcc works in (made new, removed after): a copy of the source in, the library out,
  /// then copied to output_path. A sandbox's own folder (new_sandbox_folder) when `sandbox` is set; "":
  /// .launcher-build beside output_path.
  std::string work;
  std::optional<child_sandbox> sandbox;  ///< nvcc, and all it starts, in this sandbox when set (build_sandbox.hpp)
  std::optional<child_limits> limits;    ///< and under these limits when set
};

/// What came of it.
struct launcher_build_result {
  bool ok = false;                              ///< the library was written and passed the checks
  std::vector<compile_diagnostic> diagnostics;  ///< the policy's and the compiler's messages
  std::vector<std::string> headers;             ///< every header it reached, as nvcc -M listed them
  std::vector<std::string> needed;              ///< the library's DT_NEEDED entries
  std::string output;                           ///< nvcc's output (the last lines, when long)
};

/// The headers of a make rule as `nvcc -M` prints it ("out.o : a.cu \\\n /usr/include/x.h ..."),
/// without the target and the source itself.
std::vector<std::string> make_rule_prerequisites(const std::string& rule);

/// Messages of nvcc's output: the front end's "FILE(LINE): error: ..." and the host compiler's and
/// linker's "FILE:LINE:COLUMN: error: ..." lines.
std::vector<compile_diagnostic> parse_nvcc_output(const std::string& output);

/// Builds the launcher: `nvcc -M -Xcompiler -H` and the header policy on the headers the file opened
/// itself, then `nvcc -shared -Xcompiler -fPIC -cudart shared -arch=...` with --no-undefined, then the
/// DT_NEEDED check. Each nvcc runs in a child process under the timeout. Never throws for the submission's
/// faults; throws std::runtime_error when nvcc cannot be found or started.
launcher_build_result build_launcher(const launcher_build_request& request);

}  // namespace cudalab::host
