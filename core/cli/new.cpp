// `cudalab new NAME [--out DIR]`: writes a lab plugin folder that builds out of tree and passes its tests.
#include <fmt/format.h>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "scaffold/scaffold.hpp"

namespace cudalab::cli {

int new_command(const options& o) {
  const std::filesystem::path folder =
      o.out_dir.empty() ? std::filesystem::path(o.new_lab) : std::filesystem::path(o.out_dir);
  try {
    const auto files = host::write_lab_scaffold(o.new_lab, folder);
    fmt::print("cudalab: wrote the lab '{}' into {}:\n", o.new_lab, folder.string());
    for (const auto& f : files) fmt::print("  {}\n", f.filename().string());
    fmt::print(
        "Build and test it against this cudalab (its install prefix on CMAKE_PREFIX_PATH):\n"
        "  cmake -S {0} -B {0}/build -DCMAKE_PREFIX_PATH=<cudalab prefix> && cmake --build {0}/build && "
        "ctest --test-dir {0}/build\n"
        "then: cudalab explain {0}/{1}.toml --plugin-path {0}/build\n",
        folder.string(), o.new_lab);
    return host::exit_ok;
  } catch (const host::scaffold_error& e) {
    fmt::print(stderr, "cudalab: new: {}\n", e.what());
    return host::exit_usage;
  }
}

}  // namespace cudalab::cli
