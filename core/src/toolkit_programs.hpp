// Finding the CUDA toolkit's programs (nvcc, compute-sanitizer) on this machine.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace cudalab::host {

/// The toolkit program `name`: on PATH, else beside the nvcc on PATH, else in $CUDA_HOME/bin or
/// /usr/local/cuda/bin; nullopt when none of them has an executable of that name.
std::optional<std::filesystem::path> find_toolkit_program(const std::string& name);

}  // namespace cudalab::host
