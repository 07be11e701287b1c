// Assignment files' integrity settings: the [measure] keys a test's lab file turns on (verification after
// timing for performance tests) and the [anti_cheat] table, its defaults and its validation.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "labfile/assignment_file.hpp"

namespace fs = std::filesystem;
using namespace cudalab::host;

namespace {

fs::path write_file(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "cudalab_assignment_file_test";
  fs::create_directories(dir);
  std::ofstream(dir / name) << text;
  return dir / name;
}

const char* const lab_text = R"([lab]
plugin = "testlab"
variants = ["copy"]

[params]
n = 1000

[measure]
repetitions = 3
verify_after_timing = false
)";

const char* const assignment_text = R"([assignment]
id = "hw"
title = "HW"
lab = "lab.toml"
slot = "copy"
points = 10

[[test]]
name = "sizes"
kind = "correctness"
points = 4
sweep = { n = [1, 33] }

[[test]]
name = "speed"
kind = "performance"
points = 6
params = { n = "1Mi" }
)";

// The lines of `text`'s [measure] table.
std::string measure_table(const std::string& text) { return text.substr(text.find("[measure]")); }

}  // namespace

TEST(AssignmentTestLab, PerformanceTestsVerifyAgainAfterTiming) {
  write_file("lab.toml", lab_text);
  const assignment_file a = parse_assignment(write_file("a.toml", assignment_text));
  const lab_file base = parse_lab_file(write_file("lab.toml", lab_text));
  const std::string speed = measure_table(test_lab_text(a, a.tests[1], base, "student:copy"));
  EXPECT_NE(speed.find("verify_after_timing = true"), std::string::npos) << speed;
  EXPECT_EQ(speed.find("verify_after_timing = false"), std::string::npos) << speed;  // the lab file's is replaced
  EXPECT_NE(speed.find("repetitions = 3"), std::string::npos) << speed;
  const std::string sizes = measure_table(test_lab_text(a, a.tests[0], base, "student:copy"));
  EXPECT_NE(sizes.find("timing = false"), std::string::npos) << sizes;
  EXPECT_EQ(sizes.find("verify_after_timing = true"), std::string::npos) << sizes;  // nothing timed to verify after
}
