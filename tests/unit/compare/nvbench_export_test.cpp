// The NVBench export carries every field NVBench's scripts/nvbench_compare.py reads, of the types it
// reads them as: devices[].{id,name}; benchmarks[].{name,devices,axes[].{name,type,flags},states};
// states[].{name,device,axis_values[].{name,type,value},summaries}; the summaries tagged
// nv/cold/time/gpu/mean and nv/cold/time/gpu/stdev/relative with data [{name: "value", type: "float64",
// value: a number as a string}]; and that two runs' states match by name as that script matches them.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <set>
#include <string>

#include "compare/nvbench_export.hpp"
#include "results/result_set.hpp"

namespace cudalab::host {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;
const fs::path fixtures = fs::path(CUDALAB_SOURCE_DIR) / "tests" / "fixtures" / "compare";

json exported(const std::string& run) { return json::parse(nvbench_json(read_result_set(fixtures / run))); }

const json* summary(const json& state, const std::string& tag) {
  for (const json& s : state.at("summaries"))
    if (s.at("tag") == tag) return &s;
  return nullptr;
}

// What nvbench_compare.py does to a summary: the data entry named "value", asserted float64, then float().
double value_of(const json& s) {
  for (const json& d : s.at("data"))
    if (d.at("name") == "value") {
      EXPECT_EQ(d.at("type"), "float64") << s.at("tag");
      EXPECT_TRUE(d.at("value").is_string()) << "NVBench writes values as strings";
      return std::stod(d.at("value").get<std::string>());
    }
  ADD_FAILURE() << "no value in " << s.at("tag");
  return NAN;
}

TEST(CompareNvbenchExport, HasTheFieldsNvbenchCompareReads) {
  const json root = exported("new");
  EXPECT_EQ(root.at("meta").at("version").at("json").at("string"), nvbench_json_version);
  ASSERT_EQ(root.at("devices").size(), 1u);
  EXPECT_EQ(root.at("devices")[0].at("id"), 0);
  EXPECT_EQ(root.at("devices")[0].at("name"), "Test GPU");

  const json& benches = root.at("benchmarks");
  ASSERT_EQ(benches.size(), 2u);
  EXPECT_EQ(benches[0].at("name"), "a.toml");
  EXPECT_EQ(benches[1].at("name"), "b.toml");
  const json& a = benches[0];
  EXPECT_EQ(a.at("devices"), json::array({0}));
  ASSERT_EQ(a.at("axes").size(), 2u);
  EXPECT_EQ(a.at("axes")[0].at("name"), "variant");
  EXPECT_EQ(a.at("axes")[0].at("type"), "string");
  EXPECT_EQ(a.at("axes")[1].at("name"), "offset");
  EXPECT_EQ(a.at("axes")[1].at("type"), "int64");  // every value a whole number
  EXPECT_EQ(a.at("axes")[1].at("flags"), "");      // not pow2: the script would print 2^k

  std::set<std::string> names;
  for (const json& state : a.at("states")) {
    EXPECT_TRUE(names.insert(state.at("name").get<std::string>()).second) << "state names must be unique";
    EXPECT_EQ(state.at("device"), 0);
    ASSERT_EQ(state.at("axis_values").size(), 2u);
    for (const json& av : state.at("axis_values")) {
      EXPECT_TRUE(av.at("value").is_string());
      if (av.at("type") == "int64") {
        EXPECT_NO_THROW(std::stoll(av.at("value").get<std::string>()));
      }
    }
    EXPECT_FALSE(state.at("is_skipped"));
    const json* mean = summary(state, "nv/cold/time/gpu/mean");
    const json* noise = summary(state, "nv/cold/time/gpu/stdev/relative");
    ASSERT_TRUE(mean && noise) << state.at("name");
    const double seconds = value_of(*mean);
    EXPECT_GT(seconds, 1e-7);
    EXPECT_LT(seconds, 1e-4);  // microseconds in seconds, not milliseconds
    const double cv = value_of(*noise);
    EXPECT_GE(cv, 0);
    EXPECT_LT(cv, 1);  // a fraction, as NVBench's
  }
  EXPECT_EQ(a.at("states")[0].at("name"), "Device=0 variant=memcpy offset=0");
}

TEST(CompareNvbenchExport, UntimedResultsAreSkippedStates) {
  const json root = exported("new");
  bool found = false;
  for (const json& state : root.at("benchmarks")[1].at("states")) {
    if (state.at("name") != "Device=0 variant=wrong") continue;
    found = true;
    EXPECT_TRUE(state.at("is_skipped"));
    EXPECT_TRUE(state.at("summaries").empty());  // the script skips a state without summaries
    EXPECT_NE(state.at("skip_reason").get<std::string>().find("verify_failed"), std::string::npos);
  }
  EXPECT_TRUE(found);
}

TEST(CompareNvbenchExport, TwoRunsMatchAsNvbenchCompareMatchesThem) {
  // The script refuses runs whose devices sections differ, finds benchmarks by name and states by name.
  const json base = exported("base"), next = exported("new");
  EXPECT_EQ(base.at("devices"), next.at("devices"));
  std::size_t matched = 0;
  for (const json& nb : next.at("benchmarks"))
    for (const json& bb : base.at("benchmarks"))
      if (bb.at("name") == nb.at("name"))
        for (const json& ns : nb.at("states"))
          for (const json& bs : bb.at("states"))
            if (bs.at("name") == ns.at("name")) ++matched;
  EXPECT_EQ(matched, 9u);  // the 11 results less the one added and the one removed
}

}  // namespace
}  // namespace cudalab::host
