// `cudalab run --sanitize=TOOL ...`: re-executes the same command under NVIDIA compute-sanitizer.
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "process/toolkit_programs.hpp"

namespace cudalab::cli {

namespace fs = std::filesystem;

int sanitize_command(const options& o) {
  if (o.profile) {
    fmt::print(
        stderr,
        "cudalab: --sanitize and --profile cannot go together: each runs the lab files under a tool of its own\n");
    return host::exit_usage;
  }
  const auto sanitizer = host::find_toolkit_program("compute-sanitizer");
  if (!sanitizer) {
    fmt::print(stderr,
               "cudalab: --sanitize needs NVIDIA compute-sanitizer (part of the CUDA toolkit): not found on PATH, "
               "beside nvcc, in $CUDA_HOME/bin or /usr/local/cuda/bin\n");
    return host::exit_usage;
  }
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  // The same command without --sanitize, run by the sanitizer; errors it finds exit with 7 (CUDA error).
  std::vector<std::string> args{
      sanitizer->string(), "--tool", o.sanitize, "--error-exitcode", std::to_string(host::exit_cuda_error),
      "--print-limit",     "20"};
  if (o.sanitize == "racecheck") args.insert(args.end(), {"--racecheck-report", "all"});
  args.push_back(ec ? o.argv.at(0) : self.string());
  for (std::size_t i = 1; i < o.argv.size(); ++i) {
    const std::string& a = o.argv[i];
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
