// Where CMake's find_package(cudalab) finds the running cudalab: what `cudalab new` puts on
// CMAKE_PREFIX_PATH in the command it prints.
#pragma once

#include <filesystem>
#include <optional>

namespace cudalab::host {

/// The folder above the executable's bin/ when find_package(cudalab) finds cudalab's config there: an
/// install prefix (lib/cmake/cudalab/cudalabConfig.cmake, or lib64/...) or a build tree
/// (cudalabConfig.cmake at its top). nullopt when neither holds (a copied executable).
std::optional<std::filesystem::path> own_cmake_prefix();

}  // namespace cudalab::host
