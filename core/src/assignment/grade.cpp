// The course's grading of one submission (grade.hpp).
#include "assignment/grade.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "assignment/grade_batch.hpp"
#include "assignment/grade_jobs.hpp"
#include "assignment/lms_outputs.hpp"
#include "assignment/sanitizer_test.hpp"
#include "assignment/staff_secret.hpp"
#include "assignment/test_scoring.hpp"
#include "assignment/test_session.hpp"
#include "exit_codes.hpp"
#include "isolation/gpu_workers.hpp"
#include "labfile/spec_lookup.hpp"
#include "labfile/text_file.hpp"
#include "process/sandbox.hpp"
#include "results/format.hpp"
#include "results/safe_file.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

namespace {

// The tools of `f`'s sanitizer tests ("memcheck, racecheck"), each once; "" when it has none.
std::string sanitizer_tools(const assignment_file& f) {
  std::vector<std::string> tools;
  for (const assignment_test& t : f.tests)
    if (t.kind == test_kind::sanitizer && std::find(tools.begin(), tools.end(), t.tool) == tools.end())
      tools.push_back(t.tool);
  std::string text;
  for (const std::string& tool : tools) text += (text.empty() ? "" : ", ") + tool;
  return text;
}

// The submission file of `path`: itself, or the assignment's file in that folder.
std::string submission_file(const loaded_assignment& a, const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return (path / a.submission_name()).string();
  return path.string();
}

}  // namespace

graded_submission grade_submission(const loaded_assignment& a, const session_settings& s, const std::string& submission,
                                   const std::string& student, const fs::path& out) {
  session_inputs in;
  in.submission = submission_file(a, submission);
  in.student = student;
  in.out = out;
  in.settings = s;
  const session_result done = run_test_session(a, grade_policy(), in);
  graded_submission g;
  g.report = done.report;
  g.exit_code = done.exit_code;
  if (done.exit_code == exit_ok && done.report.complete && done.report.submission.build.ok)
    fmt::print("\nscore: {}/{} ({} s); grade.json in {}\n", points_text(std::round(g.report.score * 10) / 10),
               points_text(a.file.points), fmt::format("{:.0f}", g.report.seconds), out.string());
  return g;
}

std::vector<std::string> emitted_in(const fs::path& folder) {
  std::vector<std::string> names;
  std::error_code ec;
  if (!fs::is_regular_file(folder / emitted_list_name, ec)) return names;
  try {
    std::istringstream lines(read_text(folder / emitted_list_name, "list of renders"));
    for (std::string name; std::getline(lines, name);)
      if (!name.empty()) names.push_back(name);
  } catch (const lab_file_error&) {  // unreadable: it names nothing, and what it named is not taken for ours
  }
  return names;
}

void emit_renders(const grade_report& report, const std::vector<emit_target>& targets, const fs::path& folder) {
  std::vector<std::string> listed = emitted_in(folder);
  const std::size_t before = listed.size();
  const fs::path here = fs::absolute(folder).lexically_normal();
  for (const emit_target& t : targets) {
    const std::string name = t.path.filename().string();
    if (fs::absolute(t.path).lexically_normal().parent_path() == here &&
        std::find(listed.begin(), listed.end(), name) == listed.end())
      listed.push_back(name);
  }
  if (listed.size() > before) {
    std::string text;
    for (const std::string& name : listed) text += name + "\n";
    write_file_atomically(folder / emitted_list_name, text);
  }
  for (const emit_target& t : targets) {
    const std::string text = t.kind == "gradescope"     ? gradescope_results(report)
                             : t.kind == "prairielearn" ? prairielearn_results(report)
                             : t.kind == "junit"        ? junit_xml(report)
                                                        : feedback_markdown(report);
    write_file_atomically(t.path, text);
  }
}

int grade_command(const grade_request& req) {
  // What grade writes - every student's report, the hidden tests' lab files, the gradebook - is the
  // staff's alone: folders 0700, files 0600.
  ::umask(077);
  if (req.settings.device >= 0) {
    try {
      see_only_device(req.settings.device);  // before the first CUDA call, as run --device does
    } catch (const std::invalid_argument& e) {
      fmt::print(stderr, "cudalab: grade: --device: {}\n", e.what());
      return exit_no_gpu;
    }
  }
  loaded_assignment a;
  if (const int code = load_assignment_for_command(req.assignment, req.settings.search_path, a); code != exit_ok)
    return code;
  session_settings settings = req.settings;
  try {
    settings.secret = read_staff_secret(secret_file_of(req));
  } catch (const staff_secret_error& e) {
    fmt::print(stderr,
               "cudalab: grade: the staff secret: {}\n  (grade draws hidden tests and pseudonyms from it; "
               "`cudalab assignment init` makes one, --secret FILE names another)\n",
               e.what());
    return exit_usage;
  }
  if (req.no_sandbox) {
    fmt::print(stderr,
               "cudalab: grade: --no-sandbox: the students' code runs as {}, with this user's files and the network; "
               "grade only on a machine and as a user that hold nothing else\n",
               ::geteuid() == 0 ? "root" : "this user");
  } else {
    const sandbox_support& support = sandbox_support_of();
    if (!support.usable) {
      fmt::print(stderr,
                 "cudalab: grade: the students' code runs only in a sandbox, and none can be made here: {}\n"
                 "  (install bubblewrap: cmake/install-deps.sh; or, on a machine and as a user that hold nothing "
                 "else, pass --no-sandbox)\n",
                 support.why);
      return exit_no_sandbox;
    }
    settings.sandbox = child_sandbox{};
  }
  // As without a GPU: where the sanitizer tests cannot run, every student would lose their points. A
  // merge grades nothing, and a Slurm batch's tasks look on their nodes.
  if (!req.merge_only && !req.slurm)
    if (const std::string tools = sanitizer_tools(a.file); !tools.empty())
      if (const auto missing = sanitizer_missing()) {
        fmt::print(stderr,
                   "cudalab: grade: the assignment has sanitizer tests ({}), and {}\n  (nothing was graded: install "
                   "the CUDA toolkit's compute-sanitizer, or put its folder on PATH)\n",
                   tools, *missing);
        return exit_no_gpu;
      }
  if (!req.submissions.empty()) return grade_class(a, settings, req);

  std::error_code ec;
  const std::string file = submission_file(a, req.submission);
  if (!fs::is_regular_file(file, ec)) {
    fmt::print(stderr, "cudalab: grade: no submission file {}\n", file);
    return exit_usage;
  }
  const std::string student =
      !req.student.empty() ? req.student : fs::path(req.submission).lexically_normal().filename().stem().string();
  const fs::path out = !req.out_dir.empty()
                           ? fs::path(req.out_dir)
                           : fs::path("grade-results") /
                                 (a.file.id + "-" + student + "-" + utc_text(std::time(nullptr), "%Y%m%d-%H%M%SZ"));
  try {
    std::vector<std::string> emitted;
    for (const emit_target& t : req.emit) emitted.push_back(t.path.filename().string());
    if (req.force) remove_graded_folder(out, emitted);
    graded_submission g = grade_submission(a, settings, file, student, out);
    if (g.exit_code != exit_ok) return g.exit_code;
    emit_renders(g.report, req.emit, out);
  } catch (const std::exception& e) {  // a folder that cannot be made or written
    fmt::print(stderr, "cudalab: grade: {}\n", e.what());
    return exit_write_error;
  }
  return exit_ok;
}

}  // namespace cudalab::host
