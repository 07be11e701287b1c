// compute-sanitizer's command line for each tool of a sanitizer test: memcheck pads every allocation, so a
// read one element past an input's end is caught even where the next allocation starts right behind it
// (issue 31: such reads passed memcheck with full marks).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "assignment/sanitizer_test.hpp"
#include "exit_codes.hpp"

namespace cudalab::host {
namespace {

// The value after `option` in `argv`, or "" when it is not there.
std::string value_of(const std::vector<std::string>& argv, const std::string& option) {
  const auto it = std::find(argv.begin(), argv.end(), option);
  return it == argv.end() || it + 1 == argv.end() ? "" : *(it + 1);
}

TEST(SanitizerOptions, MemcheckPadsEveryAllocation) {
  const std::vector<std::string> argv = sanitizer_options("memcheck");
  EXPECT_EQ(value_of(argv, "--tool"), "memcheck");
  EXPECT_EQ(value_of(argv, "--padding"), std::to_string(sanitizer_padding_bytes));
  EXPECT_GE(sanitizer_padding_bytes, 16u) << "a float4 read one vector past the end must land in the padding";
  EXPECT_EQ(value_of(argv, "--error-exitcode"), std::to_string(exit_cuda_error));
}

TEST(SanitizerOptions, OtherToolsAsBefore) {
  const std::vector<std::string> race = sanitizer_options("racecheck");
  EXPECT_EQ(value_of(race, "--tool"), "racecheck");
  EXPECT_EQ(value_of(race, "--racecheck-report"), "hazard");
  EXPECT_EQ(value_of(race, "--padding"), "");
  EXPECT_EQ(value_of(sanitizer_options("initcheck"), "--padding"), "");
}

}  // namespace
}  // namespace cudalab::host
