// Golden-file checks (golden.hpp).
#include "golden.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace cudalab::host::testing {

void expect_golden_file(const std::filesystem::path& golden, const std::string& got) {
  const char* update = std::getenv("CUDALAB_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::ofstream(golden, std::ios::binary) << got;
    GTEST_SKIP() << "rewrote " << golden;
  }
  std::ifstream in(golden, std::ios::binary);
  ASSERT_TRUE(in) << "missing golden file " << golden << " (run with CUDALAB_UPDATE_GOLDEN=1)";
  std::stringstream want;
  want << in.rdbuf();
  EXPECT_EQ(got, want.str()) << "output differs from " << golden;
}

}  // namespace cudalab::host::testing
