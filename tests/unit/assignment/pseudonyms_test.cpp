// The pseudonyms a class's leaderboard shows: stable, different per student and assignment, and not the
// student's name.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>
#include <string>

#include "assignment/digests.hpp"
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

// 20 bits gave two students of a class of 1000 one name 38% of the time: 44 bits now (adjective-animal-
// eight hex digits), and 5000 students of one assignment get 5000 names.
TEST(Pseudonyms, redteam26_f24_enough_bits_for_a_large_class) {
  const std::string secret(32, 's');
  std::set<std::string> names;
  for (int i = 0; i < 5000; ++i) names.insert(pseudonym(secret, "hw5", "s" + std::to_string(i)));
  EXPECT_EQ(names.size(), 5000u);
  const std::regex form("[a-z]+-[a-z]+-[0-9a-f]{8}");
  for (const std::string& n : names) ASSERT_TRUE(std::regex_match(n, form)) << n;
}

// Where a class still has two students with one pseudonym, the first by id keeps it and the others draw
// again (attempt 1, 2, ... until the name is free), the same way every time.
TEST(Pseudonyms, redteam26_f24_a_class_never_shares_a_pseudonym) {
  const std::string secret(32, 't');
  const auto entry = [](const std::string& id, const std::string& name) {
    class_entry e;
    e.student = id;
    e.report.student.pseudonym = name;
    return e;
  };
  const std::string bob_again = pseudonym(secret, "hw6", "bob", 1);
  // carol's own name is the one bob would draw first: bob must draw once more.
  std::vector<class_entry> cls = {entry("dave", "twin"), entry("bob", "twin"), entry("alice", "twin"),
                                  entry("carol", bob_again)};
  const std::vector<std::size_t> changed = break_pseudonym_ties(secret, "hw6", cls);
  EXPECT_EQ(changed, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(cls[2].report.student.pseudonym, "twin");  // alice, first by id
  EXPECT_EQ(cls[1].report.student.pseudonym, pseudonym(secret, "hw6", "bob", 2));
  EXPECT_EQ(cls[0].report.student.pseudonym, pseudonym(secret, "hw6", "dave", 1));
  EXPECT_EQ(cls[3].report.student.pseudonym, bob_again);
  std::set<std::string> names;
  for (const class_entry& e : cls) names.insert(e.report.student.pseudonym);
  EXPECT_EQ(names.size(), cls.size());
  EXPECT_TRUE(break_pseudonym_ties(secret, "hw6", cls).empty());  // a resumed batch keeps them
}

// A report names its student by a keyed hash (review 2026-11-26-redteam F9): SHA-256 of a guessable id is
// read back by hashing the class list; the HMAC under the staff secret is stable, differs per secret and
// assignment, and is nobody's plain hash.
TEST(Pseudonyms, redteam26_f09_a_reports_id_is_a_keyed_hash) {
  const std::string secret(32, 'k');
  const std::string h = student_id_hmac(secret, "hw3", "alice");
  EXPECT_TRUE(std::regex_match(h, std::regex("[0-9a-f]{64}"))) << h;
  EXPECT_EQ(h, student_id_hmac(secret, "hw3", "alice"));
  EXPECT_NE(h, student_id_hmac(std::string(32, 'x'), "hw3", "alice"));
  EXPECT_NE(h, student_id_hmac(secret, "hw4", "alice"));
  EXPECT_NE(h, student_id_hmac(secret, "hw3", "bob"));
  EXPECT_NE(h, sha256_hex("alice"));
}

}  // namespace
}  // namespace cudalab::host
