// Building a student's launcher with nvcc into a shared library, under the assignment's policy.
#include "slots/launcher_build.hpp"

#include <fnmatch.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "labfile/text_file.hpp"
#include "process/child_process.hpp"
#include "process/toolkit_programs.hpp"
#include "slots/build_sandbox.hpp"
#include "slots/elf_symbols.hpp"
#include "slots/ptxas_messages.hpp"

namespace cudalab::host {
namespace {

// What any program needs: the C and C++ runtimes, the loader, and the CUDA runtime the host shares.
const char* const always_allowed[] = {"libc.so.*",  "libm.so.*",       "libstdc++.so.*", "libgcc_s.so.*", "ld-linux*",
                                      "libdl.so.*", "libpthread.so.*", "librt.so.*",     "libcudart.so*"};

struct nvcc_run {
  bool ok = false;
  std::string output;       ///< its messages (the first 400 lines)
  std::string header_tree;  ///< the lines of gcc's -H tree, apart (there are thousands)
};

// nvcc with `args` in a child process under the request's timeout, limits and sandbox; its output, and
// whether it exited with 0.
nvcc_run run_nvcc(const std::string& nvcc, const std::vector<std::string>& args, const launcher_build_request& r) {
  child_request request;
  request.argv.push_back(nvcc);
  request.argv.insert(request.argv.end(), args.begin(), args.end());
  request.timeout_s = r.timeout_s;
  request.limits = r.limits;
  if (r.sandbox) request.sandbox = build_sandbox(*r.sandbox, r.work);
  request.keep_lines = 0;
  nvcc_run run;
  std::size_t lines = 0, tree_lines = 0;
  request.on_output_line = [&](const std::string& line) {
    if (!line.empty() && line[0] == '.') {
      if (++tree_lines <= 100000) run.header_tree += line + "\n";
    } else if (++lines <= 400) {
      run.output += line + "\n";
    }
  };
  const child_outcome how = run_child(request);
  if (!how.started) throw std::runtime_error("nvcc could not be started: " + how.start_error);
  if (!how.ended_normally()) run.output += r.file_name + ": error: nvcc " + how.describe() + "\n";
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

std::vector<compile_diagnostic> parse_nvcc_output(const std::string& output) {
  static const std::regex gcc_style(R"(^(.+?):(\d+):(?:\d+:)? ((?:fatal )?error|warning): (.*)$)");
  static const std::regex linker(
      R"(^(?:\S*/)?ld(?:\.\w+)?: (.*(?:undefined reference|cannot find|multiple definition).*)$)");
  std::vector<compile_diagnostic> found = parse_nvrtc_log(output);  // the front end's lines
  std::istringstream lines(output);
  std::string text;
  while (std::getline(lines, text)) {
    std::smatch m;
    if (std::regex_match(text, m, gcc_style))
      found.push_back({m[1], std::stoi(m[2]), *parse_severity(m[3]), m[4]});
    else if (std::regex_match(text, m, linker))
      found.push_back({"", 0, diagnostic_severity::error, "the linker: " + m[1].str()});
  }
  return found;
}

namespace {

// The compiler names the file by the path it was given (`copy`): messages name it as the student did.
std::vector<compile_diagnostic> as_student_named(std::vector<compile_diagnostic> found, const std::string& copy,
                                                 const std::string& file_name) {
  for (compile_diagnostic& d : found)
    if (d.file == copy) d.file = file_name;
  return found;
}

// A failed build whose output has no message a student may see.
compile_diagnostic no_message(const std::string& file_name) {
  return {file_name, 0, diagnostic_severity::error,
          "nvcc failed, and none of its messages is about a line of the submission"};
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
  const auto nvcc = find_toolkit_program("nvcc");
  if (!nvcc) throw std::runtime_error("a launcher submission needs nvcc (the CUDA toolkit): not found");
  // nvcc sees a copy of the submission alone, in a folder of its own, and writes the library there.
  launcher_build_request r = request;
  if (r.work.empty()) r.work = (std::filesystem::path(r.output_path).parent_path() / ".launcher-build").string();
  const build_folder work(r.work, r.sandbox.has_value());
  const std::string copy =
      write_into_sandbox_folder(source, r.work, std::filesystem::path(request.file_name).filename().string());
  const std::string library = (std::filesystem::path(r.work) / "submission.so").string();
  const auto as_named = [&](const std::string& output) {
    std::vector<compile_diagnostic> found =
        mark_denied(as_student_named(parse_nvcc_output(output), copy, request.file_name), request.deny_headers);
    const std::vector<compile_diagnostic> ptxas = parse_ptxas_messages(output, source, request.file_name);
    found.insert(found.end(), ptxas.begin(), ptxas.end());
    return found;
  };

  std::vector<std::string> common{"-x", "cu", "-arch=" + request.arch, "-std=c++17"};
  common.insert(common.end(), request.flags.begin(), request.flags.end());
  // 1. Every header it reaches, however it names it (-M's rule), and which file opened each (gcc's -H
  // tree): the policy judges the headers the student's file opened itself.
  const std::string rule = (std::filesystem::path(r.work) / "headers.d").string();
  std::vector<std::string> deps = common;
  deps.insert(deps.end(), {"-M", "-MF", rule, "-Xcompiler", "-H", copy});
  const nvcc_run listed = run_nvcc(nvcc->string(), deps, r);
  if (!listed.ok) {
    result.output = listed.output;
    result.diagnostics = as_named(listed.output);
    if (!any_fails_build(result.diagnostics)) result.diagnostics.push_back(no_message(request.file_name));
    return result;
  }
  try {
    result.headers = make_rule_prerequisites(read_text(rule, "nvcc's list of headers"));
  } catch (const lab_file_error& e) {
    throw std::runtime_error(std::string("nvcc -M wrote no list of headers: ") + e.what());
  }
  result.diagnostics =
      denied_headers(parse_header_tree(listed.header_tree), source, request.file_name, request.deny_headers);
  if (!result.diagnostics.empty()) return result;
  // 2. The library.
  std::vector<std::string> build = common;
  build.insert(build.end(), {"-shared", "-Xcompiler", "-fPIC", "-cudart", "shared", "-Xlinker", "--no-undefined", "-o",
                             library, copy});
  const nvcc_run built = run_nvcc(nvcc->string(), build, r);
  result.output = built.output;
  result.diagnostics = as_named(built.output);
  if (!built.ok) {
    if (!any_fails_build(result.diagnostics)) result.diagnostics.push_back(no_message(request.file_name));
    return result;
  }
  std::error_code ec;
  std::filesystem::copy_file(library, request.output_path, std::filesystem::copy_options::overwrite_existing, ec);
  if (ec) throw std::runtime_error("cannot copy the built library to " + request.output_path + ": " + ec.message());
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
  result.ok = !any_fails_build(result.diagnostics);
  return result;
}

}  // namespace cudalab::host
