// Lab files: parsing TOML lab files and run profiles, validating them against a plugin's spec,
// applying --set overrides, and expanding [sweep] into points. Nothing here touches the GPU.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cudalab/lab.hpp"
#include "labfile/problems.hpp"

namespace cudalab::host {

/// How variants are timed ([measure] in lab files and profiles), at the defaults. Each field is the
/// [measure] key of its name; the table in labfile/measure_keys.cpp gives its range and meaning.
struct measure_settings {
  bool timing = true;
  int repetitions = 10;
  double min_time_ms = 50.0;
  double warmup_ms = 20.0;
  bool l2_flush = false;
  int batch = 0;
  std::uint64_t seed = 2026;
  std::uint64_t max_points = 10000;
  bool verify_after_timing = false;
  bool census = false;
};

/// Every [measure] setting of `settings` as (key, value text), in documentation order: what a results
/// file records of how it was measured.
std::vector<std::pair<std::string, std::string>> measure_values(const measure_settings& settings);

/// The [measure] keys one layer gives - a lab file, a profile or the --set overrides - each optional.
/// Layers apply in the order defaults < lab file < profile < --set.
struct measure_overrides {
  std::optional<bool> timing;
  std::optional<int> repetitions;
  std::optional<double> min_time_ms;
  std::optional<double> warmup_ms;
  std::optional<bool> l2_flush;
  std::optional<int> batch;
  std::optional<std::uint64_t> seed;
  std::optional<std::uint64_t> max_points;
  std::optional<bool> verify_after_timing;
  std::optional<bool> census;

  /// Each setting this layer gives, over `settings`.
  void apply_to(measure_settings& settings) const;
  /// The names of the keys this layer gives, in documentation order.
  std::vector<std::string> names() const;
};

/// What the console shows of a run ([output] format; --format overrides).
enum class output_format { table, json, csv, md };

/// "table", "json", "csv", "md"; nullopt for anything else.
std::optional<output_format> parse_output_format(const std::string& text);

/// How a run is split into child processes ([run] isolate; --isolate overrides).
enum class isolation_mode {
  none,     ///< everything in this process
  file,     ///< one child per lab file
  variant,  ///< one child per (lab file, point, variant)
};

/// "none", "file", "variant"; nullopt for anything else.
std::optional<isolation_mode> parse_isolation_mode(const std::string& text);

/// Output settings ([output] in profiles).
struct output_settings {
  output_format format = output_format::table;
  std::string dir;  ///< results folder; "" = results/<timestamp>
};

/// How `run` contains faults ([run] in profiles; --isolate and --timeout override).
struct run_settings {
  isolation_mode isolate = isolation_mode::none;
  double timeout_s = 0;  ///< per child process; 0 = no watchdog
};

/// A run profile (configs/*.toml): [measure], [output] and [run] settings, each key optional.
struct run_profile {
  std::string file;
  std::string text;               ///< the text it was read from ("" for the defaults)
  measure_settings measure;       ///< the defaults with measure_set over them
  measure_overrides measure_set;  ///< the [measure] keys the profile sets
  output_settings output;
  run_settings run;
};

/// A lab file after syntax checking: the TOML tree is kept opaque behind this struct.
struct lab_file {
  std::filesystem::path path;
  std::string text;  ///< the text it was parsed from
  std::string plugin;
  source_location plugin_where;
  struct impl;
  std::shared_ptr<const impl> tree;  ///< the parsed document with source positions
};

/// How a sweep axis was written: a list of values, an arithmetic {from, to, step} range or a geometric
/// {from, to, factor} one. Plots follow it: a linear axis for a step range, a logarithmic one for a factor.
enum class sweep_spacing { list, step, factor };

/// "list", "step", "factor": the names context.json uses.
const char* spacing_name(sweep_spacing s);

/// One swept parameter and its values, in the order written.
struct sweep_axis {
  std::string name;
  std::vector<param_value> values;
  sweep_spacing spacing = sweep_spacing::list;
};

/// A validated lab file, ready to run: every value typed and in range.
struct lab_plan {
  std::filesystem::path file;
  std::string plugin;
  std::string title;
  std::vector<std::string> variants;  ///< to run, in the order given (all of the spec's if unset)
  std::string baseline;               ///< "" when none
  params base;                        ///< every declared parameter: default < [params] < --set
  std::vector<sweep_axis> sweep;      ///< [sweep] axes, in the order written
  measure_settings measure;           ///< defaults < lab [measure] < profile < --set measure.*

  /// The number of points (product of the axis lengths; 1 with no sweep).
  std::uint64_t point_count() const;
  /// Point i (0 <= i < point_count()): base with each axis set to its value; the last axis varies fastest.
  params point(std::uint64_t i) const;
  /// The swept values of point i as ("name", "value") pairs, in axis order.
  std::vector<std::pair<std::string, std::string>> point_labels(std::uint64_t i) const;
};

/// "" when `value` suits the parameter `spec`, else what is wrong, naming the parameter: not a finite
/// number, out of range (with the range and the unit), not among the allowed values, not a multiple,
/// not one of a choice's choices.
/// REQUIRES: value has spec's type (an integer or real for the numeric checks).
std::string value_problem(const param_spec& spec, const param_value& value);

/// Point labels as words: "offset=1 n=268435456" ("" for none).
std::string labels_text(const std::vector<std::pair<std::string, std::string>>& labels);

/// Reads a lab file and checks its syntax and structure ([lab] with `plugin`, known tables only).
/// Throws lab_file_error (syntax errors carry TOML++'s line and column).
lab_file parse_lab_file(const std::filesystem::path& path);

/// parse_lab_file on text already in memory; `path` only names it in messages (the fuzz target's door).
lab_file parse_lab_text(const std::string& text, const std::filesystem::path& path);

/// Reads a run profile. Throws lab_file_error for bad syntax, unknown keys or wrong types.
run_profile parse_profile(const std::filesystem::path& path);

/// parse_profile on text already in memory; `path` only names it.
run_profile parse_profile_text(const std::string& text, const std::filesystem::path& path);

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

/// Parses a size or integer: 1024, "64Ki", "256Mi", "1Gi", "1K"/"1M"/"1G" (powers of 10), "2^28".
/// Returns nullopt for anything else or on overflow.
std::optional<std::int64_t> parse_size(const std::string& text);

/// True when `text` is written as a size but its value does not fit a signed 64-bit integer
/// ("2^63", "9223372036854775808", "8589934592Gi").
bool size_overflows(const std::string& text);

/// `value` as parse_size reads it back with a binary suffix: "256Mi" for 268435456, "3Ki" for 3072, in
/// the largest of Ki, Mi, Gi, Ti that divides it; "" when it is below 1024 or no multiple of 1024.
std::string size_suffix_text(std::int64_t value);

/// The candidate closest to `word` by edit distance, if close enough to be a plausible typo.
std::optional<std::string> nearest_name(const std::string& word, const std::vector<std::string>& candidates);

/// A parameter value as text ("268435456", "0.5", "true", "random").
std::string value_text(const param_value& value);

}  // namespace cudalab::host
