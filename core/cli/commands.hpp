// The sub-commands of the cudalab executable: each maps the options to a core request and prints.
#pragma once

#include <string>

#include "options.hpp"

namespace cudalab::cli {

/// Each returns the process exit code (see core/src/exit_codes.hpp).
int list_command(const options& o);
int describe_command(const options& o);
int validate_command(const options& o);
int explain_command(const options& o);
int run_command(const options& o);
/// `run --sanitize=TOOL`: re-executes the same command under compute-sanitizer (sanitize.cpp).
int sanitize_command(const options& o);
int device_command(const options& o);
/// What `--version` prints (version.cpp), without a trailing newline.
std::string version_text();
/// `assignment init --lab LAB --slot SLOT --out DIR`: a new assignment file (assignment.cpp).
int assignment_init_command(const options& o);
/// `assignment starter ASSIGNMENT --out KIT`: the students' kit.
int assignment_starter_command(const options& o);
/// `check ASSIGNMENT [--submission FILE] [--no-gpu]`: a student's check.
int check_command(const options& o);
int grade_command(const options& o);
/// `validate` of an assignment file (one with an [assignment] table).
int validate_assignment(const options& o, const std::string& file);
/// `new NAME [--out DIR]`: a lab plugin folder from the template (core/src/scaffold).
int new_command(const options& o);
/// `compare BASE NEW [--threshold PCT] [--format table|md|json]`: two runs' results compared (compare.cpp).
int compare_command(const options& o);
/// `export RESULTS [--format nvbench] [--out FILE]`: a run's results in another tool's layout.
int export_command(const options& o);
/// `plot RESULTS [--out DIR] [--png]`: a run's plots drawn again from its results (plot.cpp).
int plot_command(const options& o);
/// `report RESULTS [--out FILE]`: a run's report.html written again from its results (report.cpp).
int report_command(const options& o);

}  // namespace cudalab::cli
