// The sandbox's command line (process/sandbox.hpp): what is readable is bound at its real path, so that bwrap
// never has to make a mount point through a link.
#include "process/sandbox.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace cudalab::host {
namespace {

namespace fs = std::filesystem;

bool binds(const std::vector<std::string>& argv, const std::string& how, const std::string& path) {
  for (std::size_t i = 0; i + 2 < argv.size(); ++i)
    if (argv[i] == how && argv[i + 2] == path) return true;
  return false;
}

TEST(Sandbox, AReadablePathThroughALinkIsBoundAtItsRealPath) {
  // Like /usr/local/cuda -> /usr/local/cuda-13.0 with compute-sanitizer in bin/: bwrap stopped on
  // "Can't mkdir /usr/local/cuda/bin" when given the path through the link.
  const fs::path root = fs::temp_directory_path() / ("cudalab_sandbox_test_" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "cuda-13.0" / "bin");
  fs::create_directories(root / "cuda-13.0" / "include" / "denied");
  fs::create_directory_symlink(root / "cuda-13.0", root / "cuda");
  child_sandbox box;
  box.readable = {(root / "cuda" / "bin").string(), (root / "absent").string()};
  box.hidden = {(root / "cuda" / "include" / "denied").string()};
  sandbox_support support;
  support.usable = true;
  support.program = "/usr/bin/bwrap";
  const sandbox_launch launch = sandboxed_command(support, box, {"/bin/true"}, 3);
  EXPECT_TRUE(binds(launch.argv, "--ro-bind", (root / "cuda-13.0" / "bin").string()));
  EXPECT_FALSE(binds(launch.argv, "--ro-bind", (root / "cuda" / "bin").string()));
  EXPECT_TRUE(binds(launch.argv, "--ro-bind", (root / "absent").string())) << "a path that is not there stays as given";
  const auto tmpfs = std::find(launch.argv.begin(), launch.argv.end(), "--tmpfs");
  EXPECT_NE(std::find(tmpfs, launch.argv.end(), (root / "cuda-13.0" / "include" / "denied").string()),
            launch.argv.end())
      << "what is hidden is hidden where it is bound";
  fs::remove_all(root);
}

}  // namespace
}  // namespace cudalab::host
