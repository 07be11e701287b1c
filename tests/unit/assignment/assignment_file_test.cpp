// Assignment files' parsing and test lab files (CPU only), their integrity settings included: the [measure]
// keys a test's lab file turns on, the [anti_cheat] census keys and the [limits] of children.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include <filesystem>
#include <fstream>

#include "assignment/assignment_file.hpp"

namespace fs = std::filesystem;
using namespace cudalab::host;

namespace {
fs::path write_assignment(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "cudalab_assignment_file_test";
  fs::create_directories(dir);
  std::ofstream(dir / name) << text;
  return dir / name;
}

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
params = { block = 64 }
random = { n = { from = 1, to = "1Mi", count = 6, scale = "log" } }

[[test]]
name = "speed"
kind = "performance"
points = 6
requires = ["sizes"]
params = { n = "1Mi" }
zero_at = 10
full_at = 80
)";
}  // namespace

TEST(AssignmentFile, RandomAxesAreDrawnInRangeAndTheSameEveryTime) {
  const fs::path file = write_assignment("a.toml", assignment_text);
  const assignment_file a = parse_assignment(file), again = parse_assignment(file);
  ASSERT_EQ(a.tests.size(), 2u);
  EXPECT_TRUE(a.tests[0].sweep.empty());
  ASSERT_EQ(a.tests[0].drawn.size(), 1u);
  EXPECT_EQ(a.tests[0].drawn, again.tests[0].drawn);
  EXPECT_EQ(a.tests[0].sweep_lines(), a.tests[0].drawn);
  const std::string& line = a.tests[0].drawn[0];
  ASSERT_EQ(line.rfind("n = [", 0), 0u) << line;
  std::string list = line.substr(5, line.size() - 6);
  std::size_t values = 0;
  for (std::size_t at = 0; at < list.size();) {
    const std::size_t end = list.find(',', at);
    const long long v = std::stoll(list.substr(at, end - at));
    EXPECT_GE(v, 1);
    EXPECT_LE(v, 1 << 20);
    ++values;
    at = end == std::string::npos ? list.size() : end + 2;
  }
  EXPECT_GE(values, 1u);
  EXPECT_LE(values, 6u);
  EXPECT_NE(a.tests[0].random_text.find("values of n from 1 to 1048576 (log scale)"), std::string::npos);
  EXPECT_EQ(a.tests[1].requires, std::vector<std::string>{"sizes"});
}

// grade draws a hidden test again per student: other seeds give other values, within the axis's
// range; the file's own seed gives what check runs; the lab file gets the student's input seed.
TEST(AssignmentFile, RandomAxesAreDrawnAgainPerSeed) {
  const assignment_file a = parse_assignment(write_assignment("d.toml", assignment_text));
  const assignment_test& t = a.tests[0];
  EXPECT_EQ(draw_random_axes(t.random, default_draw_seed(a.id, t.name)), t.drawn);
  std::set<std::string> draws;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const std::vector<std::string> lines = draw_random_axes(t.random, seed);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines, draw_random_axes(t.random, seed)) << "the same seed draws the same values";
    draws.insert(lines[0]);
  }
  EXPECT_GE(draws.size(), 19u) << "20 seeds drew only " << draws.size() << " different sets";
  random_axis choices;
  choices.name = "block";
  choices.count = 50;
  choices.choices = {64, 128};
  EXPECT_EQ(draw_random_axes({choices}, 7), std::vector<std::string>{"block = [64, 128]"});
}

