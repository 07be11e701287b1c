// Matching two runs' results: by lab file name (not path), point (in any axis order) and variant;
// what only one run has is added or removed; lab files of the same name are told apart by their order.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compare/result_match.hpp"

namespace cudalab::host {
namespace {

variant_result make(const std::string& lab_file, std::vector<std::pair<std::string, std::string>> point,
                    const std::string& variant) {
  variant_result r;
  r.lab_file = lab_file;
  r.point = std::move(point);
  r.variant = variant;
  return r;
}

TEST(CompareMatch, SameLabFileByItsNameFromAnotherFolder) {
  const std::vector<variant_result> base = {make("labs/a.toml", {{"n", "1"}}, "copy")};
  const std::vector<variant_result> next = {make("/home/me/cudalab/labs/a.toml", {{"n", "1"}}, "copy")};
  const auto m = match_results(base, next);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].base, 0u);
  EXPECT_EQ(m[0].next, 0u);
  EXPECT_EQ(keys_of(next)[0].lab_file, "a.toml");
}

TEST(CompareMatch, PointsMatchWhateverTheOrderOfTheirAxes) {
  const std::vector<variant_result> base = {make("a.toml", {{"n", "1"}, {"block", "256"}}, "copy")};
  const std::vector<variant_result> next = {make("a.toml", {{"block", "256"}, {"n", "1"}}, "copy")};
  const auto m = match_results(base, next);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_TRUE(m[0].base && m[0].next);
}

TEST(CompareMatch, AnotherPointOrVariantIsAddedAndRemoved) {
  const std::vector<variant_result> base = {make("a.toml", {{"n", "1"}}, "copy"), make("a.toml", {{"n", "2"}}, "copy"),
                                            make("a.toml", {{"n", "1"}}, "old")};
  const std::vector<variant_result> next = {make("a.toml", {{"n", "1"}}, "copy"), make("a.toml", {{"n", "3"}}, "copy"),
                                            make("a.toml", {{"n", "1"}}, "new")};
  const auto m = match_results(base, next);
  ASSERT_EQ(m.size(), 5u);
  // The new run's order first (matched or added), then what only the base run has, in its order.
  EXPECT_EQ(m[0].base, 0u);
  EXPECT_EQ(m[0].next, 0u);
  EXPECT_FALSE(m[1].base);
  EXPECT_EQ(m[1].next, 1u);
  EXPECT_FALSE(m[2].base);
  EXPECT_EQ(m[2].next, 2u);
  EXPECT_EQ(m[3].base, 1u);
  EXPECT_FALSE(m[3].next);
  EXPECT_EQ(m[4].base, 2u);
  EXPECT_FALSE(m[4].next);
}

TEST(CompareMatch, AnotherLabFileIsNotTheSame) {
  const auto m = match_results({make("a.toml", {}, "copy")}, {make("b.toml", {}, "copy")});
  ASSERT_EQ(m.size(), 2u);
  EXPECT_FALSE(m[0].base);
  EXPECT_FALSE(m[1].next);
}

TEST(CompareMatch, LabFilesOfTheSameNameAreNumberedInTheirOrder) {
  const std::vector<variant_result> base = {make("dirA/lab.toml", {}, "copy"), make("dirB/lab.toml", {}, "copy")};
  const std::vector<variant_result> next = {make("x/dirA/lab.toml", {}, "copy"), make("x/dirB/lab.toml", {}, "copy"),
                                            make("x/dirA/lab.toml", {}, "scale")};
  const auto keys = keys_of(next);
  EXPECT_EQ(keys[0].occurrence, 1);
  EXPECT_EQ(keys[1].occurrence, 2);
  EXPECT_EQ(keys[2].occurrence, 1);  // the same path keeps its number
  EXPECT_EQ(lab_file_label(keys[0]), "lab.toml");
  EXPECT_EQ(lab_file_label(keys[1]), "lab.toml (2)");
  const auto m = match_results(base, next);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].base, 0u);
  EXPECT_EQ(m[1].base, 1u);
  EXPECT_FALSE(m[2].base);
}

TEST(CompareMatch, ARepeatedKeyPairsInOrder) {
  const std::vector<variant_result> base = {make("a.toml", {}, "copy"), make("a.toml", {}, "copy")};
  const std::vector<variant_result> next = {make("a.toml", {}, "copy")};
  const auto m = match_results(base, next);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].base, 0u);
  EXPECT_EQ(m[1].base, 1u);
  EXPECT_FALSE(m[1].next);
}

}  // namespace
}  // namespace cudalab::host
