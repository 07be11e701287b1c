// A starter kit for a lab that is not built into cudalab: the lab plugin's source in the kit (its
// solutions left out), a CMakeLists that builds it against the cudalab on PATH, and how `check` finds
// the plugin so built, or says how to build it.
//
//   KIT/CMakeLists.txt    builds plugin/ into KIT/build, against the cudalab found on PATH
//   KIT/plugin/...        the lab's folder as `cudalab new` made it, every solution region redacted
//   KIT/build/            made by the student: cmake -S KIT -B KIT/build && cmake --build KIT/build
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace cudalab::host {

/// The folder of the kit's plugin source, beside its assignment.toml.
inline constexpr const char* kit_plugin_folder = "plugin";

/// Copies the lab's source folder `source` (a lab built out of tree: its CMakeLists.txt calls
/// find_package(cudalab)) into `kit`/plugin, every file but build trees and hidden ones, each file with
/// solution regions redacted (redacted_reference: the students get the starter, never the solution),
/// and writes `kit`/CMakeLists.txt. Returns the files written, the kit's CMakeLists.txt first. Throws
/// std::runtime_error when `source` has no such CMakeLists.txt or cannot be read, solution_markers_error
/// for markers that do not pair up.
std::vector<std::filesystem::path> write_kit_plugin(const std::filesystem::path& source,
                                                    const std::filesystem::path& kit);

/// The one shell line that builds the plugin of the kit `kit` (its folder, as written in commands).
std::string kit_build_command(const std::string& kit);

/// The folder a kit's plugin is built into: `kit`/build, which `check` adds to the plugin search path.
std::filesystem::path kit_build_folder(const std::filesystem::path& kit);

/// True when the kit `kit` holds a plugin's source (`kit`/plugin/CMakeLists.txt) and `kit`/build holds no
/// plugin file yet: `check` then says kit_build_command and stops.
bool kit_plugin_unbuilt(const std::filesystem::path& kit);

}  // namespace cudalab::host