TEST(AssignmentFile, RoundsAreForPerformanceTestsAndAtMostMaxRounds) {
  std::string text = assignment_text;
  text += "rounds = 4\nmax_rounds = 8\n";
  const assignment_file a = parse_assignment(write_assignment("r.toml", text));
  EXPECT_EQ(a.tests[1].rounds, 4);
  EXPECT_EQ(a.tests[1].max_rounds, 8);
  EXPECT_EQ(a.tests[0].rounds, 3) << "the default";
  text = std::string(assignment_text) + "rounds = 5\nmax_rounds = 2\n";
  try {
    parse_assignment(write_assignment("r2.toml", text));
    FAIL() << "parsed";
  } catch (const cudalab::host::lab_file_error& e) {
    EXPECT_NE(std::string(e.what()).find("max_rounds (2) must be at least rounds (5)"), std::string::npos) << e.what();
  }
  text = assignment_text;
  text.replace(text.find("params = { block = 64 }"), 0, "rounds = 2\n");  // in the correctness test
  try {
    parse_assignment(write_assignment("r3.toml", text));
    FAIL() << "parsed";
  } catch (const cudalab::host::lab_file_error& e) {
    EXPECT_NE(std::string(e.what()).find("test.rounds is for performance tests"), std::string::npos) << e.what();
  }
}

TEST(AssignmentFile, EveryProblemIsLocated) {
  std::string text = assignment_text;
  text.replace(text.find("full_at = 80"), 12, "full_at = 5");
  text.replace(text.find("requires = [\"sizes\"]"), 20, "requires = [\"size\"]");
  text += "colour = \"red\"\n";
  try {
    parse_assignment(write_assignment("b.toml", text));
    FAIL() << "parsed";
  } catch (const cudalab::host::lab_file_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("zero_at (10) must be below full_at (5)"), std::string::npos) << what;
    EXPECT_NE(what.find("requires 'size', which is no test; did you mean 'sizes'?"), std::string::npos) << what;
    EXPECT_NE(what.find("b.toml:23:1: unknown key 'colour' in test"), std::string::npos) << what;
  }
}

// A kit's [build] flags reach nvcc and NVRTC: only an allow-list is read, each other flag refused where it
// is written, with the list in words (a wrapper through -Xcompiler, -o over a file, @file, -ccbin ...).
TEST(AssignmentFile, redteam26_f06_build_flags_are_allow_listed) {
  const std::string allowed = std::string(assignment_text) +
                              "\n[build]\nflags = [\"-O3\", \"-lineinfo\", \"-std=c++17\", \"-DTILE=32\", \"-DFAST\", "
                              "\"-maxrregcount=64\", \"--use_fast_math\", \"-G\", \"--ftz=true\", \"--fmad=false\", "
                              "\"--extra-device-vectorization\", \"--prec-div=true\", \"--prec-sqrt=false\"]\n";
  EXPECT_EQ(parse_assignment(write_assignment("flags_ok.toml", allowed)).flags.size(), 13u);
  const std::vector<std::string> refused = {"-Xcompiler=-wrapper,/tmp/x",
                                            "-ccbin=/tmp/evil",
                                            "-o",
                                            "--run",
                                            "-odir",
                                            "--keep",
                                            "@flags.txt",
                                            "-I/home",
                                            "-L/tmp",
                                            "-lssl",
                                            "-arch=sm_90",
                                            "-DX=$(id)",
                                            "-D1X",
                                            "-O3 -o /tmp/f",
                                            "-Xptxas=-v"};
  std::string text = std::string(assignment_text) + "\n[build]\nflags = [\n";
  for (const std::string& f : refused) text += "  \"" + f + "\",\n";
  text += "]\n";
  const int first_line = 1 + int(std::count(text.begin(), text.end(), '\n')) - int(refused.size()) - 1;
  try {
    parse_assignment(write_assignment("flags_bad.toml", text));
    FAIL() << "parsed";
  } catch (const lab_file_error& e) {
    const std::string what = e.what();
    for (std::size_t i = 0; i < refused.size(); ++i) {
      const std::string expected = "flags_bad.toml:" + std::to_string(first_line + int(i)) + ":3: build.flags: '" +
                                   refused[i] + "' is not an allowed compiler flag";
      EXPECT_NE(what.find(expected), std::string::npos) << expected << "\n" << what;
    }
    EXPECT_NE(what.find("allowed: -O0..-O3, -lineinfo"), std::string::npos) << what;
  }
}

