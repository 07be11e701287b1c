// `cudalab run --profile`: the run in a child process under ncu, its results and each one's counters.
#include "ncu/profiled_run.hpp"

#include <fmt/format.h>
#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <deque>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "ncu/ncu_csv.hpp"
#include "ncu/ncu_program.hpp"
#include "process/child_process.hpp"

namespace cudalab::host {
namespace {

namespace fs = std::filesystem;

// A folder of its own under the temporary folder, removed with all it holds.
class work_folder {
 public:
  work_folder() {
    std::string pattern = (fs::temp_directory_path() / "cudalab-profile-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
      throw std::runtime_error(
          fmt::format("--profile: cannot create a work folder {}: {}", pattern, std::strerror(errno)));
    path_ = pattern;
  }
  ~work_folder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  work_folder(const work_folder&) = delete;
  work_folder& operator=(const work_folder&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// The bytes of `file`, "" when it cannot be read.
std::string bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return in ? bytes.str() : std::string();
}

// How one child (the profiled run, with or without ncu before it) went, and what its output said.
struct child_run {
  child_outcome how;
  bool spoke = false;               // a line not from ncu (ncu's own start "=="): the lab files ran
  bool no_permission = false;       // ncu said ERR_NVGPUCTRPERM
  std::vector<std::string> errors;  // ncu's ==ERROR== lines
  std::deque<std::string> last;     // its last lines, for a child that left no results
};

child_run run_one(std::vector<std::string> argv, const std::atomic<bool>* stop,
                  const std::function<void(const std::string&)>& on_line) {
  child_run run;
  child_request request;
  request.program = argv.front();
  request.argv = std::move(argv);
  request.stop = stop;
  request.on_output_line = [&](const std::string& line) {
    if (line.empty()) return;
    if (line.rfind("==", 0) != 0) run.spoke = true;
    if (says_no_counter_permission(line)) run.no_permission = true;
    if (is_ncu_error(line) && run.errors.size() < 8) run.errors.push_back(line);
    if (line.rfind("cudalab: note:", 0) == 0 || line.rfind("cudalab: warning:", 0) == 0) on_line(line);
    run.last.push_back(line);
    if (run.last.size() > 12) run.last.pop_front();
  };
  run.how = run_child(request);
  return run;
}

// Everything `argv` prints on stdout and stderr, whole lines of any length.
std::string output_of(std::vector<std::string> argv, const std::atomic<bool>* stop) {
  std::string text;
  child_request request;
  request.program = argv.front();
  request.argv = std::move(argv);
  request.stop = stop;
  request.max_output_line_bytes = std::size_t(1) << 26;  // the raw page's rows are kilobytes long
  request.on_output_line = [&](const std::string& line) { text += line + "\n"; };
  run_child(request);
  return text;
}

// The results the child wrote into `folder`, nullopt when it wrote none.
std::optional<result_set> results_in(const fs::path& folder) {
  try {
    return read_result_set(folder);
  } catch (const result_set_error&) {
    return std::nullopt;
  }
}

// ncu's ==ERROR== lines, or else how it ended, for a note.
std::string what_ncu_said(const child_run& run) {
  if (run.errors.empty()) return run.how.describe();
  std::string text;
  for (const std::string& e : run.errors) text += (text.empty() ? "" : " ") + e;
  return text;
}

// The counters of the report ncu wrote at `report`, into `out`.
void import_counters(const fs::path& ncu, const fs::path& report, const std::atomic<bool>* stop, profiled_run& out) {
  out.raw_csv = output_of(ncu_import_argv(ncu, report), stop);
  out.report = bytes_of(report);
  const std::vector<ncu_kernel> kernels = parse_ncu_csv(out.raw_csv);
  out.counted = count_by_result(kernels);
  if (kernels.empty())
    out.notes.push_back(
        "ncu counted no kernel inside a variant's NVTX range: every measured result shows zeros (does this ncu "
        "support --nvtx-include with regex:?); ncu.csv in the results folder has what it printed");
  if (out.counted->outside > 0)
    out.notes.push_back(fmt::format("{} kernel(s) that ncu counted ran outside every variant's range and are left out",
                                    out.counted->outside));
}

}  // namespace

profiled_run run_profiled(const std::vector<planned_lab>& plans, const child_plan& base, const std::string& argv0,
                          std::optional<int> device, const std::atomic<bool>* stop,
                          const std::function<void(const std::string&)>& on_line) {
  profiled_run out;
  const work_folder work;
  const fs::path input = work.path() / "input", results = work.path() / "run";
  {
    std::ofstream file(input, std::ios::binary);
    file << child_plan_text(profiled_child_plan(base, plans, results.string(), device));
    if (!file.flush()) throw std::runtime_error("--profile: cannot write " + input.string());
  }
  // ncu passes no stdin on: the child reads its plan from the file.
  std::vector<std::string> child = child_argv(argv0, child_role::whole_run);
  child.insert(child.end(), {"--plan", input.string()});
  std::string why_not;
  const std::optional<fs::path> ncu = find_ncu(why_not);
  child_run run;
  if (ncu) {
    const std::string version = ncu_version_in(output_of(ncu_version_argv(*ncu), stop));
    const fs::path report = work.path() / "profile.ncu-rep";
    std::vector<std::string> argv = ncu_profile_argv(*ncu, report);
    argv.insert(argv.end(), child.begin(), child.end());
    run = run_one(argv, stop, on_line);
    const std::string permission = ncu->string() +
                                   " may not read this GPU's performance counters (ERR_NVGPUCTRPERM); "
                                   "https://developer.nvidia.com/ERR_NVGPUCTRPERM says how an administrator allows it";
    if (run.how.stopped) {
      out.counters = "none: the run was interrupted";
    } else if (!fs::exists(results) && (!run.spoke || run.no_permission)) {
      // ncu ended before the lab files ran, or stopped them: they run again on their own.
      why_not = run.no_permission
                    ? permission
                    : fmt::format("{} ended without running the lab files: {}", ncu->string(), what_ncu_said(run));
      out.notes.push_back(why_not + "; the lab files run again without it, and without counters");
      out.counters = "none: " + why_not;
      std::error_code ec;
      fs::remove_all(results, ec);
      run = run_one(child, stop, on_line);
    } else if (run.no_permission) {
      out.notes.push_back(permission + ": the results have no counters");
      out.counters = "none: " + permission;
    } else if (!fs::exists(report)) {
      why_not = fmt::format("{} wrote no report: {}", ncu->string(), what_ncu_said(run));
      out.notes.push_back(why_not + "; the results have no counters");
      out.counters = "none: " + why_not;
    } else {
      out.counters =
          fmt::format("Nsight Compute {} ({})", version.empty() ? "(version unknown)" : version, ncu->string());
      import_counters(*ncu, report, stop, out);
    }
  } else {
    out.notes.push_back(why_not + ": the run goes on without counters");
    out.counters = "none: " + why_not;
    run = run_one(child, stop, on_line);
  }
  out.interrupted = run.how.stopped;
  out.child_exit = run.how.ended_normally() ? run.how.exit_code : -1;
  out.last_output.assign(run.last.begin(), run.last.end());
  if (!run.how.ended_normally() && !run.how.stopped)
    out.last_output.push_back("the profiled run " + run.how.describe());
  out.results = results_in(results);
  return out;
}

void attach_counters(std::vector<variant_result>& results, const counted_kernels& counted) {
  for (variant_result& r : results) {
    if (r.status != result_status::ok && r.status != result_status::verify_failed) continue;
    const auto it = counted.by_result.find(range_key{r.lab_file, r.point_index, r.variant});
    r.has_measured = true;
    r.measured = it != counted.by_result.end() ? it->second : measured_counters{};
  }
}

}  // namespace cudalab::host
