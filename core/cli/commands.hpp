// The sub-commands of the cudalab executable and the options they share.
#pragma once

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
};

/// Each returns the process exit code (see core/src/exit_codes.hpp).
int list_command(const options& o);
int describe_command(const options& o);
int validate_command(const options& o);
int explain_command(const options& o);
int run_command(const options& o);
int device_command(const options& o);

}  // namespace cudalab::cli
