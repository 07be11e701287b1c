// Lab-file parsing and validation against the test plugin: good files, every kind of bad one
// (each problem at its exact file:line:column), profiles, --set, sweeps and parse_size.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "labfile/lab_file.hpp"
#include "labfile/values.hpp"
#include "plugin/point_check.hpp"
#include "test_plugins.hpp"

namespace cudalab::host {
namespace {

std::string fixture(const std::string& name) {
  return (std::filesystem::path(CUDALAB_SOURCE_DIR) / "tests/fixtures/labs" / name).string();
}

const loaded_plugin& testlab() { return testing::load_test_plugin("testlab"); }

lab_plan plan_of(const std::string& name, const std::vector<std::string>& overrides = {},
                 const run_profile* profile = nullptr) {
  return validate_lab_file(parse_lab_file(fixture(name)), testlab().spec, check_params_of(testlab()), profile,
                           overrides);
}

// The problems parsing and validating a fixture reports; empty (and a failed test) if it passes.
std::vector<lab_problem> problems_of(const std::string& name, const std::vector<std::string>& overrides = {}) {
  try {
    plan_of(name, overrides);
  } catch (const lab_file_error& e) {
    return e.problems();
  }
  ADD_FAILURE() << name << " was accepted";
  return {};
}

// One problem expected: at fixture:line:column, its message containing every one of `words`.
void expect_problem(const lab_problem& p, const std::string& where, const std::vector<std::string>& words) {
  EXPECT_EQ(p.where.text(), where) << p.message;
  for (const std::string& w : words)
    EXPECT_NE(p.message.find(w), std::string::npos) << "'" << w << "' not in: " << p.message;
}

void expect_only_problem(const std::string& name, int line, int column, const std::vector<std::string>& words,
                         const std::vector<std::string>& overrides = {}) {
  const auto problems = problems_of(name, overrides);
  ASSERT_EQ(problems.size(), 1u) << (problems.empty() ? "" : lab_file_error(problems).what());
  expect_problem(problems[0], fixture(name) + ":" + std::to_string(line) + ":" + std::to_string(column), words);
}

std::string at(const std::string& name, int line, int column) {
  return fixture(name) + ":" + std::to_string(line) + ":" + std::to_string(column);
}

// ---- good files -------------------------------------------------------------------------------

// [lab] lesson (issue 34): "time" unless the file says its lesson is "traffic" (the plots then draw the
// model's totals); another word is refused at its value with the nearest one.
TEST(LabFile, TheLessonIsTimeUnlessTheFileSaysTraffic) {
  const auto plan_text = [](const std::string& lab_lines) {
    return validate_lab_file(parse_lab_text("[lab]\nplugin = \"testlab\"\n" + lab_lines, "lesson.toml"), testlab().spec,
                             check_params_of(testlab()), nullptr, {});
  };
  EXPECT_EQ(plan_text("").lesson, "time");
  EXPECT_EQ(plan_text("lesson = \"traffic\"\n").lesson, "traffic");
  try {
    plan_text("lesson = \"trafic\"\n");
    FAIL() << "lesson = \"trafic\" was accepted";
  } catch (const lab_file_error& e) {
    ASSERT_EQ(e.problems().size(), 1u) << e.what();
    expect_problem(e.problems()[0], "lesson.toml:3:10", {"lesson", "traffic"});
  }
}

TEST(LabFile, MinimalFileTakesTheDefaults) {
  const lab_plan plan = plan_of("good_minimal.toml");
  EXPECT_EQ(plan.plugin, "testlab");
  EXPECT_EQ(plan.variants, (std::vector<std::string>{"copy", "scale", "memcpy"}));
  EXPECT_EQ(plan.baseline, "memcpy");
  EXPECT_EQ(plan.point_count(), 1u);
  EXPECT_EQ(plan.base.integer("n"), 1 << 20);
  EXPECT_EQ(plan.base.choice("fill"), "random");
  EXPECT_TRUE(plan.point_labels(0).empty());
  EXPECT_EQ(plan.measure.repetitions, measure_settings{}.repetitions);
}

TEST(LabFile, SizesAndTypesAreConverted) {
  const lab_plan plan = plan_of("good_sizes.toml");
  EXPECT_EQ(plan.title, "Sizes");
  EXPECT_EQ(plan.base.integer("n"), std::int64_t(64) << 20);
  EXPECT_EQ(plan.base.integer("rounds"), 16);
  EXPECT_EQ(plan.base.integer("block"), 128);
  EXPECT_DOUBLE_EQ(plan.base.real("tolerance"), 0.0);  // an integer taken for a real
  EXPECT_TRUE(plan.base.boolean("skip_tail"));
  EXPECT_EQ(plan.base.choice("fill"), "ramp");
}

TEST(LabFile, InclusiveRange) {
  const lab_plan plan = plan_of("good_range.toml");
  ASSERT_EQ(plan.point_count(), 4u);
  EXPECT_EQ(plan.point(0).integer("block"), 64);
  EXPECT_EQ(plan.point(3).integer("block"), 256);
}

TEST(LabFile, SizesAreWrittenBackWithTheLargestBinarySuffix) {
  EXPECT_EQ(size_suffix_text(268435456), "256Mi");
  EXPECT_EQ(size_suffix_text(3072), "3Ki");
  EXPECT_EQ(size_suffix_text(std::int64_t(1) << 40), "1Ti");
  EXPECT_EQ(size_suffix_text(std::int64_t(1) << 60), "1048576Ti");  // no unit past Ti
  EXPECT_EQ(size_suffix_text(1000), "");
  EXPECT_EQ(size_suffix_text(1025), "");
  EXPECT_EQ(size_suffix_text(-1024), "");
  for (std::int64_t v : {std::int64_t(1024), std::int64_t(65536), std::int64_t(3) << 30})
    EXPECT_EQ(parse_size(size_suffix_text(v)), v);
}

TEST(LabFile, GeometricRangeWithSizes) {
  const lab_plan plan = plan_of("good_geometric.toml");
  ASSERT_EQ(plan.sweep.size(), 1u);
  std::vector<std::int64_t> n;
  for (std::uint64_t i = 0; i < plan.point_count(); ++i) n.push_back(plan.point(i).integer("n"));
  EXPECT_EQ(n, (std::vector<std::int64_t>{1024, 4096, 16384, 65536, 262144, 1048576}));
}

TEST(LabFile, RealRangeReachesItsEnd) {
  const lab_plan plan = plan_of("good_real_range.toml");
  ASSERT_EQ(plan.point_count(), 4u);
  EXPECT_DOUBLE_EQ(plan.point(3).real("tolerance"), 0.3);
}

TEST(LabFile, CartesianProductInWrittenOrderLastAxisFastest) {
  const lab_plan plan = plan_of("good_product.toml");
  ASSERT_EQ(plan.sweep.size(), 3u);
  EXPECT_EQ(plan.sweep[0].name, "rounds");  // as written, not alphabetical
  EXPECT_EQ(plan.sweep[1].name, "block");
  EXPECT_EQ(plan.sweep[2].name, "fill");
  ASSERT_EQ(plan.point_count(), 12u);
  const params p1 = plan.point(1);
  EXPECT_EQ(p1.integer("rounds"), 1);
  EXPECT_EQ(p1.integer("block"), 32);
  EXPECT_EQ(p1.choice("fill"), "ramp");
  const params p7 = plan.point(7);  // rounds index 1, block index 1, fill index 1
  EXPECT_EQ(p7.integer("rounds"), 2);
  EXPECT_EQ(p7.integer("block"), 64);
  EXPECT_EQ(p7.choice("fill"), "ramp");
  EXPECT_EQ(p7.integer("n"), 1024);  // fixed values carried into every point
  EXPECT_EQ(plan.point(11).integer("rounds"), 3);
  EXPECT_EQ(plan.variants, (std::vector<std::string>{"scale", "copy"}));
  EXPECT_EQ(plan.baseline, "copy");
}

TEST(LabFile, PointLabels) {
  const lab_plan plan = plan_of("good_product.toml");
  const auto labels = plan.point_labels(6);
  using label = std::pair<std::string, std::string>;
  EXPECT_EQ(labels, (std::vector<label>{{"rounds", "2"}, {"block", "64"}, {"fill", "random"}}));
}

// ---- profiles and precedence ---------------------------------------------------------------------

TEST(LabFile, ProfileIsRead) {
  const run_profile profile = parse_profile(fixture("profile_fast.toml"));
  EXPECT_EQ(profile.measure.repetitions, 3);
  EXPECT_TRUE(profile.measure.l2_flush);
  EXPECT_EQ(profile.output.format, output_format::json);
  EXPECT_EQ(profile.output.dir, "out/fast");
  std::vector<std::string> keys_set = profile.measure_set.names();
  std::sort(keys_set.begin(), keys_set.end());
  EXPECT_EQ(keys_set, (std::vector<std::string>{"l2_flush", "repetitions"}));
}

TEST(LabFile, PrecedenceDefaultsLabProfileSet) {
  const run_profile profile = parse_profile(fixture("profile_fast.toml"));
  const lab_plan plan = plan_of("good_measure.toml", {"measure.warmup_ms=1.5"}, &profile);
  EXPECT_EQ(plan.measure.repetitions, 3);            // lab 7 < profile 3
  EXPECT_TRUE(plan.measure.l2_flush);                // profile over the default
  EXPECT_EQ(plan.measure.seed, 99u);                 // the lab's; the profile does not set it
  EXPECT_DOUBLE_EQ(plan.measure.min_time_ms, 12.5);  // the lab's
  EXPECT_DOUBLE_EQ(plan.measure.warmup_ms, 1.5);     // --set over the lab's 3
  EXPECT_EQ(plan.measure.batch, 0);                  // the default
  const lab_plan over = plan_of("good_measure.toml", {"measure.repetitions=9"}, &profile);
  EXPECT_EQ(over.measure.repetitions, 9);  // --set over the profile
}

TEST(LabFile, BadProfileReportsEveryProblem) {
  const std::string file = fixture("bad_profile.toml");
  try {
    parse_profile(file);
    FAIL() << "accepted";
  } catch (const lab_file_error& e) {
    ASSERT_EQ(e.problems().size(), 3u) << e.what();
    expect_problem(e.problems()[0], file + ":3:1",
                   {"unknown key 'repetitons' in [measure]", "did you mean 'repetitions'?"});
    expect_problem(e.problems()[1], file + ":6:10", {"\"xml\"", "table, json, csv, md"});
    expect_problem(e.problems()[2], file + ":8:2", {"[outptu]", "did you mean [output]?"});
  }
}

TEST(LabFile, ShippedConfigsParse) {
  for (const char* name : {"quick", "default", "thorough", "verify"}) {
    const auto path = std::filesystem::path(CUDALAB_SOURCE_DIR) / "configs" / (std::string(name) + ".toml");
    EXPECT_NO_THROW(parse_profile(path)) << path;
  }
  const run_profile verify = parse_profile(std::filesystem::path(CUDALAB_SOURCE_DIR) / "configs/verify.toml");
  EXPECT_FALSE(verify.measure.timing);
  const run_profile defaults = parse_profile(std::filesystem::path(CUDALAB_SOURCE_DIR) / "configs/default.toml");
  const measure_settings d;
  EXPECT_EQ(defaults.measure.repetitions, d.repetitions);
  EXPECT_DOUBLE_EQ(defaults.measure.min_time_ms, d.min_time_ms);
  EXPECT_EQ(defaults.measure.seed, d.seed);
  EXPECT_EQ(defaults.measure.max_points, d.max_points);
}

// ---- --set ---------------------------------------------------------------------------------------

TEST(LabFile, SetParameterReplacesSweepAndFixedValue) {
  const lab_plan plan = plan_of("good_product.toml", {"block=128", "params.n=2Ki", "fill=ramp"});
  ASSERT_EQ(plan.sweep.size(), 1u);  // block and fill sweeps replaced; rounds remains
  EXPECT_EQ(plan.sweep[0].name, "rounds");
  EXPECT_EQ(plan.point_count(), 3u);
  EXPECT_EQ(plan.point(2).integer("block"), 128);
  EXPECT_EQ(plan.point(2).integer("n"), 2048);
  EXPECT_EQ(plan.point(2).choice("fill"), "ramp");  // a bare word taken as a string
}

TEST(LabFile, SetVariantsAsTomlArrayOrCommaList) {
  EXPECT_EQ(plan_of("good_minimal.toml", {"lab.variants=copy, memcpy"}).variants,
            (std::vector<std::string>{"copy", "memcpy"}));
  EXPECT_EQ(plan_of("good_minimal.toml", {"lab.variants=[\"scale\"]"}).variants, (std::vector<std::string>{"scale"}));
  EXPECT_EQ(plan_of("good_minimal.toml", {"lab.baseline=copy"}).baseline, "copy");
}

TEST(LabFile, SetSweepReplacesOrAddsAnAxis) {
  const lab_plan plan =
      plan_of("good_product.toml", {"sweep.block=[128, 256, 512]", "sweep.n={from=\"1Ki\", to=\"4Ki\", factor=2}"});
  ASSERT_EQ(plan.sweep.size(), 4u);
  EXPECT_EQ(plan.sweep[1].name, "block");  // replaced where it was
  EXPECT_EQ(plan.sweep[3].name, "n");      // added last, so fastest
  EXPECT_EQ(plan.point_count(), 3u * 3u * 2u * 3u);
  EXPECT_EQ(plan.point(2).integer("n"), 4096);
  EXPECT_EQ(plan.point(6).integer("block"), 256);
  const auto problems = problems_of("good_minimal.toml", {"sweep.n=[]"});
  ASSERT_EQ(problems.size(), 1u);
  expect_problem(problems[0], "--set sweep.n=[]", {"sweep of 'n' is empty"});
}

TEST(LabFile, EachAxisKeepsHowItWasWrittenForThePlots) {
  const lab_plan plan =
      plan_of("good_product.toml", {"sweep.block=[128, 256, 512]", "sweep.n={from=\"1Ki\", to=\"4Ki\", factor=2}",
                                    "sweep.rounds={from=1, to=3, step=1}"});
  for (const sweep_axis& axis : plan.sweep) {
    const sweep_spacing expected = axis.name == "n"        ? sweep_spacing::factor
                                   : axis.name == "rounds" ? sweep_spacing::step
                                                           : sweep_spacing::list;
    EXPECT_EQ(axis.spacing, expected) << axis.name;
  }
  EXPECT_STREQ(spacing_name(sweep_spacing::factor), "factor");
  // An axis replaced in place takes the spacing of its replacement.
  const lab_plan again = plan_of("good_product.toml", {"sweep.block={from=64, to=512, factor=2}"});
  const auto block =
      std::find_if(again.sweep.begin(), again.sweep.end(), [](const sweep_axis& a) { return a.name == "block"; });
  ASSERT_NE(block, again.sweep.end());
  EXPECT_EQ(block->spacing, sweep_spacing::factor);
}

TEST(LabFile, SetLaterOverrideWins) {
  EXPECT_EQ(plan_of("good_minimal.toml", {"rounds=3", "rounds=5"}).base.integer("rounds"), 5);
}

TEST(LabFile, SetUnknownKeySuggests) {
  const auto problems = problems_of("good_minimal.toml", {"mesure.repetitions=3"});
  ASSERT_EQ(problems.size(), 1u);
  expect_problem(problems[0], "--set mesure.repetitions=3",
                 {"unknown --set key 'mesure.repetitions'", "did you mean 'measure.repetitions'?"});
}

TEST(LabFile, SetBadValuesAreAllReported) {
  const auto problems = problems_of("good_minimal.toml",
                                    {"block=big", "measure.repetitions=-1", "lab.variants=copy,memcopy", "noequals"});
  ASSERT_EQ(problems.size(), 4u) << lab_file_error(problems).what();
  // In the order given on the command line.
  expect_problem(problems[0], "--set block=big", {"'block'", "\"big\" is not one"});
  expect_problem(problems[1], "--set measure.repetitions=-1", {"measure.repetitions", "out of range"});
  expect_problem(problems[2], "--set lab.variants=copy,memcopy",
                 {"unknown variant 'memcopy'", "did you mean 'memcpy'?"});
  expect_problem(problems[3], "--set noequals", {"expected KEY=VALUE"});
}

TEST(LabFile, SetOutOfRangeParameter) {
  const auto problems = problems_of("good_minimal.toml", {"params.block=4096"});
  ASSERT_EQ(problems.size(), 1u);
  expect_problem(problems[0], "--set params.block=4096", {"'block' = 4096 is out of range [32, 1024]"});
}

// ---- structure ---------------------------------------------------------------------------------

TEST(LabFile, SyntaxErrorCarriesTomlPosition) { expect_only_problem("bad_syntax.toml", 6, 4, {"TOML syntax error"}); }

TEST(LabFile, MissingLabTable) { expect_only_problem("bad_missing_lab.toml", 1, 1, {"missing [lab] table"}); }

TEST(LabFile, MissingPlugin) {
  expect_only_problem("bad_missing_plugin.toml", 2, 1, {"missing key 'plugin' in [lab]"});
}

TEST(LabFile, UnknownTableSuggests) {
  expect_only_problem("bad_unknown_table.toml", 5, 2, {"unknown table [parmas]", "did you mean [params]?"});
}

TEST(LabFile, UnknownLabKeySuggests) {
  expect_only_problem("bad_unknown_lab_key.toml", 4, 1,
                      {"unknown key 'varients' in [lab]", "did you mean 'variants'?"});
}

TEST(LabFile, UnknownMeasureKeySuggests) {
  expect_only_problem("bad_unknown_measure_key.toml", 6, 1,
                      {"unknown key 'repetitons' in [measure]; did you mean 'repetitions'?"});
}

TEST(LabFile, BadMeasureValues) {
  const auto problems = problems_of("bad_measure_value.toml");
  ASSERT_EQ(problems.size(), 2u);
  expect_problem(problems[0], at("bad_measure_value.toml", 6, 15), {"measure.repetitions = 0", "out of range"});
  expect_problem(problems[1], at("bad_measure_value.toml", 7, 12), {"measure.l2_flush", "boolean", "\"yes\""});
}

TEST(LabFile, KeyOutsideAnyTable) {
  const auto problems = problems_of("bad_top_level_key.toml");
  ASSERT_EQ(problems.size(), 2u);
  expect_problem(problems[0], at("bad_top_level_key.toml", 1, 1), {"'plugin' outside any table", "under [lab]"});
  expect_problem(problems[1], at("bad_top_level_key.toml", 3, 1), {"missing key 'plugin'"});
}

TEST(LabFile, StructuralProblemsReportedTogether) {
  const auto problems = problems_of("bad_multiple_structure.toml");
  ASSERT_EQ(problems.size(), 3u) << lab_file_error(problems).what();
  const std::string text = lab_file_error(problems).what();
  EXPECT_NE(
      text.find(at("bad_multiple_structure.toml", 4, 1) + ": unknown key 'titel' in [lab]; did you mean 'title'?"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find(at("bad_multiple_structure.toml", 7, 1) + ": unknown key 'repetitons'"), std::string::npos)
      << text;
  EXPECT_NE(text.find(at("bad_multiple_structure.toml", 9, 2) + ": unknown table [swep]; did you mean [sweep]?"),
            std::string::npos)
      << text;
}

TEST(LabFile, MissingFileIsAProblemNotACrash) {
  EXPECT_THROW(parse_lab_file(fixture("no_such_file.toml")), lab_file_error);
}

// ---- parameters ----------------------------------------------------------------------------------

TEST(LabFile, UnknownParamSuggests) {
  expect_only_problem("bad_unknown_param.toml", 6, 1,
                      {"unknown parameter 'blok' in [params]", "did you mean 'block'?"});
}

TEST(LabFile, UnknownSweepParamListsTheParameters) {
  expect_only_problem(
      "bad_unknown_sweep_param.toml", 6, 1,
      {"unknown parameter 'zzzzzz' in [sweep]", "testlab has: n, block, rounds, tolerance, skip_tail, fill"});
}

TEST(LabFile, StringForBoolean) {
  expect_only_problem("bad_type_boolean.toml", 6, 13, {"'skip_tail' is a boolean parameter", "a string \"yes\""});
}

TEST(LabFile, FloatForInteger) {
  expect_only_problem("bad_type_float.toml", 6, 9, {"'block' is an integer parameter", "a float 64.5"});
}

TEST(LabFile, UnknownChoiceSuggests) {
  expect_only_problem("bad_type_choice.toml", 6, 8,
                      {"'fill' must be one of \"random\", \"ramp\"", "did you mean \"ramp\"?"});
}

TEST(LabFile, BadSizeSuffix) {
  expect_only_problem("bad_size.toml", 6, 5, {"'n' must be an integer or a size", "\"64MB\" is not one"});
}

TEST(LabFile, OutOfRangeNamesTheRange) {
  expect_only_problem("bad_out_of_range.toml", 6, 9, {"'block' = 2048 is out of range [32, 1024]"});
}

TEST(LabFile, OutOfRangeSweepElement) {
  expect_only_problem("bad_out_of_range_sweep.toml", 6, 19, {"'tolerance' = 2.5 is out of range [0, 1]"});
}

// ---- sweeps --------------------------------------------------------------------------------------

TEST(LabFile, FixedAndSwept) {
  expect_only_problem("bad_fixed_and_swept.toml", 9, 1,
                      {"'n' is both fixed in [params] (line 6) and swept in [sweep]"});
}

TEST(LabFile, EmptySweep) { expect_only_problem("bad_empty_sweep.toml", 6, 5, {"sweep of 'n' is empty (0 points)"}); }

TEST(LabFile, StepZero) {
  expect_only_problem("bad_step_zero.toml", 6, 33, {"step must be a finite number greater than 0, not 0"});
}

TEST(LabFile, RangeRunsBackwards) {
  expect_only_problem("bad_from_above_to.toml", 6, 5, {"runs backwards", "from = 64", "to = 1"});
}

TEST(LabFile, FactorOne) { expect_only_problem("bad_factor_one.toml", 6, 37, {"factor must be greater than 1"}); }

TEST(LabFile, RangeKeysChecked) {
  const auto problems = problems_of("bad_range_keys.toml");
  ASSERT_GE(problems.size(), 3u) << lab_file_error(problems).what();
  const std::string text = lab_file_error(problems).what();
  EXPECT_NE(text.find("unknown key 'too' in the range of 'n'; did you mean 'to'?"), std::string::npos) << text;
  EXPECT_NE(text.find("exactly one of 'step'"), std::string::npos) << text;
  EXPECT_NE(text.find("has no 'to'"), std::string::npos) << text;
}

TEST(LabFile, SingleValueInSweep) {
  expect_only_problem("bad_sweep_scalar.toml", 6, 5, {"must be a list", "belongs in [params]"});
}

TEST(LabFile, TooManyPointsStatesTheCount) {
  expect_only_problem("bad_too_many_points.toml", 5, 1,
                      {"32000 points", "block: 32 x rounds: 1000", "max_points = 10000"});
}

TEST(LabFile, MaxPointsCanBeRaised) {
  EXPECT_EQ(plan_of("bad_too_many_points.toml", {"measure.max_points=40000"}).point_count(), 32000u);
}

TEST(LabFile, HugeRangeIsRefusedWithoutExpanding) {
  expect_only_problem("bad_huge_range.toml", 5, 1, {"17179869185 points", "max_points = 10000"});
}

// ---- zipped sweeps ([[sweep.zip]]) ----------------------------------------------------------------

TEST(ZippedSweep, AGroupMovesTogetherCrossedWithTheOtherAxes) {
  const lab_plan plan = plan_of("good_zip.toml");
  ASSERT_EQ(plan.sweep.size(), 3u);
  EXPECT_EQ(plan.sweep[0].name, "fill");
  EXPECT_EQ(plan.sweep[0].zip, 0);
  EXPECT_EQ(plan.sweep[1].name, "n");
  EXPECT_EQ(plan.sweep[2].name, "block");
  EXPECT_EQ(plan.sweep[1].zip, 1);
  EXPECT_EQ(plan.sweep[2].zip, 1);
  ASSERT_EQ(plan.dimensions().size(), 2u);
  EXPECT_EQ(plan.dimensions()[1].first, 1u);
  EXPECT_EQ(plan.dimensions()[1].last, 3u);
  ASSERT_EQ(plan.point_count(), 6u);  // 2 fills x 3 pairs, not 2 x 3 x 3
  using label = std::pair<std::string, std::string>;
  const std::vector<std::vector<label>> expected = {
      {{"fill", "random"}, {"n", "1000"}, {"block", "32"}},   {{"fill", "random"}, {"n", "4099"}, {"block", "128"}},
      {{"fill", "random"}, {"n", "65536"}, {"block", "256"}}, {{"fill", "ramp"}, {"n", "1000"}, {"block", "32"}},
      {{"fill", "ramp"}, {"n", "4099"}, {"block", "128"}},    {{"fill", "ramp"}, {"n", "65536"}, {"block", "256"}}};
  for (std::uint64_t i = 0; i < plan.point_count(); ++i) {
    EXPECT_EQ(plan.point_labels(i), expected[i]) << i;
    const params p = plan.point(i);
    EXPECT_EQ(p.choice("fill"), expected[i][0].second);
    EXPECT_EQ(std::to_string(p.integer("n")), expected[i][1].second);
    EXPECT_EQ(std::to_string(p.integer("block")), expected[i][2].second);
    EXPECT_EQ(p.integer("rounds"), 2);  // fixed values carried into every point
  }
}

TEST(ZippedSweep, InlineGroupsKeepTheirPlaceAndTheirAxesMayRepeatValues) {
  const lab_plan plan = plan_of("good_zip_inline.toml");
  std::vector<std::string> names;
  std::vector<int> zips;
  for (const sweep_axis& a : plan.sweep) {
    names.push_back(a.name);
    zips.push_back(a.zip);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"n", "block", "rounds", "fill", "tolerance"}));
  EXPECT_EQ(zips, (std::vector<int>{0, 1, 1, 2, 2}));
  ASSERT_EQ(plan.point_count(), 12u);  // 2 x 3 shapes x 2
  EXPECT_EQ(labels_text(plan.point_labels(0)), "n=1000 block=32 rounds=1 fill=random tolerance=0");
  EXPECT_EQ(labels_text(plan.point_labels(1)), "n=1000 block=32 rounds=1 fill=ramp tolerance=0.5");
  EXPECT_EQ(labels_text(plan.point_labels(2)), "n=1000 block=32 rounds=8 fill=random tolerance=0");
  EXPECT_EQ(labels_text(plan.point_labels(5)), "n=1000 block=128 rounds=8 fill=ramp tolerance=0.5");
  EXPECT_EQ(labels_text(plan.point_labels(11)), "n=2000 block=128 rounds=8 fill=ramp tolerance=0.5");
  EXPECT_DOUBLE_EQ(plan.point(11).real("tolerance"), 0.5);
  EXPECT_EQ(plan.point(11).integer("rounds"), 8);
}

TEST(ZippedSweep, UnequalLengthsBlameTheAxisThatDiffers) {
  expect_only_problem("bad_zip_unequal.toml", 7, 1,
                      {"'block' has 2 values and 'n', zipped with it, has 3: the parameters of a [[sweep.zip]] group "
                       "move together, so each needs as many values"});
}

TEST(ZippedSweep, AParameterHasOneAxis) {
  expect_only_problem("bad_zip_swept_twice.toml", 10, 1,
                      {"parameter 'block' is swept twice: already at line 6; a parameter has one axis, on its own or "
                       "in one [[sweep.zip]] group"});
  expect_only_problem("bad_zip_in_two_groups.toml", 11, 1, {"parameter 'n' is swept twice: already at line 6"});
  expect_only_problem("bad_zip_fixed.toml", 9, 1,
                      {"parameter 'n' is both fixed in [params] (line 6) and swept in [[sweep.zip]]; keep one"});
}

TEST(ZippedSweep, UnknownParameterSuggests) {
  expect_only_problem("bad_zip_unknown_param.toml", 7, 1,
                      {"unknown parameter 'blok' in [[sweep.zip]]; did you mean 'block'?"});
}

TEST(ZippedSweep, EmptyGroup) {
  expect_only_problem("bad_zip_empty_group.toml", 5, 1,
                      {"an empty [[sweep.zip]] group: list the parameters that move together, each with its values"});
}

TEST(ZippedSweep, BadValueIsLocatedInItsList) {
  expect_only_problem("bad_zip_value.toml", 7, 14,
                      {"in the sweep of 'block': 'block' = 2048 is out of range [32, 1024]"});
}

TEST(ZippedSweep, ZipHoldsGroupsOnly) {
  expect_only_problem("bad_zip_not_tables.toml", 6, 7,
                      {"sweep.zip must be [[sweep.zip]] tables, one per group of parameters that move together, "
                       "not an array"});
}

TEST(ZippedSweep, APointRunsOnce) {
  expect_only_problem("bad_zip_repeated_point.toml", 5, 1,
                      {"the point block=32 rounds=1 comes twice in this [[sweep.zip]] group (its values 1 and 3): a "
                       "point runs once"});
}

TEST(ZippedSweep, SetKeepsAZippedAxisInItsGroup) {
  const lab_plan replaced = plan_of("good_zip.toml", {"sweep.block=[64, 128, 512]"});
  ASSERT_EQ(replaced.point_count(), 6u);
  EXPECT_EQ(replaced.sweep[2].zip, 1);
  EXPECT_EQ(labels_text(replaced.point_labels(2)), "fill=random n=65536 block=512");
  const auto problems = problems_of("good_zip.toml", {"sweep.block=[64, 128]"});
  ASSERT_EQ(problems.size(), 1u) << lab_file_error(problems).what();
  expect_problem(problems[0], "--set sweep.block=[64, 128]", {"'block' has 2 values and 'n', zipped with it, has 3"});
  // Fixing one axis of a group leaves the others moving together.
  const lab_plan fixed = plan_of("good_zip.toml", {"block=64"});
  ASSERT_EQ(fixed.point_count(), 6u);
  EXPECT_EQ(labels_text(fixed.point_labels(4)), "fill=ramp n=4099");
  EXPECT_EQ(fixed.point(4).integer("block"), 64);
  // The group's points are checked once the overrides are in: here two become one.
  const auto twice = problems_of("good_zip.toml", {"sweep.block=[32, 32, 32]", "sweep.n=[1000, 1000, 4099]"});
  ASSERT_EQ(twice.size(), 1u) << lab_file_error(twice).what();
  expect_problem(twice[0], at("good_zip.toml", 12, 1), {"the point n=1000 block=32 comes twice"});
}

TEST(ZippedSweep, TooManyPointsCountsAGroupOnce) {
  const auto problems = problems_of("good_zip.toml", {"measure.max_points=5"});
  ASSERT_EQ(problems.size(), 1u) << lab_file_error(problems).what();
  expect_problem(problems[0], at("good_zip.toml", 9, 1),
                 {"the sweep has 6 points (fill: 2 x n with block: 3), more than measure.max_points = 5"});
}

// ---- variants ------------------------------------------------------------------------------------

TEST(LabFile, UnknownVariantSuggests) {
  expect_only_problem("bad_unknown_variant.toml", 4, 21, {"unknown variant 'scael'", "did you mean 'scale'?"});
}

TEST(LabFile, UnknownBaselineSuggests) {
  expect_only_problem("bad_unknown_baseline.toml", 4, 12,
                      {"unknown baseline variant 'memcopy'", "did you mean 'memcpy'?"});
}

// ---- the plugin's own checks ---------------------------------------------------------------------

TEST(LabFile, CheckParamsRejectsASweepPoint) {
  expect_only_problem("bad_check_params_sweep.toml", 8, 1,
                      {"testlab rejects the point block=48", "block must be a multiple of 32"});
}

TEST(LabFile, CheckParamsRejectsFixedValues) {
  expect_only_problem("bad_check_params_fixed.toml", 5, 1, {"rejects the point block=80", "multiple of 32"});
}

TEST(LabFile, CheckParamsRejectionsAreCapped) {
  const auto problems = problems_of("bad_check_params_many.toml");
  ASSERT_EQ(problems.size(), 11u);  // ten points shown, then a count of the rest
  expect_problem(problems[0], at("bad_check_params_many.toml", 5, 1), {"rejects the point block=33"});
  expect_problem(problems[10], at("bad_check_params_many.toml", 5, 1), {"and 951 more points rejected (961 of 992)"});
}

// ---- several problems at once --------------------------------------------------------------------

TEST(LabFile, EveryProblemReportedInFileOrder) {
  const auto problems = problems_of("bad_multiple.toml");
  ASSERT_EQ(problems.size(), 4u) << lab_file_error(problems).what();
  expect_problem(problems[0], at("bad_multiple.toml", 4, 21), {"unknown variant 'copi'", "did you mean 'copy'?"});
  expect_problem(problems[1], at("bad_multiple.toml", 7, 1), {"unknown parameter 'blok'"});
  expect_problem(problems[2], at("bad_multiple.toml", 8, 5), {"'n' = -5 is out of range"});
  expect_problem(problems[3], at("bad_multiple.toml", 11, 17), {"\"zeros\" is not one"});
  const std::string what = lab_file_error(problems).what();
  EXPECT_EQ(what.rfind(at("bad_multiple.toml", 4, 21) + ": unknown variant", 0), 0u) << what;
  EXPECT_EQ(std::count(what.begin(), what.end(), '\n'), 3);
}

// ---- sizes, names, values ------------------------------------------------------------------------

TEST(ParseSize, SuffixesAndPowers) {
  EXPECT_EQ(parse_size("1024"), 1024);
  EXPECT_EQ(parse_size("64Ki"), 65536);
  EXPECT_EQ(parse_size("256Mi"), std::int64_t(256) << 20);
  EXPECT_EQ(parse_size("1Gi"), std::int64_t(1) << 30);
  EXPECT_EQ(parse_size("1K"), 1000);
  EXPECT_EQ(parse_size("1M"), 1000000);
  EXPECT_EQ(parse_size("1G"), 1000000000);
  EXPECT_EQ(parse_size("2^28"), std::int64_t(1) << 28);
  EXPECT_EQ(parse_size("0"), 0);
  EXPECT_EQ(parse_size("2^62"), std::int64_t(1) << 62);
  EXPECT_EQ(parse_size("9223372036854775807"), INT64_MAX);
}

TEST(ParseSize, RejectsNegativeFractionalOverflowAndJunk) {
  EXPECT_EQ(parse_size("-1"), std::nullopt);
  EXPECT_EQ(parse_size("1.5Mi"), std::nullopt);
  EXPECT_EQ(parse_size("2^63"), std::nullopt);
  EXPECT_EQ(parse_size("9223372036854775808"), std::nullopt);
  EXPECT_EQ(parse_size("8589934592Gi"), std::nullopt);  // 2^33 * 2^30
  EXPECT_EQ(parse_size("64MB"), std::nullopt);
  EXPECT_EQ(parse_size(""), std::nullopt);
  EXPECT_EQ(parse_size("Mi"), std::nullopt);
  EXPECT_EQ(parse_size("2^"), std::nullopt);
  EXPECT_EQ(parse_size("ki"), std::nullopt);
}

TEST(NearestName, TyposAndStrangers) {
  const std::vector<std::string> names = {"repetitions", "min_time_ms", "warmup_ms", "seed"};
  EXPECT_EQ(nearest_name("repetitons", names), "repetitions");
  EXPECT_EQ(nearest_name("warmpu_ms", names), "warmup_ms");  // a swap of neighbours
  EXPECT_EQ(nearest_name("SEED", names), "seed");
  EXPECT_EQ(nearest_name("colour", names), std::nullopt);
}

TEST(ValueText, EachType) {
  EXPECT_EQ(value_text(param_value(std::int64_t(268435456))), "268435456");
  EXPECT_EQ(value_text(param_value(0.5)), "0.5");
  EXPECT_EQ(value_text(param_value(0.1 + 0.2)), "0.30000000000000004");
  EXPECT_EQ(value_text(param_value(true)), "true");
  EXPECT_EQ(value_text(param_value(std::string("random"))), "random");
}

TEST(SourceLocation, Text) {
  EXPECT_EQ((source_location{"a.toml", 3, 7}.text()), "a.toml:3:7");
  EXPECT_EQ((source_location{"a.toml", 3, 0}.text()), "a.toml:3");
  EXPECT_EQ((source_location{"--set n=1", 0, 0}.text()), "--set n=1");
}

// ---- the red-team review of 2026-11-23: one test or more per finding, named after it ------------------

TEST(LabFile, redteam_f08_min_time_zero) {  // Google Benchmark aborts on a minimum time of 0
  expect_only_problem("bad_min_time_zero.toml", 6, 15,
                      {"measure.min_time_ms = 0 is out of range (0, 10000] (milliseconds)"});
  const auto problems = problems_of("good_minimal.toml", {"measure.min_time_ms=0"});
  ASSERT_EQ(problems.size(), 1u);
  expect_problem(problems[0], "--set measure.min_time_ms=0", {"measure.min_time_ms = 0 is out of range"});
  EXPECT_EQ(plan_of("good_minimal.toml", {"measure.min_time_ms=0.001"}).measure.min_time_ms, 0.001);
}

TEST(LabFile, redteam_f10_timing_bounds) {  // inf or 1e300 ms: a run that never ends
  const auto problems = problems_of("bad_measure_times.toml");
  ASSERT_EQ(problems.size(), 2u) << lab_file_error(problems).what();
  expect_problem(problems[0], at("bad_measure_times.toml", 6, 15),
                 {"measure.min_time_ms = inf is not a finite number of milliseconds"});
  expect_problem(problems[1], at("bad_measure_times.toml", 7, 13),
                 {"measure.warmup_ms = 1e+300 is out of range [0, 10000] (milliseconds)"});
  const std::vector<std::string> absurd = {"measure.min_time_ms=nan", "measure.min_time_ms=10000.5",
                                           "measure.warmup_ms=-inf", "measure.repetitions=10001"};
  const auto set_problems = problems_of("good_minimal.toml", absurd);
  ASSERT_EQ(set_problems.size(), 4u) << lab_file_error(set_problems).what();
  expect_problem(set_problems[0], "--set measure.min_time_ms=nan", {"not a finite number"});
  expect_problem(set_problems[1], "--set measure.min_time_ms=10000.5", {"out of range (0, 10000] (milliseconds)"});
  expect_problem(set_problems[2], "--set measure.warmup_ms=-inf", {"not a finite number"});
  expect_problem(set_problems[3], "--set measure.repetitions=10001", {"out of range [1, 10000]"});
  const lab_plan longest = plan_of(
      "good_minimal.toml", {"measure.min_time_ms=10000", "measure.warmup_ms=10000", "measure.repetitions=10000"});
  EXPECT_EQ(longest.measure.min_time_ms, 10000.0);
  EXPECT_EQ(longest.measure.warmup_ms, 10000.0);
  EXPECT_EQ(longest.measure.repetitions, 10000);
}

TEST(LabFile, redteam_f09_nan_step) {  // a NaN step once expanded the range until memory ran out
  const auto problems = problems_of("good_minimal.toml", {"sweep.tolerance={from=0.0,to=1.0,step=nan}"});
  ASSERT_EQ(problems.size(), 1u) << lab_file_error(problems).what();
  expect_problem(problems[0], "--set sweep.tolerance={from=0.0,to=1.0,step=nan}",
                 {"the range of 'tolerance': step must be a finite number greater than 0, not nan"});
}

TEST(LabFile, redteam_f19_real_not_finite) {  // NaN or inf for a real parameter, anywhere one is read
  expect_only_problem("bad_real_nan.toml", 6, 13, {"'tolerance' = nan is not a finite number"});
  expect_only_problem("bad_real_step_inf.toml", 6, 44, {"step must be a finite number greater than 0, not inf"});
  const auto problems = problems_of("good_minimal.toml", {"tolerance=-nan", "sweep.tolerance=[0.5, inf]",
                                                          "sweep.tolerance={from=0.0,to=inf,step=0.5}"});
  ASSERT_EQ(problems.size(), 3u) << lab_file_error(problems).what();
  for (const lab_problem& p : problems)
    EXPECT_NE(p.message.find("is not a finite number"), std::string::npos) << p.message;
}

TEST(NearestName, redteam_f15_long_words_bounded) {  // a 10 MB key once cost 1.2 GB of edit-distance table
  const std::string long_name(300, 'a');
  EXPECT_EQ(nearest_name(long_name + "b", {long_name}), std::nullopt);  // too long to be a typo worth naming
  // NOLINTNEXTLINE(bugprone-string-constructor): a 10 MB name, on purpose
  EXPECT_EQ(nearest_name(std::string(10000000, 'k'), {"n", "block", "tolerance"}), std::nullopt);
  EXPECT_EQ(nearest_name("tolerence", {"n", "block", "tolerance"}), "tolerance");
}

TEST(LabFileError, redteam_f15_long_lines_are_cut) {  // and the 10 MB key was echoed in full
  std::string name;
  for (int i = 0; i < 5000; ++i) name += "\xC3\xA9";  // é, two bytes: never cut in half
  lab_problem problem;                                // built step by step: g++ 12 warns falsely on the nested braces
  problem.where = {"a.toml", 4, 1};
  problem.message = "unknown parameter '" + name + "' in [params]";
  const std::string what = lab_file_error({problem}).what();
  EXPECT_LT(what.size(), 1100u);
  EXPECT_EQ(what.rfind("a.toml:4:1: unknown parameter '\xC3\xA9", 0), 0u);
  EXPECT_NE(what.find("\xC3\xA9 … (9"), std::string::npos) << what;
  EXPECT_NE(what.find(" bytes left out) … \xC3\xA9"), std::string::npos) << what;
  EXPECT_EQ(what.substr(what.size() - 13), "' in [params]");
}

TEST(LabFileError, redteam_f41_problems_capped_per_file) {  // 200000 unknown keys once printed 200000 lines
  auto unknown_key = [](const std::string& file, int line) {
    lab_problem p;  // built step by step: g++ 12 warns falsely on the nested braces
    p.where = {file, line, 1};
    p.message = "unknown key";
    return p;
  };
  std::vector<lab_problem> problems;
  for (int line = 1; line <= 60; ++line) problems.push_back(unknown_key("a.toml", line));
  problems.push_back(unknown_key("b.toml", 3));
  const std::string what = lab_file_error(problems).what();
  EXPECT_EQ(std::count(what.begin(), what.end(), '\n'), 51);  // 50 of a.toml, its count, b.toml's
  EXPECT_NE(what.find("a.toml:50:1: unknown key\na.toml: … and 10 more problems (60 in all)\nb.toml:3:1: unknown key"),
            std::string::npos)
      << what;
  EXPECT_EQ(what.find("a.toml:51:1"), std::string::npos);
}

TEST(LabFile, redteam_f29_utf8_bom_is_accepted) {  // as some Windows editors write it
  const std::string bom = "\xEF\xBB\xBF";
  const lab_file parsed = parse_lab_text(bom + "[lab]\nplugin = \"testlab\"\n", "bom.toml");
  EXPECT_EQ(parsed.plugin, "testlab");
  EXPECT_EQ(parsed.plugin_where.text(), "bom.toml:2:10");
  try {
    parse_lab_text(bom + "[lab]\nplugin = \"testlab\"\n[parms]\n", "bom.toml");
    ADD_FAILURE() << "[parms] was accepted";
  } catch (const lab_file_error& e) {
    ASSERT_EQ(e.problems().size(), 1u) << e.what();
    EXPECT_EQ(e.problems()[0].where.text(), "bom.toml:3:2") << e.what();
  }
}

TEST(LabFile, redteam_f35_values_shown_as_written) {
  expect_only_problem("bad_type_whole_float.toml", 6, 5, {"'n' is an integer parameter, not a float 64.0"});
  expect_only_problem("bad_size_overflow.toml", 6, 5,
                      {"'n' = \"2^63\" overflows a signed 64-bit integer (at most 9223372036854775807)"});
  const auto problems = problems_of("good_minimal.toml", {"n=-3.0", "block=1e3", "rounds=\"16Ei\""});
  ASSERT_EQ(problems.size(), 3u) << lab_file_error(problems).what();
  expect_problem(problems[0], "--set n=-3.0", {"not a float -3.0"});
  expect_problem(problems[1], "--set block=1e3", {"not a float 1000.0"});
  expect_problem(problems[2], "--set rounds=\"16Ei\"", {"\"16Ei\" is not one"});  // no such suffix: junk
  EXPECT_TRUE(size_overflows("9223372036854775808"));
  EXPECT_TRUE(size_overflows("8589934592Gi"));
  EXPECT_FALSE(size_overflows("2^62"));
  EXPECT_FALSE(size_overflows("64MB"));
}

TEST(LabFile, redteam_f31_duplicate_variant_blames_where_it_is_listed) {
  expect_only_problem("bad_duplicate_variant.toml", 4, 31, {"variant 'copy' is listed twice in lab.variants"});
  const auto problems = problems_of("good_minimal.toml", {"lab.variants=copy,copy"});
  ASSERT_EQ(problems.size(), 1u) << lab_file_error(problems).what();
  expect_problem(problems[0], "--set lab.variants=copy,copy", {"variant 'copy' is listed twice in lab.variants"});
}

TEST(LabFile, redteam_f38_empty_baseline) {  // once: the baseline silently off
  expect_only_problem("bad_empty_baseline.toml", 4, 12,
                      {"lab.baseline is empty; name one of testlab's variants, or leave lab.baseline out"});
  for (const std::string set : {"lab.baseline=", "lab.baseline=\"\""}) {
    const auto problems = problems_of("good_minimal.toml", {set});
    ASSERT_EQ(problems.size(), 1u) << lab_file_error(problems).what();
    expect_problem(problems[0], "--set " + set, {"lab.baseline is empty"});
  }
}

TEST(LabFile, redteam_f20_sweep_of_every_int64_is_not_zero_points) {  // its count once wrapped to 0
  lab_spec spec;
  spec.name = "widelab";
  param_spec k = param_spec::integer("k", 0, 0, 0, "", "any integer");
  k.min.reset();
  k.max.reset();
  spec.params = {k};
  spec.variants = {{"only", "the one variant"}};
  const lab_file parsed = parse_lab_text(
      "[lab]\nplugin = \"widelab\"\n[sweep]\n"
      "k = { from = -9223372036854775808, to = 9223372036854775807, step = 1 }\n",
      "wide.toml");
  try {
    validate_lab_file(parsed, spec, [](const params&) { return std::string(); }, nullptr, {});
    ADD_FAILURE() << "a sweep of 2^64 points was accepted";
  } catch (const lab_file_error& e) {
    ASSERT_EQ(e.problems().size(), 1u) << e.what();
    expect_problem(e.problems()[0], "wide.toml:3:1", {"the sweep has 2^64 or more points (k: 2^64 or more)"});
  }
}

}  // namespace
}  // namespace cudalab::host
