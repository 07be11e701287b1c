// A starter kit's own lab plugin: its source copied in without solutions, and its build (kit_plugin.hpp).
#include "assignment/kit_plugin.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "results/safe_file.hpp"
#include "slots/solution_regions.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

namespace {

// The kit's CMakeLists.txt: the lab's own project, with the cudalab on PATH as a hint for its
// find_package(cudalab) (a student's cudalab need not be where CMake looks by itself), and its plugin
// written into the kit's build folder, where `check` looks.
const char* const kit_cmake =
    R"(# Builds the lab's plugin (plugin/, a copy of the lab's source without its solutions) against the
# cudalab on PATH, into this build folder, where `cudalab check` finds it:
#   cmake -S . -B build && cmake --build build
# Made by `cudalab assignment starter --plugin-source`. -DCMAKE_PREFIX_PATH=... picks another cudalab.
cmake_minimum_required(VERSION 3.25)
project(kit_plugin LANGUAGES NONE)

find_program(CUDALAB_EXECUTABLE cudalab)
if(CUDALAB_EXECUTABLE)
  # <prefix>/bin/cudalab: the prefix holds lib/cmake/cudalab (an install) or cudalabConfig.cmake (a build).
  file(REAL_PATH "${CUDALAB_EXECUTABLE}" _kit_cudalab)
  cmake_path(GET _kit_cudalab PARENT_PATH _kit_cudalab_bin)
  cmake_path(GET _kit_cudalab_bin PARENT_PATH _kit_cudalab_prefix)
  list(APPEND CMAKE_PREFIX_PATH "${_kit_cudalab_prefix}")
endif()
set(CUDALAB_PLUGIN_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}")
set(BUILD_TESTING OFF)  # the plugin only: the lab's own tests need GoogleTest, which students need not have
add_subdirectory(plugin)
)";

// Whether a file of the source folder goes into the kit: not a build tree's, not a hidden one.
bool copied(const fs::path& relative) {
  for (const fs::path& part : relative) {
    const std::string p = part.string();
    if (p.empty() || p[0] == '.' || p == "build" || p.rfind("build-", 0) == 0 || p == "CMakeFiles") return false;
  }
  return true;
}

std::string whole_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

std::vector<fs::path> write_kit_plugin(const fs::path& source, const fs::path& kit) {
  std::error_code ec;
  const fs::path lists = source / "CMakeLists.txt";
  if (!fs::is_regular_file(lists, ec) || whole_file(lists).find("find_package(cudalab") == std::string::npos)
    throw std::runtime_error("--plugin-source " + source.string() +
                             ": no CMakeLists.txt that builds the lab against an installed cudalab "
                             "(find_package(cudalab) and cudalab_add_plugin, as `cudalab new` writes)");
  // Read and redacted first: a reference whose markers do not pair up writes nothing.
  std::vector<std::pair<fs::path, std::string>> files;
  for (auto it = fs::recursive_directory_iterator(source, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const fs::path relative = it->path().lexically_relative(source);
    if (!copied(relative)) {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(ec)) continue;
    const std::string text = whole_file(it->path());
    files.emplace_back(relative, solution_region_count(text, relative.string()) > 0
                                     ? redacted_reference(text, relative.string())
                                     : text);
  }
  if (ec) throw std::runtime_error("cannot read " + source.string() + ": " + ec.message());
  std::vector<fs::path> written{kit / "CMakeLists.txt"};
  write_file_atomically(written.front(), kit_cmake);
  for (const auto& [relative, text] : files) {
    const fs::path to = kit / kit_plugin_folder / relative;
    fs::create_directories(to.parent_path(), ec);
    if (ec) throw std::runtime_error("cannot make " + to.parent_path().string() + ": " + ec.message());
    write_file_atomically(to, text);
    written.push_back(to);
  }
  return written;
}

std::string kit_build_command(const std::string& kit) {
  const std::string build = (fs::path(kit) / "build").lexically_normal().string();
  return "cmake -S " + kit + " -B " + build + " && cmake --build " + build;
}

fs::path kit_build_folder(const fs::path& kit) { return kit / "build"; }

bool kit_plugin_unbuilt(const fs::path& kit) {
  std::error_code ec;
  if (!fs::is_regular_file(kit / kit_plugin_folder / "CMakeLists.txt", ec)) return false;
  for (const auto& entry : fs::directory_iterator(kit_build_folder(kit), ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("cudalab_", 0) == 0 && entry.path().extension() == ".so") return false;
  }
  return true;
}

}  // namespace cudalab::host
