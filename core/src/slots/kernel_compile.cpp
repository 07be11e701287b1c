// Compiling a student's kernel with NVRTC into a CUBIN, under the assignment's header policy.
#include "slots/kernel_compile.hpp"

#include <fnmatch.h>
#include <nvrtc.h>

#include <memory>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace cudalab::host {
namespace {

// The NVRTC program, destroyed however the compile ends.
struct program_deleter {
  void operator()(nvrtcProgram* p) const {
    nvrtcDestroyProgram(p);
    delete p;
  }
};
using program_ptr = std::unique_ptr<nvrtcProgram, program_deleter>;

void check(nvrtcResult r, const char* what) {
  if (r != NVRTC_SUCCESS) throw std::runtime_error(std::string("NVRTC ") + what + ": " + nvrtcGetErrorString(r));
}

}  // namespace

std::vector<compile_diagnostic> parse_nvrtc_log(const std::string& log) {
  // EDG numbers some of its messages ("remark #20200-D: #pragma message: ..."): the number is left out.
  static const std::regex with_line(R"(^(.+)\((\d+)\): (catastrophic error|error|warning|remark)(?: #\d+-D)?: (.*)$)");
  static const std::regex without_line(R"(^([^:(]+): (catastrophic error|error|warning)(?: #\d+-D)?: (.*)$)");
  std::vector<compile_diagnostic> found;
  std::istringstream lines(log);
  std::string text;
  while (std::getline(lines, text)) {
    std::smatch m;
    if (std::regex_match(text, m, with_line))
      found.push_back({m[1], std::stoi(m[2]), *parse_severity(m[3]), m[4]});
    else if (std::regex_match(text, m, without_line))
      found.push_back({m[1], 0, *parse_severity(m[2]), m[3]});
  }
  return found;
}

kernel_compile_result compile_kernel(const kernel_compile_request& request) {
  kernel_compile_result result;
  result.diagnostics = denied_includes(request.source, request.file_name, request.deny_headers);
  if (!result.diagnostics.empty()) return result;

  program_ptr program(new nvrtcProgram{});
  check(nvrtcCreateProgram(program.get(), request.source.c_str(), request.file_name.c_str(), 0, nullptr, nullptr),
        "could not create a program");
  std::vector<std::string> options{"-arch=" + request.arch, "-std=c++17"};
  for (const std::string& dir : request.include_dirs) options.push_back("-I" + dir);
  options.insert(options.end(), request.options.begin(), request.options.end());
  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());
  const nvrtcResult compiled = nvrtcCompileProgram(*program, int(argv.size()), argv.data());

  std::size_t log_size = 0;
  check(nvrtcGetProgramLogSize(*program, &log_size), "could not size the log");
  result.log.resize(log_size);
  if (log_size > 0) check(nvrtcGetProgramLog(*program, result.log.data()), "could not read the log");
  while (!result.log.empty() && result.log.back() == '\0') result.log.pop_back();
  result.diagnostics = parse_nvrtc_log(result.log);

  if (compiled == NVRTC_ERROR_INVALID_OPTION) {
    result.diagnostics.push_back(
        {request.file_name, 0, diagnostic_severity::error, "NVRTC refused an option of the build: " + result.log});
    return result;
  }
  if (compiled != NVRTC_SUCCESS) {
    if (result.diagnostics.empty())
      result.diagnostics.push_back({request.file_name, 0, diagnostic_severity::error, nvrtcGetErrorString(compiled)});
    return result;
  }
  std::size_t size = 0;
  check(nvrtcGetCUBINSize(*program, &size), "could not size the CUBIN");
  result.cubin.resize(size);
  check(nvrtcGetCUBIN(*program, result.cubin.data()), "could not read the CUBIN");
  result.ok = size > 0;
  return result;
}

}  // namespace cudalab::host