// A test's name becomes file and folder names (tests/NAME.toml, perf-NAME-N/): like an id, 1 to 64 letters,
// digits, '-' and '_', checked where it is written; a [[hidden]] description's name too.
TEST(AssignmentFile, redteam26_f07_test_names_are_like_an_id) {
  std::string ok = assignment_text;
  ok.replace(ok.find("name = \"sizes\""), 14, "name = \"Sizes_2-" + std::string(56, 'x') + "\"");
  ok.replace(ok.find("requires = [\"sizes\"]"), 20, "requires = [\"Sizes_2-" + std::string(56, 'x') + "\"]");
  EXPECT_EQ(parse_assignment(write_assignment("names_ok.toml", ok)).tests.front().name.size(), 64u);
  for (const std::string& name :
       {std::string("../../.config/x"), std::string("a/b"), std::string("two words"), std::string("a\\nb"),
        std::string(""), std::string(65, 'n'), std::string(".hidden"), std::string("a;rm -rf x")}) {
    std::string text = assignment_text;
    text.replace(text.find("name = \"speed\""), 14, "name = \"" + name + "\"");
    try {
      parse_assignment(write_assignment("names_bad.toml", text));
      ADD_FAILURE() << "parsed a test called '" << name << "'";
    } catch (const lab_file_error& e) {
      const std::string what = e.what();
      const std::string expected =
          "names_bad.toml:16:8: test.name is 1 to 64 letters, digits, '-' and '_' (it names files and folders)";
      EXPECT_NE(what.find(expected), std::string::npos) << name << "\n" << what;
    }
  }
  std::string hidden =
      std::string(assignment_text) + "\n[[hidden]]\nname = \"../x\"\nkind = \"correctness\"\npoints = 0\n";
  try {
    parse_assignment(write_assignment("names_hidden.toml", hidden));
    FAIL() << "parsed a hidden test called '../x'";
  } catch (const lab_file_error& e) {
    EXPECT_NE(std::string(e.what()).find(":25:8: hidden.name is 1 to 64 letters"), std::string::npos) << e.what();
  }
}

namespace {

// The lab file assignment_text names, for the integrity settings: the [measure] keys its tests' lab files
// turn on, [anti_cheat]'s census keys, [limits].
const char* const lab_text = R"([lab]
plugin = "testlab"
variants = ["copy"]

[params]
n = 1000

[measure]
repetitions = 3
verify_after_timing = false
l2_flush = false
)";

// The lines of `text`'s [measure] table.
std::string measure_table(const std::string& text) { return text.substr(text.find("[measure]")); }

}  // namespace

TEST(AssignmentAntiCheat, CensusDefaults) {
  write_assignment("lab.toml", lab_text);
  const assignment_file a = parse_assignment(write_assignment("integrity_a.toml", assignment_text));
  EXPECT_TRUE(a.census.enabled);
  EXPECT_EQ(a.census.min_kernels, 1u);
  EXPECT_FALSE(a.census.max_kernels);
  EXPECT_EQ(a.census.deny, (std::vector<std::string>{"*cub::*", "*thrust::*", "*cublas*", "*cutlass*"}));
  EXPECT_EQ(a.census.stream, "session");
  EXPECT_EQ(a.census.host_copies, "deny");
}

TEST(AssignmentAntiCheat, CensusKeysAreRead) {
  write_assignment("lab.toml", lab_text);
  const std::string text = std::string(assignment_text) + R"(
[anti_cheat]
roofline_margin = 1.1
census = false
kernels = { min = 2, max = 8, deny = ["*cub::*", "*xmma*"] }
stream = "joined"
host_copies = "allow"
)";
  const assignment_file a = parse_assignment(write_assignment("integrity_b.toml", text));
  EXPECT_DOUBLE_EQ(a.roofline_margin, 1.1);
  EXPECT_FALSE(a.census.enabled);
  EXPECT_EQ(a.census.min_kernels, 2u);
  EXPECT_EQ(a.census.max_kernels, 8u);
  EXPECT_EQ(a.census.deny, (std::vector<std::string>{"*cub::*", "*xmma*"}));
  EXPECT_EQ(a.census.stream, "joined");
  EXPECT_EQ(a.census.host_copies, "allow");
}

