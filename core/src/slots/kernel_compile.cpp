// Compiling a student's kernel with NVRTC into a CUBIN, under the assignment's header policy.
#include "slots/kernel_compile.hpp"

#include <nvrtc.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "slots/ptxas_messages.hpp"

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

// This process's stderr sent to an anonymous file while it lives: NVRTC's front end writes its include
// trace there, and nowhere else. text() is what was written, at most max_trace_bytes.
class stderr_capture {
 public:
  stderr_capture() : file_(std::tmpfile()) {
    if (!file_) throw std::runtime_error("cannot make a temporary file for NVRTC's include trace");
    std::fflush(stderr);
    saved_ = ::dup(STDERR_FILENO);
    if (saved_ < 0 || ::dup2(::fileno(file_), STDERR_FILENO) < 0) {
      std::fclose(file_);
      throw std::runtime_error("cannot redirect stderr for NVRTC's include trace");
    }
  }
  ~stderr_capture() {
    restore();
    std::fclose(file_);
  }
  stderr_capture(const stderr_capture&) = delete;
  stderr_capture& operator=(const stderr_capture&) = delete;

  std::string text() {
    restore();
    std::rewind(file_);
    std::string out;
    char buffer[65536];
    std::size_t got = 0;
    while (out.size() < max_trace_bytes && (got = std::fread(buffer, 1, sizeof buffer, file_)) > 0)
      out.append(buffer, got);
    return out.substr(0, max_trace_bytes);
  }

 private:
  static constexpr std::size_t max_trace_bytes = 16u << 20;
  void restore() {
    if (saved_ < 0) return;
    std::fflush(stderr);
    ::dup2(saved_, STDERR_FILENO);
    ::close(saved_);
    saved_ = -1;
  }
  std::FILE* file_;
  int saved_ = -1;
};

}  // namespace

std::vector<compile_diagnostic> parse_nvrtc_log(const std::string& log) {
  // EDG numbers some of its messages ("remark #20200-D: #pragma message: ..."): the number is left out.
  static const std::regex with_line(
      R"(^(.+)\((\d+)\): (catastrophic error|error|warning|remark)(?: #\d+(?:-D)?)?: (.*)$)");
  static const std::regex without_line(R"(^([^:(]+): (catastrophic error|error|warning)(?: #\d+(?:-D)?)?: (.*)$)");
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

void judge_included_headers(kernel_compile_result& result, const kernel_compile_request& request) {
  if (request.deny_headers.empty()) return;
  std::vector<compile_diagnostic> denied = denied_headers(parse_include_trace(result.include_trace), request.source,
                                                          request.file_name, request.deny_headers);
  if (result.include_trace.empty())
    denied.push_back({request.file_name, 0, diagnostic_severity::error,
                      "NVRTC did not list the headers it opened: the assignment's header policy cannot be checked"});
  if (denied.empty()) return;
  result.ok = false;
  result.cubin.clear();
  result.diagnostics.insert(result.diagnostics.begin(), denied.begin(), denied.end());
}

std::vector<compile_diagnostic> log_diagnostics(const std::string& log, const kernel_compile_request& request) {
  std::vector<compile_diagnostic> found = parse_nvrtc_log(log);
  const std::vector<compile_diagnostic> ptxas = parse_ptxas_messages(log, request.source, request.file_name);
  found.insert(found.end(), ptxas.begin(), ptxas.end());
  return found;
}

kernel_compile_result compile_kernel(const kernel_compile_request& request) {
  kernel_compile_result result;
  program_ptr program(new nvrtcProgram{});
  check(nvrtcCreateProgram(program.get(), request.source.c_str(), request.file_name.c_str(), 0, nullptr, nullptr),
        "could not create a program");
  // The EDG front end lists every #include it processes, nested, on stderr: what the policy judges.
  std::vector<std::string> options{"-arch=" + request.arch, "-std=c++17", "-Xcudafe", "--trace_includes"};
  for (const std::string& dir : request.include_dirs) options.push_back("-I" + dir);
  options.insert(options.end(), request.options.begin(), request.options.end());
  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());
  nvrtcResult compiled = NVRTC_SUCCESS;
  {
    stderr_capture trace;
    compiled = nvrtcCompileProgram(*program, int(argv.size()), argv.data());
    result.include_trace = trace.text();
  }

  std::size_t log_size = 0;
  check(nvrtcGetProgramLogSize(*program, &log_size), "could not size the log");
  result.log.resize(log_size);
  if (log_size > 0) check(nvrtcGetProgramLog(*program, result.log.data()), "could not read the log");
  while (!result.log.empty() && result.log.back() == '\0') result.log.pop_back();
  result.diagnostics = log_diagnostics(result.log, request);

  if (compiled == NVRTC_ERROR_INVALID_OPTION) {
    result.diagnostics.push_back(
        {request.file_name, 0, diagnostic_severity::error, "NVRTC refused an option of the build: " + result.log});
    return result;
  }
  if (compiled != NVRTC_SUCCESS) {
    if (!any_fails_build(result.diagnostics))
      result.diagnostics.push_back({request.file_name, 0, diagnostic_severity::error, nvrtcGetErrorString(compiled)});
    judge_included_headers(result, request);  // a denied header is said even when the code does not compile
    return result;
  }
  std::size_t size = 0;
  check(nvrtcGetCUBINSize(*program, &size), "could not size the CUBIN");
  result.cubin.resize(size);
  check(nvrtcGetCUBIN(*program, result.cubin.data()), "could not read the CUBIN");
  result.ok = size > 0;
  judge_included_headers(result, request);
  return result;
}

}  // namespace cudalab::host
