// Reading a run's results back: a folder's results.json, else its results.jsonl (a run cut short:
// its unfinished last line left out), either file named directly; anything else refused, naming the
// file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>

#include "results/json.hpp"
#include "results/result_set.hpp"

namespace cudalab::host {
namespace {

namespace fs = std::filesystem;
const fs::path fixtures = fs::path(CUDALAB_SOURCE_DIR) / "tests" / "fixtures" / "compare";

// A scratch folder of the test's own, empty.
fs::path scratch(const std::string& name) {
  fs::path dir = fs::path(CUDALAB_BINARY_DIR) / "tests" / "compare_result_set" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string refusal(const fs::path& path) {
  try {
    read_result_set(path);
  } catch (const result_set_error& e) {
    return e.what();
  }
  return "(read without an error)";
}

TEST(CompareResultSet, AFolderItsResultsJson) {
  const result_set set = read_result_set(fixtures / "base");
  EXPECT_EQ(set.file, fixtures / "base" / "results.json");
  EXPECT_EQ(set.context.started_at, "2026-11-22T12:00:00Z");
  ASSERT_EQ(set.results.size(), 10u);
  EXPECT_EQ(set.results[0].time.repetition_ms.size(), 10u);
  EXPECT_TRUE(set.results[5].time.repetition_ms.empty());  // written without repetition_ms, as before it was kept
  EXPECT_EQ(read_result_set(fixtures / "base" / "results.json").results.size(), 10u);
}

TEST(CompareResultSet, AnInterruptedRunItsResultsJsonl) {
  const result_set set = read_result_set(fixtures / "interrupted");
  EXPECT_EQ(set.file, fixtures / "interrupted" / "results.jsonl");
  EXPECT_EQ(set.context.started_at, "2026-11-22T12:00:00Z");
  EXPECT_EQ(set.results.size(), 4u);  // the fifth line was cut short
  EXPECT_EQ(read_result_set(fixtures / "interrupted" / "results.jsonl").results.size(), 4u);
}

TEST(CompareResultSet, ABrokenLineBeforeTheLastIsRefused) {
  const fs::path dir = scratch("broken_line");
  std::ifstream in(fixtures / "interrupted" / "results.jsonl");
  std::string context, first;
  std::getline(in, context);
  std::getline(in, first);
  std::ofstream(dir / "results.jsonl") << context << "\n{\"lab_file\": 3}\n" << first << "\n";
  EXPECT_NE(refusal(dir).find("results.jsonl:2: not a cudalab result line"), std::string::npos) << refusal(dir);
}

TEST(CompareResultSet, WhatIsNotResultsIsRefusedNamingTheFile) {
  EXPECT_NE(refusal(fixtures).find("compare: not a results folder (it has no results.json or results.jsonl)"),
            std::string::npos);
  EXPECT_NE(refusal(fixtures / "broken").find("broken/results.json: not a cudalab results.json: "), std::string::npos);
  EXPECT_NE(refusal(fixtures / "nothing_here").find("nothing_here: no such file or folder"), std::string::npos);
  EXPECT_NE(refusal("/dev/null").find("/dev/null: not a regular file"), std::string::npos);
  const fs::path dir = scratch("not_results");
  std::ofstream(dir / "results.json") << "{\"context\": {}, \"results\": []}";
  EXPECT_NE(refusal(dir).find("results.json: not a cudalab results.json: "), std::string::npos) << refusal(dir);
  std::ofstream(dir / "empty.jsonl") << "";
  EXPECT_NE(refusal(dir / "empty.jsonl").find("empty.jsonl: no context: neither a context line nor a context.json"),
            std::string::npos);
}

// Schema 2: results.jsonl holds results only; the context is the context.json beside it.
TEST(CompareResultSet, ASchemaTwoJsonlTakesItsContextFromContextJson) {
  const fs::path dir = scratch("schema_two");
  std::ifstream in(fixtures / "interrupted" / "results.jsonl");
  std::string context_line, line, results;
  std::getline(in, context_line);
  for (int i = 0; i < 3 && std::getline(in, line); ++i) results += line + "\n";
  std::ofstream(dir / "results.jsonl") << results;
  const run_context c = parse_results_line(context_line).context;
  std::ofstream(dir / "context.json") << context_json(c, 2) << "\n";
  const result_set set = read_result_set(dir / "results.jsonl");
  EXPECT_EQ(set.context.started_at, "2026-11-22T12:00:00Z");
  EXPECT_EQ(set.results.size(), 3u);
}

TEST(CompareResultSet, ANewerSchemaIsRefused) {
  const fs::path dir = scratch("newer_schema");
  std::ifstream in(fixtures / "base" / "results.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  text.replace(text.find("\"schema_version\": 1"), 19, "\"schema_version\": 9");
  std::ofstream(dir / "results.json") << text;
  EXPECT_NE(refusal(dir).find("written with results schema_version 9, newer than this cudalab's " +
                              std::to_string(results_schema_version)),
            std::string::npos)
      << refusal(dir);
}

// A results file over the cap is refused before it is read (a sparse file: nothing is allocated for it),
// and so is a context.json beside a results.jsonl.
TEST(CompareResultSet, redteam26_f27_a_huge_results_file_is_refused) {
  const fs::path dir = scratch("huge");
  std::ofstream(dir / "results.json") << "{";
  fs::resize_file(dir / "results.json", max_results_file_bytes + 1);
  EXPECT_NE(refusal(dir).find("results.json: larger than the 256 MiB cudalab reads as results"), std::string::npos)
      << refusal(dir);
  const fs::path jsonl = scratch("huge_context");
  std::ofstream(jsonl / "results.jsonl") << "";
  std::ofstream(jsonl / "context.json") << "{";
  fs::resize_file(jsonl / "context.json", max_results_file_bytes + 1);
  EXPECT_NE(refusal(jsonl).find("context.json: larger than the 256 MiB"), std::string::npos) << refusal(jsonl);
}

// A timed result whose time is zero, negative, not a number or infinite is no measurement: compare and
// export refuse the file (exit 3), naming the result and the value.
TEST(CompareResultSet, redteam26_f31_absurd_times_are_refused) {
  std::ifstream in(fixtures / "base" / "results.json");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NO_THROW(check_result_times(read_result_set(fixtures / "base")));
  const std::string median = "\"median_ms\": 0.0027", repetition = "0.00271,";
  for (const auto& [from, to, says] :
       {std::tuple{median, "\"median_ms\": 0", "timing.median_ms = 0 is no time"},
        std::tuple{median, "\"median_ms\": -2.5", "timing.median_ms = -2.5 is no time"},
        std::tuple{median, "\"median_ms\": null", "timing.median_ms = nan is no time"},
        std::tuple{repetition, "-1e-3,", "timing.repetition_ms[1] = -0.001 is no time"}}) {
    const fs::path dir = scratch("absurd");
    std::string bad = text;
    bad.replace(bad.find(from), from.size(), to);
    std::ofstream(dir / "results.json") << bad;
    try {
      check_result_times(read_result_set(dir));
      ADD_FAILURE() << "accepted " << to;
    } catch (const result_set_error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("results.json: result 1 ("), std::string::npos) << what;
      EXPECT_NE(what.find(says), std::string::npos) << says << "\n" << what;
    }
  }
}

}  // namespace
}  // namespace cudalab::host
