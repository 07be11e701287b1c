// Nsight Compute's command-line profiler: finding it, its command lines, reading its output.
#include "ncu/ncu_program.hpp"

#include <unistd.h>

#include <cstdlib>
#include <regex>

#include "ncu/ncu_counters.hpp"
#include "process/toolkit_programs.hpp"
#include "runner/nvtx_range.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

std::optional<fs::path> find_ncu(std::string& why_not) {
  if (const char* named = std::getenv("CUDALAB_NCU"); named && *named) {
    if (::access(named, X_OK) == 0 && fs::is_regular_file(named)) return fs::path(named);
    why_not = std::string("$CUDALAB_NCU names ") + named + ", which is not an executable file";
    return std::nullopt;
  }
  if (auto found = find_toolkit_program("ncu")) return found;
  why_not =
      "no ncu (Nsight Compute, part of the CUDA toolkit) on PATH, beside nvcc, in $CUDA_HOME/bin or "
      "/usr/local/cuda/bin ($CUDALAB_NCU names one elsewhere)";
  return std::nullopt;
}

std::vector<std::string> ncu_profile_argv(const fs::path& ncu, const fs::path& report) {
  return {ncu.string(),         "--clock-control",      "none",     "--cache-control", "all",
          "--target-processes", "application-only",     "--nvtx",   "--nvtx-include",  range_filter,
          "--metrics",          counter_metrics_list(), "--export", report.string(),   "--force-overwrite"};
}

std::vector<std::string> ncu_import_argv(const fs::path& ncu, const fs::path& report) {
  return {ncu.string(), "--import", report.string(), "--csv", "--page", "raw", "--print-units", "base"};
}

std::vector<std::string> ncu_version_argv(const fs::path& ncu) { return {ncu.string(), "--version"}; }

std::string ncu_version_in(const std::string& output) {
  static const std::regex version(R"(Version ([0-9]+(\.[0-9]+)+))");
  std::smatch m;
  return std::regex_search(output, m, version) ? m[1].str() : std::string();
}

bool says_no_counter_permission(const std::string& line) { return line.find("ERR_NVGPUCTRPERM") != std::string::npos; }

bool is_ncu_error(const std::string& line) { return line.rfind("==ERROR==", 0) == 0; }

}  // namespace cudalab::host
