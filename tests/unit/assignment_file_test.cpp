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

TEST(AssignmentAntiCheat, CensusDefaults) {
  write_file("lab.toml", lab_text);
  const assignment_file a = parse_assignment(write_file("a.toml", assignment_text));
  EXPECT_TRUE(a.census.enabled);
  EXPECT_EQ(a.census.min_kernels, 1u);
  EXPECT_FALSE(a.census.max_kernels);
  EXPECT_EQ(a.census.deny, (std::vector<std::string>{"*cub::*", "*thrust::*", "*cublas*", "*cutlass*"}));
  EXPECT_EQ(a.census.stream, "session");
  EXPECT_EQ(a.census.host_copies, "deny");
}

TEST(AssignmentAntiCheat, CensusKeysAreRead) {
  write_file("lab.toml", lab_text);
  const std::string text = std::string(assignment_text) + R"(
[anti_cheat]
roofline_margin = 1.1
census = false
kernels = { min = 2, max = 8, deny = ["*cub::*", "*xmma*"] }
stream = "joined"
host_copies = "allow"
)";
  const assignment_file a = parse_assignment(write_file("b.toml", text));
  EXPECT_DOUBLE_EQ(a.roofline_margin, 1.1);
  EXPECT_FALSE(a.census.enabled);
  EXPECT_EQ(a.census.min_kernels, 2u);
  EXPECT_EQ(a.census.max_kernels, 8u);
  EXPECT_EQ(a.census.deny, (std::vector<std::string>{"*cub::*", "*xmma*"}));
  EXPECT_EQ(a.census.stream, "joined");
  EXPECT_EQ(a.census.host_copies, "allow");
}

TEST(AssignmentAntiCheat, BadCensusKeysAreLocated) {
  write_file("lab.toml", lab_text);
  const std::string text = std::string(assignment_text) + R"(
[anti_cheat]
census = "yes"
kernels = { min = -1, max = 0, deny = ["", 3], maxx = 2 }
stream = "sesion"
host_copies = "forbid"
)";
  try {
    parse_assignment(write_file("c.toml", text));
    FAIL() << "parsed";
  } catch (const lab_file_error& e) {
    const std::string what = e.what();
    for (const char* expected : {
             "c.toml:21:10: anti_cheat.census must be true or false, not a string",
             "anti_cheat.kernels.min must be at least 0",
             "anti_cheat.kernels.max must be at least 1",
             "anti_cheat.kernels.deny must hold strings, not an integer",
             "anti_cheat.kernels.deny holds an empty pattern",
             "unknown key 'maxx' in anti_cheat.kernels; did you mean 'max'?",
             "anti_cheat.stream is \"sesion\", not one of session, joined, any; did you mean \"session\"?",
             "anti_cheat.host_copies is \"forbid\", not one of deny, allow",
         })
      EXPECT_NE(what.find(expected), std::string::npos) << expected << "\n" << what;
  }
  const std::string inverted = std::string(assignment_text) + "\n[anti_cheat]\nkernels = { min = 5, max = 2 }\n";
  try {
    parse_assignment(write_file("d.toml", inverted));
    FAIL() << "parsed";
  } catch (const lab_file_error& e) {
    EXPECT_NE(std::string(e.what()).find("anti_cheat.kernels.max (2) must be at least kernels.min (5)"),
              std::string::npos)
        << e.what();
  }
  const std::string not_table = std::string(assignment_text) + "\n[anti_cheat]\nkernels = 3\n";
  EXPECT_THROW(parse_assignment(write_file("e.toml", not_table)), lab_file_error);
}

TEST(AssignmentLimits, TheChildrensLimitsAreReadAndChecked) {
  write_file("lab.toml", lab_text);
  const assignment_file none = parse_assignment(write_file("g.toml", assignment_text));
  EXPECT_EQ(none.max_processes, 0u);
  EXPECT_EQ(none.max_file_bytes, 0u);
  EXPECT_EQ(none.cpu_time_s, 0u);
  const std::string text =
      std::string(assignment_text) + "\n[limits]\nmax_processes = 256\nmax_file_bytes = \"64Mi\"\ncpu_time_s = 120\n";
  const assignment_file a = parse_assignment(write_file("h.toml", text));
  EXPECT_EQ(a.max_processes, 256u);
  EXPECT_EQ(a.max_file_bytes, 64u << 20);
  EXPECT_EQ(a.cpu_time_s, 120u);
  const std::string bad =
      std::string(assignment_text) + "\n[limits]\nmax_processes = -2\nmax_file_bytes = \"lots\"\ncpu_time_s = 1.5\n";
  try {
    parse_assignment(write_file("i.toml", bad));
    FAIL() << "parsed";
  } catch (const lab_file_error& e) {
    const std::string what = e.what();
    for (const char* expected : {"limits.max_processes must be at least 0",
                                 "limits.max_file_bytes must be a size such as \"64Mi\" (0: no limit), not a string",
                                 "limits.cpu_time_s must be a whole number, not a float 1.5"})
      EXPECT_NE(what.find(expected), std::string::npos) << expected << "\n" << what;
  }
}

TEST(AssignmentTestLab, CensusIsTakenInCorrectnessAndPerformanceTestsOnly) {
  write_file("lab.toml", lab_text);
  const std::string text = std::string(assignment_text) +
                           "\n[[test]]\nname = \"races\"\nkind = \"sanitizer\"\ntool = \"racecheck\"\npoints = 0\n";
  const assignment_file a = parse_assignment(write_file("f.toml", text));
  const lab_file base = parse_lab_file(write_file("lab.toml", lab_text));
  EXPECT_NE(measure_table(test_lab_text(a, a.tests[0], base, "student:copy")).find("census = true"), std::string::npos);
  EXPECT_NE(measure_table(test_lab_text(a, a.tests[1], base, "student:copy")).find("census = true"), std::string::npos);
  EXPECT_NE(measure_table(test_lab_text(a, a.tests[2], base, "student:copy")).find("census = false"),
            std::string::npos);
  assignment_file off = a;
  off.census.enabled = false;
  EXPECT_NE(measure_table(test_lab_text(off, off.tests[0], base, "student:copy")).find("census = false"),
            std::string::npos);
}

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
