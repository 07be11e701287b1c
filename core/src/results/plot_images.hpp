// PNG copies of the SVG plots, for slides, chats and tools that take no SVG. librsvg's rsvg-convert
// (Debian: librsvg2-bin) renders each SVG in a child process, so the PNG is the same picture and the
// SVG stays the default that needs nothing.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cudalab::host {

/// rsvg-convert on PATH, or nullopt.
std::optional<std::filesystem::path> find_png_renderer();

/// What to say when --png finds no renderer: the program and the package that has it.
std::string no_png_renderer_message();

/// Renders every SVG in `svgs` beside it as NAME.png, at twice its size, with `renderer`; a PNG appears
/// whole or not at all (rendered into a private folder of the system's temporary folder, then written by
/// write_file_atomically: a symlink planted in the plots' folder is never followed). Returns the PNGs written; each one
/// that failed is in `failures` as "cannot write FILE.png: why".
std::vector<std::filesystem::path> write_png_copies(const std::filesystem::path& renderer,
                                                    const std::vector<std::filesystem::path>& svgs,
                                                    std::vector<std::string>& failures);

/// The SVG files directly in `dir`, by name; none when it is not there.
std::vector<std::filesystem::path> svg_files_in(const std::filesystem::path& dir);

}  // namespace cudalab::host
