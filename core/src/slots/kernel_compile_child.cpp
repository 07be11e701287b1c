// Compiling a student's kernel in a child process of its own (kernel_compile_child.hpp).
#include "slots/kernel_compile_child.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "exit_codes.hpp"
#include "labfile/text_file.hpp"
#include "results/safe_file.hpp"
#include "slots/build_sandbox.hpp"
#include "slots/elf_symbols.hpp"
#include "slots/nvrtc_std_headers.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

namespace {

constexpr const char* source_name = "source.cu";
constexpr const char* log_name = "nvrtc.log";
constexpr const char* cubin_name = "kernel.cubin";
constexpr const char* trace_name = "includes.txt";
// What of the child's files is read back: a log or a CUBIN past these is not one NVRTC wrote.
constexpr std::uintmax_t max_log_bytes = 4u << 20;
constexpr std::uintmax_t max_cubin_bytes = 256u << 20;
constexpr std::uintmax_t max_trace_bytes = 16u << 20;

// The bytes of `path`, a regular file of at most `limit` bytes, not followed through a link; nullopt otherwise.
std::optional<std::string> bounded_file(const fs::path& path, std::uintmax_t limit) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(path, ec);
  if (ec || !fs::is_regular_file(st) || fs::file_size(path, ec) > limit || ec) return std::nullopt;
  return file_bytes(path.string());
}

}  // namespace

kernel_compile_result compile_kernel_in_child(const kernel_compile_request& request, const kernel_compile_child& how) {
  kernel_compile_result result;
  const build_folder work(how.work, how.sandbox.has_value());
  write_into_sandbox_folder(request.source, how.work, source_name);
  child_request c;
  c.argv = {"/proc/self/exe", compile_kernel_entry, how.work, request.file_name, request.arch};
  c.argv.insert(c.argv.end(), request.options.begin(), request.options.end());
  for (const std::string& dir : request.include_dirs) c.argv.push_back("-I" + dir);
  c.timeout_s = how.timeout_s;
  c.limits = how.limits;
  if (how.sandbox) c.sandbox = build_sandbox(*how.sandbox, how.work);
  c.keep_lines = 5;
  const child_outcome ended = run_child(c);
  const bool answered = ended.ended_normally() && (ended.exit_code == 0 || ended.exit_code == 1);
  if (answered) {
    result.log = bounded_file(fs::path(how.work) / log_name, max_log_bytes).value_or("");
    result.include_trace = bounded_file(fs::path(how.work) / trace_name, max_trace_bytes).value_or("");
    result.diagnostics = log_diagnostics(result.log, request);
  }
  if (answered && ended.exit_code == 0) {
    const auto cubin = bounded_file(fs::path(how.work) / cubin_name, max_cubin_bytes);
    if (cubin) result.cubin.assign(cubin->begin(), cubin->end());
    result.ok = cubin && !cubin->empty();
  } else if (answered && !any_fails_build(result.diagnostics)) {
    result.diagnostics.push_back({request.file_name, 0, diagnostic_severity::error, "NVRTC did not compile it"});
  } else if (!answered) {
    std::string why = "the compiler (NVRTC) " + ended.describe();
    if (ended.timed_out) why += fmt::format(" (the build's limit is {} s)", how.timeout_s);
    result.diagnostics.push_back({request.file_name, 0, diagnostic_severity::error, why});
  }
  // The policy is judged here, by the parent, from the headers NVRTC listed as it opened them.
  if (answered) judge_included_headers(result, request);
  return result;
}

int compile_kernel_as_child(int argc, char** argv) {
  if (argc < 5) {
    fmt::print(stderr, "cudalab: {} WORK NAME ARCH [OPTION...] is a child of a build, started by cudalab itself\n",
               compile_kernel_entry);
    return exit_usage;
  }
  const fs::path work = argv[2];
  kernel_compile_request request;
  request.file_name = argv[3];
  request.arch = argv[4];
  for (int i = 5; i < argc; ++i) {
    const std::string option = argv[i];
    if (option.rfind("-I", 0) == 0)
      request.include_dirs.push_back(option.substr(2));
    else
      request.options.push_back(option);
  }
  try {
    request.source = read_text(work / source_name, "submission");
    // The toolkit's headers, the request's, then the C standard's integer headers NVRTC lacks, last.
    std::vector<std::string> dirs = toolkit_include_dirs();
    dirs.insert(dirs.end(), request.include_dirs.begin(), request.include_dirs.end());
    const std::string std_headers = (work / "std").string();
    write_std_headers(std_headers);
    dirs.push_back(std_headers);
    request.include_dirs = dirs;
    const kernel_compile_result compiled = compile_kernel(request);
    // The log, and after it, in the log's own form, what compile_kernel said beyond it (a refused option).
    std::string log = compiled.log;
    if (!log.empty() && log.back() != '\n') log += '\n';
    for (std::size_t i = log_diagnostics(compiled.log, request).size(); i < compiled.diagnostics.size(); ++i) {
      const compile_diagnostic& d = compiled.diagnostics[i];
      std::string message = d.message;
      for (char& ch : message)
        if (ch == '\n' || ch == '\r') ch = ' ';
      log += d.line > 0 ? fmt::format("{}({}): {}: {}\n", d.file, d.line, severity_name(d.severity), message)
                        : fmt::format("{}: {}: {}\n", d.file, severity_name(d.severity), message);
    }
    write_file_atomically(work / log_name, log);
    write_file_atomically(work / trace_name, compiled.include_trace);
    if (!compiled.ok) return 1;
    write_file_atomically(work / cubin_name, std::string(compiled.cubin.begin(), compiled.cubin.end()));
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "cudalab: {}: {}\n", compile_kernel_entry, e.what());
    return exit_internal;
  }
}

}  // namespace cudalab::host
