// The pseudonyms a class's leaderboard shows: stable, different per student and assignment, and not the
// student's name.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "assignment/pseudonyms.hpp"

namespace cudalab::host {
namespace {

TEST(Pseudonyms, StableAndDifferentPerStudentAndAssignment) {
  const std::string secret(32, 'k');
  const std::string p = pseudonym(secret, "hw3", "alice");
  EXPECT_EQ(p, pseudonym(secret, "hw3", "alice"));
  EXPECT_NE(p, pseudonym(secret, "hw4", "alice"));
  EXPECT_NE(p, pseudonym(std::string(32, 'x'), "hw3", "alice"));
  std::set<std::string> names;
  for (int i = 0; i < 200; ++i) names.insert(pseudonym(secret, "hw3", "student" + std::to_string(i)));
  EXPECT_EQ(names.size(), 200u);
  for (const std::string& n : names) {
    EXPECT_EQ(std::count(n.begin(), n.end(), '-'), 2) << n;
    EXPECT_EQ(n.find("student"), std::string::npos) << n;
  }
}

}  // namespace
}  // namespace cudalab::host
