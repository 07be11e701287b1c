// Nsight Compute's command-line profiler, ncu: where it is, how `run --profile` starts it, and what
// its output says.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cudalab::host {

/// The ncu to run: $CUDALAB_NCU when it is set (an executable file, else none), otherwise the CUDA
/// toolkit's (find_toolkit_program). nullopt when there is none; `why_not` then says where it looked.
std::optional<std::filesystem::path> find_ncu(std::string& why_not);

/// ncu's command line that profiles a program (whose command line follows it) into the report file
/// `report` (.ncu-rep): the kernels inside a variant's NVTX range only (runner/nvtx_range.hpp), the
/// counters of counter_metrics(), the GPU's clocks left alone (--clock-control none), caches flushed
/// before each kernel's replay passes (--cache-control all), only that program's process.
std::vector<std::string> ncu_profile_argv(const std::filesystem::path& ncu, const std::filesystem::path& report);

/// ncu's command line that prints `report`'s raw page as CSV with base units (parse_ncu_csv).
std::vector<std::string> ncu_import_argv(const std::filesystem::path& ncu, const std::filesystem::path& report);

/// ncu's command line that prints its version.
std::vector<std::string> ncu_version_argv(const std::filesystem::path& ncu);

/// The version in `ncu --version`'s output ("2025.3.1.0" from "Version 2025.3.1.0 (build 36398880)"),
/// "" when it has none.
std::string ncu_version_in(const std::string& output);

/// Whether a line of ncu's output says that it may not read the GPU's performance counters
/// (ERR_NVGPUCTRPERM: only administrators may, unless the driver allows everyone).
bool says_no_counter_permission(const std::string& line);

/// Whether a line is one of ncu's own errors ("==ERROR== ...").
bool is_ncu_error(const std::string& line);

}  // namespace cudalab::host