TEST(AssignmentAntiCheat, BadCensusKeysAreLocated) {
  write_assignment("lab.toml", lab_text);
  const std::string text = std::string(assignment_text) + R"(
[anti_cheat]
census = "yes"
kernels = { min = -1, max = 0, deny = ["", 3], maxx = 2 }
stream = "sesion"
host_copies = "forbid"
)";
  try {
    parse_assignment(write_assignment("integrity_c.toml", text));
    FAIL() << "parsed";
  } catch (const lab_file_error& e) {
    const std::string what = e.what();
    for (const char* expected : {
             "integrity_c.toml:25:10: anti_cheat.census must be true or false, not a string",
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
    parse_assignment(write_assignment("integrity_d.toml", inverted));
    FAIL() << "parsed";
  } catch (const lab_file_error& e) {
    EXPECT_NE(std::string(e.what()).find("anti_cheat.kernels.max (2) must be at least kernels.min (5)"),
              std::string::npos)
        << e.what();
  }
  const std::string not_table = std::string(assignment_text) + "\n[anti_cheat]\nkernels = 3\n";
  EXPECT_THROW(parse_assignment(write_assignment("integrity_e.toml", not_table)), lab_file_error);
}

TEST(AssignmentLimits, TheChildrensLimitsAreReadAndChecked) {
  write_assignment("lab.toml", lab_text);
  const assignment_file none = parse_assignment(write_assignment("integrity_g.toml", assignment_text));
  EXPECT_EQ(none.max_processes, 0u);
  EXPECT_EQ(none.max_file_bytes, 0u);
  EXPECT_EQ(none.cpu_time_s, 0u);
  const std::string text =
      std::string(assignment_text) + "\n[limits]\nmax_processes = 256\nmax_file_bytes = \"64Mi\"\ncpu_time_s = 120\n";
  const assignment_file a = parse_assignment(write_assignment("integrity_h.toml", text));
  EXPECT_EQ(a.max_processes, 256u);
  EXPECT_EQ(a.max_file_bytes, 64u << 20);
  EXPECT_EQ(a.cpu_time_s, 120u);
  const std::string bad =
      std::string(assignment_text) + "\n[limits]\nmax_processes = -2\nmax_file_bytes = \"lots\"\ncpu_time_s = 1.5\n";
  try {
    parse_assignment(write_assignment("integrity_i.toml", bad));
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
  write_assignment("lab.toml", lab_text);
  const std::string text = std::string(assignment_text) +
                           "\n[[test]]\nname = \"races\"\nkind = \"sanitizer\"\ntool = \"racecheck\"\npoints = 0\n";
  const assignment_file a = parse_assignment(write_assignment("integrity_f.toml", text));
  const lab_file base = parse_lab_file(write_assignment("lab.toml", lab_text));
  EXPECT_NE(measure_table(test_lab_text(a, a.tests[0], base, "student:copy")).find("census = true"), std::string::npos);
  EXPECT_NE(measure_table(test_lab_text(a, a.tests[1], base, "student:copy")).find("census = true"), std::string::npos);
  EXPECT_NE(measure_table(test_lab_text(a, a.tests[2], base, "student:copy")).find("census = false"),
            std::string::npos);
  assignment_file off = a;
  off.census.enabled = false;
  EXPECT_NE(measure_table(test_lab_text(off, off.tests[0], base, "student:copy")).find("census = false"),
            std::string::npos);
}

// Issue 31, fair timing: every timed launch of a performance test starts with a cold L2 (persisting lines
// and the set-aside reset, then the flush) and from poisoned outputs, whatever the lab file says.
TEST(AssignmentTestLab, PerformanceTestsTimeEveryLaunchColdAndPoisoned) {
  write_assignment("lab.toml", lab_text);
  const assignment_file a = parse_assignment(write_assignment("integrity_c.toml", assignment_text));
  const lab_file base = parse_lab_file(write_assignment("lab.toml", lab_text));
  const std::string speed = measure_table(test_lab_text(a, a.tests[1], base, "student:copy"));
  EXPECT_NE(speed.find("l2_flush = true"), std::string::npos) << speed;
  EXPECT_EQ(speed.find("l2_flush = false"), std::string::npos) << speed;  // the lab file's is replaced
  EXPECT_NE(speed.find("poison_each_launch = true"), std::string::npos) << speed;
  const std::string sizes = measure_table(test_lab_text(a, a.tests[0], base, "student:copy"));
  EXPECT_EQ(sizes.find("poison_each_launch"), std::string::npos) << sizes;  // nothing is timed
}

// Issue 31: a performance test timed on the public seed's input (2026) rewards a submission that makes that
// input again, or keeps its answer; grade draws its inputs for the student, check (no secret) does not.
TEST(AssignmentTestLab, GradeDrawsHiddenAndPerformanceInputsForTheStudent) {
  write_assignment("lab.toml", lab_text);
  const assignment_file a = parse_assignment(write_assignment("integrity_a.toml", assignment_text));
  const lab_file base = parse_lab_file(write_assignment("lab.toml", lab_text));
  const assignment_test& sizes = a.tests[0];
  const assignment_test& speed = a.tests[1];
  ASSERT_EQ(speed.kind, test_kind::performance);
  EXPECT_TRUE(draws_for_student(speed, true));
  EXPECT_FALSE(draws_for_student(speed, false));
  EXPECT_FALSE(draws_for_student(sizes, true));
  assignment_test hidden = sizes;
  hidden.visibility = test_visibility::hidden;
  EXPECT_TRUE(draws_for_student(hidden, true));
  EXPECT_FALSE(draws_for_student(hidden, false));
  assignment_test drawn_axes = speed;
  drawn_axes.random.resize(1);
  EXPECT_FALSE(draws_for_student(drawn_axes, true)) << "its points are the visible ones";
  // Drawn, the performance test keeps its points and takes the student's seed.
  const std::string drawn = test_lab_text(a, speed, base, "student:copy", test_draw{7, 42});
  EXPECT_NE(measure_table(drawn).find("seed = 21"), std::string::npos) << drawn;
  const auto points = [](const std::string& text) {
    return text.substr(text.find("[params]"), text.find("[measure]") - text.find("[params]"));
  };
  EXPECT_EQ(points(drawn), points(test_lab_text(a, speed, base, "student:copy")));
}

TEST(AssignmentTestLab, PerformanceTestsVerifyAgainAfterTiming) {
  write_assignment("lab.toml", lab_text);
  const assignment_file a = parse_assignment(write_assignment("integrity_a.toml", assignment_text));
  const lab_file base = parse_lab_file(write_assignment("lab.toml", lab_text));
  const std::string speed = measure_table(test_lab_text(a, a.tests[1], base, "student:copy"));
  EXPECT_NE(speed.find("verify_after_timing = true"), std::string::npos) << speed;
  EXPECT_EQ(speed.find("verify_after_timing = false"), std::string::npos) << speed;  // the lab file's is replaced
  EXPECT_NE(speed.find("repetitions = 3"), std::string::npos) << speed;
  const std::string sizes = measure_table(test_lab_text(a, a.tests[0], base, "student:copy"));
  EXPECT_NE(sizes.find("timing = false"), std::string::npos) << sizes;
  EXPECT_EQ(sizes.find("verify_after_timing = true"), std::string::npos) << sizes;  // nothing timed to verify after
}
