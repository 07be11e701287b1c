// How a run is measured and reported: the [measure] settings and the layers that override them, the
// output formats and isolation modes, and the run profile (configs/*.toml) that gives them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cudalab::host {

/// How variants are timed ([measure] in lab files and profiles), at the defaults. Each field is the
/// [measure] key of its name; the table in labfile/measure_keys.cpp gives its range and meaning.
struct measure_settings {
  bool timing = true;
  int repetitions = 6;
  int max_repetitions = 100;
  double min_time_ms = 2.0;
  double max_time_ms = 1000.0;
  double precision_pct = 0.5;
  double warmup_ms = 5.0;
  bool l2_flush = false;
  int batch = 0;
  std::uint64_t seed = 2026;
  std::uint64_t max_points = 10000;
  bool verify_after_timing = false;
  bool poison_each_launch = false;
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
  std::optional<int> max_repetitions;
  std::optional<double> min_time_ms;
  std::optional<double> max_time_ms;
  std::optional<double> precision_pct;
  std::optional<double> warmup_ms;
  std::optional<bool> l2_flush;
  std::optional<int> batch;
  std::optional<std::uint64_t> seed;
  std::optional<std::uint64_t> max_points;
  std::optional<bool> verify_after_timing;
  std::optional<bool> poison_each_launch;
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

/// Reads a run profile. Throws lab_file_error for bad syntax, unknown keys or wrong types.
run_profile parse_profile(const std::filesystem::path& path);

/// parse_profile on text already in memory; `path` only names it.
run_profile parse_profile_text(const std::string& text, const std::filesystem::path& path);

}  // namespace cudalab::host
