// Building a student's launcher with nvcc into a shared library, under the assignment's policy.
#include "slots/launcher_build.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "labfile/text_file.hpp"
#include "process/child_process.hpp"
#include "process/toolkit_programs.hpp"
#include "slots/elf_symbols.hpp"

namespace cudalab::host {
namespace {

// What any program needs: the C and C++ runtimes, the loader, and the CUDA runtime the host shares.
const char* const always_allowed[] = {"libc.so.*",  "libm.so.*",       "libstdc++.so.*", "libgcc_s.so.*", "ld-linux*",
                                      "libdl.so.*", "libpthread.so.*", "librt.so.*",     "libcudart.so*"};

struct nvcc_run {
  bool ok = false;
  std::string output;
};

// nvcc with `args` in a child process under the timeout; its output, and whether it exited with 0.
nvcc_run run_nvcc(const std::string& nvcc, const std::vector<std::string>& args, double timeout_s) {
  child_request request;
  request.argv.push_back(nvcc);
  request.argv.insert(request.argv.end(), args.begin(), args.end());
  request.timeout_s = timeout_s;
  request.keep_lines = 0;
  nvcc_run run;
  std::size_t lines = 0;
  request.on_output_line = [&](const std::string& line) {
    if (++lines <= 400) run.output += line + "\n";
  };
  const child_outcome how = run_child(request);
  if (!how.started) throw std::runtime_error("nvcc could not be started: " + how.start_error);
  if (how.timed_out) run.output += "nvcc " + how.describe() + "\n";
  run.ok = how.ended_normally() && how.exit_code == 0;
  return run;
}

}  // namespace

std::vector<std::string> make_rule_prerequisites(const std::string& rule) {
  std::string joined;
  for (std::size_t i = 0; i < rule.size(); ++i) {
    if (rule[i] == '\\' && i + 1 < rule.size() && rule[i + 1] == '\n') {
      ++i;
      joined += ' ';
    } else {
      joined += rule[i];
    }
  }
  std::vector<std::string> out;
  const auto colon = joined.find(": ");
  std::istringstream words(colon == std::string::npos ? joined : joined.substr(colon + 2));
  std::string word;
  bool first = true;
  while (words >> word) {
    if (first) {  // the source itself
      first = false;
      continue;
    }
    out.push_back(word);
  }
  return out;
}

bool header_matches(const std::string& header, const std::string& pattern) {
  // "bin/../" resolved, and only the part from the first "include" folder on: the CUDA toolkit's own
  // folder is called cuda, and "cuda/*" means the <cuda/...> headers, not every header of the toolkit.
  const std::string path = std::filesystem::path(header).lexically_normal().generic_string();
  const std::size_t include = path.find("/include/");
  const std::size_t from = include == std::string::npos ? 0 : include + 1;
  if (::fnmatch(pattern.c_str(), path.c_str() + from, 0) == 0) return true;
  for (std::size_t slash = path.find('/', from); slash != std::string::npos; slash = path.find('/', slash + 1))
    if (::fnmatch(pattern.c_str(), path.c_str() + slash + 1, 0) == 0) return true;
  return false;
}

std::vector<compile_diagnostic> parse_nvcc_output(const std::string& output) {
  static const std::regex gcc_style(R"(^(.+?):(\d+):(?:\d+:)? ((?:fatal )?error|warning): (.*)$)");
  std::vector<compile_diagnostic> found = parse_nvrtc_log(output);  // the front end's lines
  std::istringstream lines(output);
  std::string text;
  while (std::getline(lines, text)) {
    std::smatch m;
    if (std::regex_match(text, m, gcc_style)) found.push_back({m[1], std::stoi(m[2]), *parse_severity(m[3]), m[4]});
  }
  return found;
}

namespace {

// The compiler names the file by the path it was given: messages name it as the student did.
std::vector<compile_diagnostic> as_student_named(std::vector<compile_diagnostic> found,
                                                 const launcher_build_request& request) {
  for (compile_diagnostic& d : found)
    if (d.file == request.source_path) d.file = request.file_name;
  return found;
}

}  // namespace

launcher_build_result build_launcher(const launcher_build_request& request) {
  launcher_build_result result;
  std::string source;
  try {  // a regular file of bounded size: a FIFO or /dev/zero handed in as a submission is refused
    source = read_text(request.source_path, "submission");
  } catch (const lab_file_error& e) {
    result.diagnostics.push_back({request.file_name, 0, diagnostic_severity::error, e.what()});
    return result;
  }
  result.diagnostics = denied_includes(source, request.file_name, request.deny_headers);
  if (!result.diagnostics.empty()) return result;
  const auto nvcc = find_toolkit_program("nvcc");
  if (!nvcc) throw std::runtime_error("a launcher submission needs nvcc (the CUDA toolkit): not found");

  std::vector<std::string> common{"-x", "cu", "-arch=" + request.arch, "-std=c++17"};
  common.insert(common.end(), request.flags.begin(), request.flags.end());
  // 1. Every header it reaches, however it names it.
  std::vector<std::string> deps = common;
  deps.insert(deps.end(), {"-M", request.source_path});
  const nvcc_run listed = run_nvcc(nvcc->string(), deps, request.timeout_s);
  if (!listed.ok) {
    result.output = listed.output;
    result.diagnostics = as_student_named(parse_nvcc_output(listed.output), request);
    if (result.diagnostics.empty())
      result.diagnostics.push_back({request.file_name, 0, diagnostic_severity::error, listed.output});
    return result;
  }
  result.headers = make_rule_prerequisites(listed.output);
  for (const std::string& header : result.headers)
    for (const std::string& pattern : request.deny_headers)
      if (header_matches(header, pattern)) {
        result.diagnostics.push_back({request.file_name, 0, diagnostic_severity::denied,
                                      "it includes " + header + " (through another header), which matches " + pattern});
        break;
      }
  if (!result.diagnostics.empty()) return result;
  // 2. The library.
  std::vector<std::string> build = common;
  build.insert(build.end(), {"-shared", "-Xcompiler", "-fPIC", "-cudart", "shared", "-Xlinker", "--no-undefined", "-o",
                             request.output_path, request.source_path});
  const nvcc_run built = run_nvcc(nvcc->string(), build, request.timeout_s);
  result.output = built.output;
  result.diagnostics = as_student_named(parse_nvcc_output(built.output), request);
  if (!built.ok) {
    if (result.diagnostics.empty())
      result.diagnostics.push_back({request.file_name, 0, diagnostic_severity::error, built.output});
    return result;
  }
  // 3. What it needs at load time.
  result.needed = needed_libraries(request.output_path);
  for (const std::string& lib : result.needed) {
    bool allowed = false;
    for (const char* p : always_allowed) allowed = allowed || ::fnmatch(p, lib.c_str(), 0) == 0;
    for (const std::string& p : request.allow_libraries) allowed = allowed || ::fnmatch(p.c_str(), lib.c_str(), 0) == 0;
    if (!allowed)
      result.diagnostics.push_back({request.file_name, 0, diagnostic_severity::denied,
                                    "it needs the library " + lib + ", which the assignment does not allow"});
  }
  result.ok = std::none_of(result.diagnostics.begin(), result.diagnostics.end(),
                           [](const compile_diagnostic& d) { return d.fails_build(); });
  return result;
}

}  // namespace cudalab::host
