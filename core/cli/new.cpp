// `cudalab new NAME [--out DIR]`: writes a lab plugin folder that builds out of tree and passes its tests.
#include <fmt/format.h>

#include <memory>

#include "command.hpp"
#include "exit_codes.hpp"
#include "scaffold/scaffold.hpp"

namespace cudalab::cli {

namespace {

struct new_options {
  std::string name;     ///< the lab's name
  std::string out_dir;  ///< --out ("": ./NAME)
};

int new_lab(const new_options& o) {
  const std::filesystem::path folder =
      o.out_dir.empty() ? std::filesystem::path(o.name) : std::filesystem::path(o.out_dir);
  try {
    const auto files = host::write_lab_scaffold(o.name, folder);
    fmt::print("cudalab: wrote the lab '{}' into {}:\n", o.name, folder.string());
    for (const auto& f : files) fmt::print("  {}\n", f.filename().string());
    fmt::print(
        "Build and test it against this cudalab (its install prefix on CMAKE_PREFIX_PATH):\n"
        "  cmake -S {0} -B {0}/build -DCMAKE_PREFIX_PATH=<cudalab prefix> && cmake --build {0}/build && "
        "ctest --test-dir {0}/build\n"
        "then: cudalab explain {0}/{1}.toml --plugin-path {0}/build\n",
        folder.string(), o.name);
    return host::exit_ok;
  } catch (const host::scaffold_error& e) {
    fmt::print(stderr, "cudalab: new: {}\n", e.what());
    return host::exit_usage;
  }
}

}  // namespace

command add_new(CLI::App& app) {
  auto o = std::make_shared<new_options>();
  auto* cmd =
      app.add_subcommand("new", "Write a new lab plugin folder that builds against this cudalab and passes its tests");
  cmd->add_option("name", o->name, "The lab's name: lower-case letters, digits and '_' (its plugin is cudalab_NAME.so)")
      ->required();
  cmd->add_option("--out", o->out_dir, "The folder to write (default: ./NAME); it must not exist or be empty")
      ->type_name("DIR");
  return {cmd, [o] { return new_lab(*o); }};
}

}  // namespace cudalab::cli
