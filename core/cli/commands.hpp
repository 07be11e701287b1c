// The sub-commands of the cudalab executable and the options they share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cudalab::cli {

/// Options parsed from the command line (CLI11 fills these).
struct options {
  std::vector<std::string> plugin_paths;  ///< --plugin-path (repeatable, ':'-lists allowed)
  std::string config;                     ///< --config run profile
  std::vector<std::string> sets;          ///< --set key=value
  std::vector<std::string> variants;      ///< --variant NAME
  std::string format;                     ///< --format table|json|csv|md ("" = profile or table)
  std::string out_dir;                    ///< --out DIR
  bool no_color = false;                  ///< --no-color
  std::vector<std::string> files;         ///< lab files
  std::string plugin;                     ///< describe's argument
  std::string command_line;               ///< argv joined, for the results' context
  std::vector<std::string> argv;          ///< argv as given (--sanitize re-executes it)
  std::string isolate;                    ///< --isolate[=file|variant|none]: "" when not given
  double timeout_s = 0;                   ///< --timeout SECONDS per child of an isolated run; 0: none
  std::string sanitize;                   ///< --sanitize=memcheck|racecheck|synccheck|initcheck

  /// Hidden options of the child processes of an isolated run (run.cpp explains the protocol).
  struct child_options {
    int result_fd = -1;          ///< --internal-child-fd: write results.jsonl lines here; -1: not a child
    bool context_only = false;   ///< --internal-context-only: probe the GPU, send the context, stop
    std::string ceilings;        ///< --internal-ceilings d2d,h2d,d2h,bidir (GB/s): measured already
    std::int64_t point = -1;     ///< --internal-point: only this point
    std::string variant;         ///< --internal-variant: only this variant (no baseline)
    double baseline_gbps = 0;    ///< --internal-baseline-gbps: the baseline at that point
  } child;
};

/// Each returns the process exit code (see core/src/exit_codes.hpp).
int list_command(const options& o);
int describe_command(const options& o);
int validate_command(const options& o);
int explain_command(const options& o);
int run_command(const options& o);
/// `run --sanitize=TOOL`: re-executes the same command under compute-sanitizer (sanitize.cpp).
int sanitize_command(const options& o);
int device_command(const options& o);

}  // namespace cudalab::cli
