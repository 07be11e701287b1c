// Finding programs on this machine: the CUDA toolkit's (nvcc, compute-sanitizer) and others on PATH.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cudalab::host {

/// The first folder of $PATH holding an executable `name`, with the name; nullopt when none does.
std::optional<std::filesystem::path> find_on_path(const std::string& name);

/// Where find_toolkit_program looks, in order: the folders of $PATH, the folder of the nvcc on PATH (and
/// of the file it links to), $CUDA_HOME/bin, /usr/local/cuda/bin; each once.
std::vector<std::filesystem::path> toolkit_folders();

/// The toolkit program `name`: the first of toolkit_folders() with an executable of that name; nullopt
/// when none has one.
std::optional<std::filesystem::path> find_toolkit_program(const std::string& name);

}  // namespace cudalab::host
