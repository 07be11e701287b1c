// The options of the cudalab executable, as CLI11 fills them (main.cpp).
#pragma once

#include <string>
#include <vector>

#include "isolation/child_protocol.hpp"

namespace cudalab::cli {

/// How long `list` lets one plugin take to load, unless --timeout says.
inline constexpr double list_timeout_s = 10;

/// Options parsed from the command line.
struct options {
  std::vector<std::string> plugin_paths;  ///< --plugin-path (repeatable, ':'-lists allowed)
  std::string config;                     ///< --config run profile
  std::vector<std::string> sets;          ///< --set key=value
  std::vector<std::string> variants;      ///< --variant NAME
  std::vector<std::string> submissions;   ///< run's --submission SLOT=FILE
  std::string format;                     ///< --format table|json|csv|md ("" = profile or table)
  std::string out_dir;                    ///< --out DIR
  bool force = false;                     ///< --force: run may replace an earlier run's results in --out
  bool no_color = false;                  ///< --no-color
  bool progress = false;                  ///< --progress: the progress line even without a terminal
  bool wide = false;                      ///< --wide: every column of the tables, no line wrapped
  bool png = false;                       ///< --png (run, plot): PNG copies of the plots
  std::vector<std::string> files;         ///< lab files
  std::string plugin;                     ///< describe's argument
  std::string new_lab;                    ///< new's argument: the lab's name
  std::string command_line;               ///< argv joined, for the results' context
  std::vector<std::string> argv;          ///< argv as given (--sanitize re-executes it)
  std::string isolate;                    ///< --isolate[=file|variant|none]: "" when not given
  std::string devices;                    ///< --devices 0,1,...: "" when not given
  int device = -1;                        ///< --device N (run, device): -1 when not given
  double timeout_s = 0;                   ///< --timeout SECONDS per child (of an isolated run, of list); 0: none given
  std::string probe_file;                 ///< list's hidden --internal-probe FILE: be the child loading FILE
  std::string sanitize;                   ///< --sanitize=memcheck|racecheck|synccheck|initcheck
  bool profile = false;                   ///< run --profile: Nsight Compute's counters beside the model's
  host::child_options child;              ///< the hidden options of a child of an isolated run
  /// `assignment init|starter` and `check`.
  struct assignment_options {
    std::string lab;                ///< init --lab
    std::string slot;               ///< init --slot
    std::string file;               ///< starter's and check's assignment file
    std::string submission;         ///< check --submission
    bool no_gpu = false;            ///< check --no-gpu
    std::string arch;               ///< check --arch (what --no-gpu builds for)
    std::string submissions;        ///< grade --submissions DIR (a class)
    std::string student;            ///< grade --student ID
    std::string secret;             ///< grade --secret FILE
    std::vector<std::string> emit;  ///< grade --emit KIND=PATH
  } assignment;
  /// `compare BASE NEW` and `export RESULTS`.
  struct compare_options {
    std::string base;          ///< compare's BASE: a results folder or its results.json / results.jsonl
    std::string next;          ///< compare's NEW
    double threshold_pct = 5;  ///< --threshold PCT
    std::string results;       ///< export's and plot's RESULTS
    std::string out_file;      ///< export's --out FILE ("" = stdout)
  } compare;
};

}  // namespace cudalab::cli
