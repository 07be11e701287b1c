// What a child process of cudalab is told, whole: what it is for, what it plans from and what it runs.
// The parent hands the plan over on the child's stdin (a file in memory), or, for run --profile's child
// which ncu starts, in a file; the child is started as `cudalab __child` and reads nothing else from its
// parent: no options, no files. It plans from the texts its parent planned from, never from the files
// again, so that a file edited during the run changes nothing.
//
// The bytes carry anything (lab file texts, paths): "cudalab-child-plan 1\n", then one entry per field,
// "KEY SIZE\n" followed by SIZE bytes, a list field repeated in order; an unknown key, a short entry or
// anything after the last is refused.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "results/run_context.hpp"
#include "slots/submission.hpp"

namespace cudalab::host {

/// The entry of every child of a run: `cudalab __child` (main() runs it before it parses a command line).
inline constexpr const char* child_entry = "__child";

/// What a child does.
enum class child_role {
  probe,      ///< probe the GPU, check the plans' memory needs, measure the ceilings, send the context
  unit,       ///< run one unit's share of the plans (a lab file, a part of its points, a variant at a point)
  whole_run,  ///< run --profile's child: the whole run in itself, into a results folder (ncu watches it)
};

/// The role's name: "probe", "unit", "whole_run" (a child's command line names it, for people and tools
/// that look at processes; the child checks that it is its plan's).
const char* child_role_name(child_role r);

/// A lab file as the parent planned it: its name as given (for messages and results) and its text.
struct child_lab {
  std::string file;
  std::string text;
};

struct child_plan {
  child_role role = child_role::unit;
  long parent_pid = 0;  ///< the child dies with this process (die_with_parent); 0: not watched (whole_run)

  // What it plans from, exactly as the parent did.
  std::vector<std::string> plugin_paths;  ///< --plugin-path
  std::vector<std::string> sets;          ///< --set
  std::vector<std::string> variants;      ///< --variant
  std::string profile_file;               ///< --config's name ("": none), for messages
  std::string profile_text;               ///< its text
  std::vector<child_lab> labs;
  std::vector<submission_arg> submissions;  ///< built already (a .cubin or .so for each slot)
  bool launchers_apart = false;  ///< a launcher slot's host code in the submission's own process (submission_process)

  // A unit's share (role unit): the ceilings the probe measured, the points and the variant it runs.
  std::optional<ceilings> measured;
  std::int64_t first_point = -1;  ///< -1: from the first
  std::int64_t last_point = -1;   ///< -1: to the last
  std::string variant;            ///< "": every variant of its points, the baseline included
  double baseline_gbps = 0;       ///< the baseline's GB/s at that point, when `variant` is another

  // A whole run's (role whole_run).
  std::string out_dir;        ///< its results folder
  std::optional<int> device;  ///< --device N: only that GPU
};

/// The plan as the bytes a child reads.
std::string child_plan_text(const child_plan& plan);

/// The plan back from child_plan_text's bytes; nullopt for anything else.
std::optional<child_plan> parse_child_plan(const std::string& text);

/// Reads descriptor `fd` to its end and parses what it holds; nullopt when that fails.
std::optional<child_plan> read_child_plan(int fd);

/// Reads the file `path` and parses what it holds; nullopt when that fails.
std::optional<child_plan> read_child_plan_file(const std::string& path);

}  // namespace cudalab::host
