// Building a submission and running an assignment's tests against it (test_run.hpp).
#include "assignment/test_run.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "results/console_text.hpp"
#include "results/result_set.hpp"
#include "run_labs.hpp"

namespace cudalab::host {

namespace {

// The lines of the submission at `path` that `diagnostics` name (by the assignment's name for the file,
// or the file's own), each once, in order, at most 40 and each cut at 300 bytes: what the feedback
// shows beside the compiler's words.
std::vector<source_line> named_lines(const std::string& path, const std::string& name,
                                     const std::vector<compile_diagnostic>& diagnostics) {
  std::set<int> wanted;
  const std::string own = std::filesystem::path(path).filename().string();
  for (const compile_diagnostic& d : diagnostics)
    if (d.line > 0 && (d.file == name || d.file == own) && wanted.size() < 40) wanted.insert(d.line);
  std::vector<source_line> lines;
  if (wanted.empty()) return lines;
  std::ifstream in(path, std::ios::binary);
  std::string text;
  for (int n = 1; n <= *wanted.rbegin() && std::getline(in, text); ++n) {
    if (!wanted.count(n)) continue;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    lines.push_back({n, text.substr(0, 300)});
  }
  return lines;
}

}  // namespace

child_limits children_limits_of(const assignment_file& f) {
  child_limits limits;
  limits.max_processes = f.max_processes;
  limits.max_file_bytes = f.max_file_bytes;
  limits.cpu_seconds = f.cpu_time_s;
  return limits;
}

build_policy policy_of(const assignment_file& f, const std::optional<child_sandbox>& sandbox) {
  build_policy policy;
  policy.sandbox = sandbox;
  // A compiler writes its temporary files and the library, no more, and never a core file; it has the
  // memory of a large translation unit, not more: an #include of /dev/zero ends here.
  child_limits limits;
  limits.max_file_bytes = std::uint64_t(1) << 30;
  limits.max_address_bytes = std::uint64_t(8) << 30;
  policy.limits = limits;
  policy.flags = f.flags;
  policy.deny_headers = f.deny_headers;
  policy.allow_libraries = f.allow_libraries;
  policy.timeout_s = f.compile_timeout_s;
  return policy;
}

graded_build build_graded(const loaded_assignment& a, const std::string& submission, const std::string& arch,
                          const std::filesystem::path& folder, const std::optional<child_sandbox>& sandbox) {
  const auto started = std::chrono::steady_clock::now();
  graded_build g;
  g.built = build_submission(*a.slot, submission, arch, policy_of(a.file, sandbox), folder);
  g.report.ok = g.built.ok;
  g.report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  g.report.command = fmt::format("{} for {}", a.slot->kind == slot_kind::kernel ? "NVRTC" : "nvcc", arch);
  for (const std::string& flag : a.file.flags) g.report.command += " " + flag;
  for (const compile_diagnostic& d : g.built.diagnostics) fmt::print("  {}\n", printable(d.text(), text_lines::kept));
  g.report.diagnostics = g.built.diagnostics;
  // Diagnostics name the file as the student gave it (slots/submission.cpp).
  g.report.lines = named_lines(submission, std::filesystem::path(submission).filename().string(), g.built.diagnostics);
  return g;
}

int run_tests(const test_run_request& q) {
  const loaded_assignment& a = *q.assignment;
  run_request r;
  plan_request pr;
  pr.files = q.files;
  pr.search_path = q.search_path;
  pr.submitted_slots = std::vector<std::string>{a.slot->name};
  r.plans = plan_lab_files(pr);
  for (const std::filesystem::path& p : q.search_path) r.plugin_paths.push_back(p.string());
  r.isolate = q.isolate;
  r.timeout_s = a.file.unit_timeout_s;
  r.out_dir = q.out.string();
  r.colour = q.colour;
  r.submissions = {{a.slot->name, q.submission}};
  r.command_line = q.command_line;
  r.argv0 = q.program;
  run_policy policy;
  policy.build = policy_of(a.file, q.sandbox);
  policy.children_sandbox = q.sandbox;
  policy.time_limit_s = q.time_limit_s;
  policy.children_limits = children_limits_of(a.file);
  policy.launchers_apart = q.launchers_apart;
  return run_labs(r, policy);
}

std::map<std::string, std::vector<variant_result>> student_results(const std::filesystem::path& folder,
                                                                   const std::string& variant, run_context& context,
                                                                   const std::string& command) {
  std::map<std::string, std::vector<variant_result>> by_file;
  try {
    result_set run = read_result_set(folder);
    context = std::move(run.context);
    for (variant_result& r : run.results)
      if (r.variant == variant) by_file[r.lab_file].push_back(std::move(r));
  } catch (const result_set_error& e) {
    fmt::print(stderr, "cudalab: {}: no results to score: {}\n", command, e.what());
  }
  return by_file;
}

}  // namespace cudalab::host
