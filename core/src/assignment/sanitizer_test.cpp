// An assignment's sanitizer test (sanitizer_test.hpp).
#include "assignment/sanitizer_test.hpp"

#include "exit_codes.hpp"
#include "process/child_process.hpp"
#include "process/toolkit_programs.hpp"
#include "results/console_text.hpp"

namespace cudalab::host {

std::vector<std::string> sanitizer_options(const std::string& tool) {
  std::vector<std::string> out{"--tool",        tool, "--error-exitcode", std::to_string(exit_cuda_error),
                               "--print-limit", "10"};
  // Allocations lie back to back: an input whose size is a whole number of the allocator's pages has its
  // neighbour right behind its end, and a read past it is a valid read of the neighbour - unless a padding
  // the sanitizer owns lies between them.
  if (tool == "memcheck") out.insert(out.end(), {"--padding", std::to_string(sanitizer_padding_bytes)});
  if (tool == "racecheck") out.insert(out.end(), {"--racecheck-report", "hazard"});
  return out;
}

std::optional<std::string> sanitizer_missing() {
  if (find_toolkit_program("compute-sanitizer")) return std::nullopt;
  std::string looked;
  for (const std::filesystem::path& folder : toolkit_folders())
    looked += (looked.empty() ? "" : ", ") + printable(folder.string());
  return "compute-sanitizer (CUDA toolkit) was not found; looked in " + looked;
}

void run_sanitizer_test(test_outcome& o, const sanitizer_run& s) {
  const assignment_test& t = *o.test;
  o.ran = true;
  const auto sanitizer = find_toolkit_program("compute-sanitizer");
  if (!sanitizer) {  // the test's points are not the student's to lose: it could not be run at all
    o.status = grade_status::error;
    o.message = "not run: " + sanitizer_missing().value_or("compute-sanitizer (CUDA toolkit) was not found");
    o.summary = o.message;
    return;
  }
  child_request c;
  c.program = sanitizer->string();
  c.argv = {c.program};
  const std::vector<std::string> options = sanitizer_options(t.tool);
  c.argv.insert(c.argv.end(), options.begin(), options.end());
  // In a sandbox, the run reads copies of the lab file and the build, staged where the sandbox's user
  // reaches them, and writes its results into that folder; it sees the plugins' files alone.
  std::string lab_file = s.lab_file.string(), built = s.built, out = s.out.string();
  std::vector<std::string> plugin_folders;
  for (const std::filesystem::path& p : s.search_path) plugin_folders.push_back(p.string());
  if (s.sandbox) {
    child_sandbox box = *s.sandbox;
    box.private_folder = new_sandbox_folder("sanitizer");
    box.gpu = true;
    lab_file = copy_into_sandbox_folder(lab_file, box.private_folder, "test.toml");
    built = copy_into_sandbox_folder(built, box.private_folder, std::filesystem::path(built).filename().string());
    out = box.private_folder + "/results";
    std::error_code ec;
    box.readable.push_back(std::filesystem::canonical(s.program, ec).string());
    // compute-sanitizer's folder, as found and as its link resolves (it loads its own libraries from there):
    // a toolkit outside /usr is not in the sandbox otherwise.
    for (const std::filesystem::path& folder :
         {sanitizer->parent_path(), std::filesystem::canonical(*sanitizer, ec).parent_path()})
      if (!folder.empty()) box.readable.push_back(folder.string());
    for (const std::string& folder : plugin_folders)
      for (const std::filesystem::directory_entry& e : std::filesystem::directory_iterator(folder, ec))
        if (e.path().extension() == ".so" && e.is_regular_file(ec)) box.readable.push_back(e.path().string());
    c.sandbox = box;
  }
  // No census under the sanitizer: CUPTI and compute-sanitizer do not share a process.
  c.argv.insert(c.argv.end(), {s.program, "run", "--isolate=none", "--set", "measure.census=false", "--format", "csv",
                               "--out", out, "--submission", s.slot + "=" + built});
  for (const std::string& p : plugin_folders) c.argv.push_back("--plugin-path=" + p);
  c.argv.push_back(lab_file);
  c.timeout_s = s.timeout_s;
  c.limits = s.limits;
  c.die_with_parent = true;
  // The sanitizer's findings: each report's first line ("Invalid __global__ write of size 4 bytes") and
  // where it happened ("at vector_copy+0x70 in vector_copy.cu:7", with -lineinfo).
  bool after_report = false;
  // The last message of the run itself or of its sandbox ("cudalab: ...", "bwrap: ..."), for a run that
  // could not be judged.
  std::string run_said;
  c.on_output_line = [&](const std::string& line) {
    if (line.rfind("cudalab: ", 0) == 0 || line.rfind("bwrap: ", 0) == 0) run_said = line;
    const std::string prefix = "========= ";
    if (line.rfind(prefix, 0) != 0) return;
    const std::string text = line.substr(prefix.size());
    const std::string trimmed = text.substr(std::min(text.find_first_not_of(' '), text.size()));
    const bool summary = trimmed.find("SUMMARY") != std::string::npos;
    const bool report = !summary && (trimmed.rfind("Invalid", 0) == 0 || trimmed.rfind("Race", 0) == 0 ||
                                     trimmed.rfind("Error", 0) == 0 || trimmed.find("hazard") != std::string::npos ||
                                     trimmed.rfind("Uninitialized", 0) == 0 || trimmed.rfind("Barrier", 0) == 0);
    if (int(o.details.size()) < s.max_details && (report || (after_report && trimmed.rfind("at ", 0) == 0)))
      o.details.push_back(printable(trimmed));  // the student's program may print such lines itself
    after_report = report;
  };
  const child_outcome e = run_child(c);
  if (e.ended_normally() && e.exit_code == exit_ok) {
    o.details.clear();
    o.passed = true;
    o.status = grade_status::passed;
    o.score = t.points;
    o.summary = t.tool + ": no errors";
    return;
  }
  o.status = grade_status::failed;
  if (e.ended_normally() && e.exit_code == exit_cuda_error) {
    o.summary = t.tool + " found errors";
  } else if (e.ended_normally() && e.exit_code == exit_verify_failed) {
    o.details.clear();  // a clean run whose output is wrong earns nothing here either
    o.summary = t.tool + ": no sanitizer error, but the output is wrong (the correctness tests say where)";
  } else {
    o.status = e.timed_out ? grade_status::timed_out : grade_status::error;
    o.summary = t.tool + ": the run " + e.describe();
    if (!run_said.empty()) o.summary += " (" + printable(run_said.substr(0, 300)) + ")";
  }
}

}  // namespace cudalab::host
