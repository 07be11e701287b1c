// Planning: lab files on the command line -> loaded plugins + validated plans, before any GPU work.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "lab_file.hpp"
#include "runner.hpp"

namespace cudalab::host {

/// What the command line says about lab files.
struct plan_request {
  std::vector<std::string> files;
  std::vector<std::filesystem::path> search_path;
  const run_profile* profile = nullptr;
  std::vector<std::string> overrides;       ///< --set key=value
  std::vector<std::string> variant_filter;  ///< --variant (checked against each plugin)
};

/// Parses and validates every file, loading each plugin named. Reports every file's problems
/// together: throws lab_file_error (all lab-file problems of all files) or plugin_error (first
/// plugin that cannot be loaded, after lab-file problems are checked). Never touches the GPU.
std::vector<planned_lab> plan_lab_files(const plan_request& request);

}  // namespace cudalab::host

namespace cudalab::host {

/// Memory free on this machine for a run's host buffers (MemAvailable), in bytes; 0 if unknown.
std::uint64_t host_memory_available();

/// Checks every point's require() against the device's memory and the host's, before anything is
/// allocated: returns one problem per point that does not fit, with the numbers.
std::vector<lab_problem> check_memory(const std::vector<planned_lab>& plans, std::uint64_t device_bytes,
                                      std::uint64_t host_bytes);

}  // namespace cudalab::host
