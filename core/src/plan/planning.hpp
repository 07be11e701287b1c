// Planning: lab files on the command line -> loaded plugins + validated plans, before any GPU work.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "labfile/lab_file.hpp"
#include "plugin/loader.hpp"
#include "results/run_context.hpp"

namespace cudalab::host {

/// A lab file ready to run: what the user typed, the plugin that runs it, the validated plan.
struct planned_lab {
  std::string file_arg;
  const loaded_plugin* plugin = nullptr;
  lab_plan plan;
  std::string text;  ///< the lab file's text the plan was made from
};

/// What the command line says about lab files.
struct plan_request {
  std::vector<std::string> files;
  std::vector<std::filesystem::path> search_path;
  const run_profile* profile = nullptr;
  std::vector<std::string> overrides;       ///< --set key=value
  std::vector<std::string> variant_filter;  ///< --variant (checked against each plugin)
  std::vector<std::string> texts = {};      ///< the files' texts, in order, when already read: no file is read
  /// `run --submission`: the slots whose "student:<slot>" variant runs (added to every plan whose lab
  /// has the slot; a lab file that lists a student variant needs it). nullopt for commands that run
  /// nothing (validate, explain): student variants listed are only checked to name a slot.
  std::optional<std::vector<std::string>> submitted_slots = std::nullopt;
};

/// Parses and validates every file, loading each plugin named; a file named twice (by one path or
/// two) is a problem of the second. Reports every file's problems together: throws lab_file_error (all
/// lab-file problems of all files) or plugin_error (first plugin that cannot be loaded, after lab-file
/// problems are checked), or lab_call_error (a lab whose traffic_of gives 0 bytes at every point for a
/// variant to run). Never touches the GPU.
std::vector<planned_lab> plan_lab_files(const plan_request& request);

/// The variants of a plan to run, restricted by the filter, with the plan's baseline first (listed in
/// the plan's variants or not, and kept whenever anything else runs) so others are compared with it.
std::vector<std::string> variants_to_run(const lab_plan& plan, const std::vector<std::string>& filter);

/// Each plan as a results file records it (run_context::labs): every parameter, the sweep, the
/// effective [measure] settings (seed included) and the variants that run.
std::vector<lab_description> describe_plans(const std::vector<planned_lab>& plans,
                                            const std::vector<std::string>& variant_filter);

/// A lab file's leading comment, what it says it shows and what to look for: the lines from the top
/// that are comments (or blank, between comments), each without its '#' and the one space after it,
/// blank lines at either end left out; "" when the file does not start with a comment.
std::string leading_comment(const std::string& lab_text);

/// How many results a run of `plans` gives: points times variants to run, summed.
std::uint64_t result_count(const std::vector<planned_lab>& plans, const std::vector<std::string>& filter);

}  // namespace cudalab::host
