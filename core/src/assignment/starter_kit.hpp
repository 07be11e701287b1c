// `cudalab assignment starter`: the kit students get from an assignment - the slot's source with the
// solution regions replaced by TODO (it compiles, and fails its tests cleanly), a public copy of the
// assignment with its lab file beside it and the hidden tests only described, and a README with the
// rubric and the commands.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "assignment/assignment.hpp"

namespace cudalab::host {

/// `s` as a TOML basic string: quoted, with backslashes, quotes and newlines escaped.
std::string quoted(const std::string& s);

/// The assignment as TOML text: with `public_copy`, hidden tests become [[hidden]] descriptions and
/// the lab file is named `lab` (the kit's copy); otherwise everything, as the staff wrote it.
std::string assignment_text(const loaded_assignment& a, bool public_copy, const std::string& lab);

/// How the students of a lab that cudalab does not ship get its plugin (neither: a lab cudalab ships).
struct kit_lab_plugin {
  std::filesystem::path source;  ///< --plugin-source: the lab's source folder, built in the kit (kit_plugin.hpp)
  std::string package;           ///< --plugin-package: what to install, in the README's words
};

/// Writes the kit into `out` (created; an existing folder must be empty): the starter source, lab.toml,
/// assignment.toml and README.md, and with `plugin.source` the lab's plugin source and the CMakeLists
/// that builds it (kit_plugin.hpp). Returns the files written. Throws std::runtime_error when the folder
/// cannot be used or written or the plugin source cannot be used, solution_markers_error for a reference
/// whose markers do not pair up.
std::vector<std::filesystem::path> write_starter_kit(const loaded_assignment& a, const std::filesystem::path& out,
                                                     const kit_lab_plugin& plugin = {});

/// The starter's text for a's slot (solution regions replaced).
std::string starter_of(const loaded_assignment& a);

/// Creates `out`, which must not exist or be an empty folder; throws std::runtime_error otherwise.
void make_empty_folder(const std::filesystem::path& out);

}  // namespace cudalab::host
