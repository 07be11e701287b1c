// Finding programs on this machine: the CUDA toolkit's (nvcc, compute-sanitizer) and others on PATH.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace cudalab::host {

/// The first folder of $PATH holding an executable `name`, with the name; nullopt when none does.
std::optional<std::filesystem::path> find_on_path(const std::string& name);

/// The toolkit program `name`: on PATH, else beside the nvcc on PATH, else in $CUDA_HOME/bin or
/// /usr/local/cuda/bin; nullopt when none of them has an executable of that name.
std::optional<std::filesystem::path> find_toolkit_program(const std::string& name);

}  // namespace cudalab::host
