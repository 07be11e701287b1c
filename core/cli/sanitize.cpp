// `cudalab run --sanitize=TOOL ...`: re-executes the same command under NVIDIA compute-sanitizer.
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "exit_codes.hpp"
#include "process/toolkit_programs.hpp"
#include "sanitize.hpp"

namespace cudalab::cli {

int rerun_under_sanitizer(const invocation& how, const std::string& tool) {
  const auto sanitizer = host::find_toolkit_program("compute-sanitizer");
  if (!sanitizer) {
    fmt::print(stderr,
               "cudalab: --sanitize needs NVIDIA compute-sanitizer (part of the CUDA toolkit): not found on PATH, "
               "beside nvcc, in $CUDA_HOME/bin or /usr/local/cuda/bin\n");
    return host::exit_usage;
  }
  // The same command without --sanitize, run by the sanitizer; errors it finds exit with 7 (CUDA error).
  std::vector<std::string> args{
      sanitizer->string(), "--tool", tool, "--error-exitcode", std::to_string(host::exit_cuda_error),
      "--print-limit",     "20"};
  if (tool == "racecheck") args.insert(args.end(), {"--racecheck-report", "all"});
  args.push_back(how.program());
  for (std::size_t i = 1; i < how.argv.size(); ++i) {
    const std::string& a = how.argv[i];
    if (a == "--sanitize") {
      ++i;  // and its value
    } else if (a.rfind("--sanitize=", 0) != 0) {
      args.push_back(a);
    }
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  ::execv(argv[0], argv.data());
  fmt::print(stderr, "cudalab: cannot run {}: {}\n", sanitizer->string(), std::strerror(errno));
  return host::exit_internal;
}

}  // namespace cudalab::cli
