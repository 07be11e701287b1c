// Where a run's results go: a folder created fresh, so that no run's results are lost or mixed with
// another's.
#include "results/output_folder.hpp"

#include <fmt/format.h>

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <vector>

#include "results/format.hpp"
#include "results/safe_file.hpp"

namespace cudalab::host {
namespace {

namespace fs = std::filesystem;

const char* const run_files[] = {"context.json", "results.jsonl", "results.json", "results.csv",
                                 "report.md",    "report.html",   "ncu.csv",      "ncu.ncu-rep"};

// Whether `entry` is a file (or a symlink) named as a run names them, in its folder or in plots/.
bool a_run_file(const fs::directory_entry& entry, bool in_plots) {
  const std::string name = entry.path().filename().string();
  const auto type = entry.symlink_status().type();
  const bool named = is_temporary_file_name(name) ||
                     (in_plots ? entry.path().extension() == ".svg"
                               : std::find(std::begin(run_files), std::end(run_files), name) != std::end(run_files));
  return named && (type == fs::file_type::regular || type == fs::file_type::symlink);
}

// Whether `entry` is something a run writes into its folder: one of its files, or plots/ holding only
// plots.
bool written_by_a_run(const fs::directory_entry& entry) {
  if (a_run_file(entry, false)) return true;
  if (entry.path().filename() != "plots" || entry.symlink_status().type() != fs::file_type::directory) return false;
  for (const fs::directory_entry& plot : fs::directory_iterator(entry.path()))
    if (!a_run_file(plot, true)) return false;
  return true;
}

// Up to three names of `entries`, for a message: "results.json, report.md, plots and 2 more".
std::string some_names(const std::vector<fs::directory_entry>& entries) {
  std::vector<std::string> names;
  for (const auto& e : entries) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  const std::size_t shown = std::min<std::size_t>(names.size(), 3);
  std::string text;
  for (std::size_t i = 0; i < shown; ++i) text += (i ? ", " : "") + names[i];
  if (names.size() > shown) text += fmt::format(" and {} more", names.size() - shown);
  return text;
}

// A folder named on the command line or in the profile, which is there already: it must be empty, or
// with `force` hold a previous run's results, which are removed (symlinks themselves, never what they
// point to).
void make_empty(const fs::path& dir, bool force) {
  std::vector<fs::directory_entry> entries;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) entries.push_back(e);
  if (entries.empty()) return;
  if (!force)
    throw folder_error(
        fmt::format("the results folder {} is not empty (it holds {}): choose another --out, or add --force to replace "
                    "the results of an earlier run there",
                    dir.string(), some_names(entries)));
  std::vector<fs::directory_entry> others;
  std::copy_if(entries.begin(), entries.end(), std::back_inserter(others),
               [](const fs::directory_entry& e) { return !written_by_a_run(e); });
  if (!others.empty())
    throw folder_error(fmt::format(
        "the results folder {} holds {}, which cudalab did not write: --force only replaces the results of an "
        "earlier run; choose another --out",
        dir.string(), some_names(others)));
  for (const fs::directory_entry& e : entries) fs::remove_all(e.path());
}

// A folder named on the command line or in the profile: created, or emptied as `force` allows.
fs::path named_folder(const fs::path& path, bool force) {
  if (!fs::create_directories(path)) {
    if (!fs::is_directory(path))
      throw folder_error(fmt::format("cannot create the results folder {}: something else is there", path.string()));
    make_empty(path, force);
  }
  return path;
}

// results/<date-time>Z, made by this run: a folder of that name that is there already (another run's of
// the same second, or one prepared by someone else) is never used, the name gets -2, -3, ... instead.
fs::path new_default_folder() {
  const fs::path parent = "results";
  fs::create_directories(parent);
  const std::string stamp = utc_text(std::time(nullptr), "%Y%m%d-%H%M%SZ");
  for (int n = 1; n <= 1000; ++n) {
    fs::path path = parent / (n == 1 ? stamp : fmt::format("{}-{}", stamp, n));
    if (::mkdir(path.c_str(), 0777) == 0) return path;
    if (errno != EEXIST) throw fs::filesystem_error("mkdir", path, std::error_code(errno, std::generic_category()));
  }
  throw folder_error(
      fmt::format("cannot create a results folder: {}/{} to {}-1000 are all there", parent.string(), stamp, stamp));
}

}  // namespace

fs::path create_results_folder(const std::string& dir, bool force) {
  try {
    return dir.empty() ? new_default_folder() : named_folder(dir, force);
  } catch (const fs::filesystem_error& e) {
    throw folder_error(fmt::format("cannot create the results folder {}: {}", e.path1().string(), e.code().message()));
  }
}

}  // namespace cudalab::host
