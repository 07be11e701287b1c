// Lab files: parsing TOML lab files, and validating them against a plugin's spec with a run profile and
// --set overrides into a lab_plan. Nothing here touches the GPU. The plan is lab_plan.hpp; the
// profile and the [measure] settings run_profile.hpp; checks and text of single values values.hpp.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cudalab/lab.hpp"
#include "labfile/lab_plan.hpp"
#include "labfile/problems.hpp"
#include "labfile/run_profile.hpp"

namespace cudalab::host {

/// A lab file after syntax checking: the TOML tree is kept opaque behind this struct.
struct lab_file {
  std::filesystem::path path;
  std::string text;  ///< the text it was parsed from
  std::string plugin;
  source_location plugin_where;
  struct impl;
  std::shared_ptr<const impl> tree;  ///< the parsed document with source positions
};

/// Reads a lab file and checks its syntax and structure ([lab] with `plugin`, known tables only).
/// Throws lab_file_error (syntax errors carry TOML++'s line and column).
lab_file parse_lab_file(const std::filesystem::path& path);

/// parse_lab_file on text already in memory; `path` only names it in messages (the fuzz target's door).
lab_file parse_lab_text(const std::string& text, const std::filesystem::path& path);

/// The entries of the file's table `name` ("lab", "params", "measure") as "key = value" TOML lines in the
/// order written; none when it has no such table. REQUIRES: `file` was parsed.
std::vector<std::string> table_lines(const lab_file& file, const std::string& name);

/// Asks the lab whether it accepts one point (its check_params()): "" when it does, else why not.
using point_check = std::function<std::string(const params&)>;

/// Validates a parsed lab file against the plugin that runs it, applying the profile (may be null)
/// and `--set key=value` overrides (keys: a parameter name, "params.NAME", "measure.KEY",
/// "lab.variants", "lab.baseline"; values: TOML syntax, or a bare word taken as a string).
/// Checks: unknown keys (with the nearest valid name), wrong types, values out of range or not
/// among the choices, empty sweeps, sweeps over max_points, unknown variants or baseline, and the
/// lab's own check_point on every point. Throws lab_file_error listing every problem, and lets what
/// check_point throws through.
lab_plan validate_lab_file(const lab_file& file, const lab_spec& spec, const point_check& check_point,
                           const run_profile* profile, const std::vector<std::string>& overrides);

}  // namespace cudalab::host
