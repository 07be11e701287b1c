// Compiling a student's kernel in a child process of its own: NVRTC parses untrusted source, so it
// runs where a crash, a compiler that never ends or an #include of a file it must not read costs only
// the child - under a time limit, and in a sandbox (build_sandbox.hpp) when the build policy asks for
// one. The child is this executable, `cudalab __compile-kernel WORK NAME ARCH [OPTION...]`: it reads
// WORK/source.cu and writes WORK/nvrtc.log, WORK/includes.txt (the headers NVRTC opened) and, compiled,
// WORK/kernel.cubin; its exit code says which. The parent judges the header policy from includes.txt.
#pragma once

#include <optional>
#include <string>

#include "process/child_process.hpp"
#include "process/sandbox.hpp"
#include "slots/kernel_compile.hpp"

namespace cudalab::host {

/// The entry of the compile child: a command of its own, not for people (not in --help), which main()
/// runs before it parses a command line.
inline constexpr const char* compile_kernel_entry = "__compile-kernel";

/// How the compile child runs.
struct kernel_compile_child {
  std::string work;                      ///< its folder (made new, removed after): the source in, the CUBIN out
  double timeout_s = 120;                ///< it is killed after this long
  std::optional<child_sandbox> sandbox;  ///< in a sandbox (the work folder its own) when set
  std::optional<child_limits> limits;    ///< under these limits when set
};

/// Compiles `request` as compile_kernel does, in a child as `how` says: NVRTC there, searching the
/// toolkit's headers and the C standard's integer headers (nvrtc_std_headers.hpp) besides
/// `request.include_dirs`, then the header policy here, on the headers NVRTC listed as it opened them. A child that
/// fails (killed, timed out, crashed) is an error diagnostic of the build. Throws std::runtime_error when the work
/// folder cannot be made.
kernel_compile_result compile_kernel_in_child(const kernel_compile_request& request, const kernel_compile_child& how);

/// The compile child (`cudalab __compile-kernel WORK NAME ARCH [OPTION...]`, argv[1] the entry). Exit
/// code 0: compiled; 1: not (the log says why); exit_usage or exit_internal otherwise.
int compile_kernel_as_child(int argc, char** argv);

}  // namespace cudalab::host
