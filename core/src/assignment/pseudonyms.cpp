// Pseudonyms for the class leaderboard (pseudonyms.hpp).
#include "assignment/pseudonyms.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "assignment/digests.hpp"
#include "assignment/student_seeds.hpp"

namespace cudalab::host {

namespace {

// 64 of each, all different: a name takes 6 bits of the HMAC for each word and 32 more for the suffix.
constexpr const char* adjectives[64] = {
    "agile",  "amber",  "azure",  "bold",   "brave",  "breezy", "bright", "brisk",  "calm",   "clever", "cosmic",
    "crisp",  "curly",  "daring", "deft",   "eager",  "early",  "fancy",  "fleet",  "frosty", "gentle", "giddy",
    "glad",   "golden", "grand",  "happy",  "hardy",  "humble", "icy",    "jolly",  "keen",   "kind",   "lively",
    "lucky",  "lunar",  "merry",  "mighty", "misty",  "modest", "noble",  "quick",  "quiet",  "rapid",  "rosy",
    "royal",  "rustic", "sandy",  "shiny",  "silent", "silver", "sleek",  "smooth", "snowy",  "solar",  "spry",
    "steady", "sunny",  "swift",  "tidy",   "vivid",  "warm",   "wise",   "witty",  "zesty"};
constexpr const char* animals[64] = {
    "alpaca", "badger",  "beaver",  "bison",  "bobcat", "camel",  "cheetah", "cobra", "condor", "coyote",  "crane",
    "dingo",  "dolphin", "eagle",   "egret",  "falcon", "ferret", "finch",   "gecko", "gibbon", "gopher",  "heron",
    "hippo",  "ibex",    "iguana",  "jackal", "jaguar", "koala",  "lemur",   "lynx",  "magpie", "marmot",  "marten",
    "mink",   "moose",   "narwhal", "newt",   "ocelot", "orca",   "osprey",  "otter", "panda",  "pelican", "puffin",
    "quail",  "rabbit",  "raven",   "salmon", "seal",   "shrew",  "sloth",   "stoat", "stork",  "tapir",   "tern",
    "tiger",  "toucan",  "turtle",  "walrus", "weasel", "whale",  "wombat",  "yak",   "zebra"};

}  // namespace

std::string pseudonym(std::string_view secret, std::string_view assignment_id, std::string_view student,
                      std::uint64_t attempt) {
  const digest_bytes h = hmac_sha256(secret, seed_message(assignment_id, student, "pseudonym", attempt));
  return fmt::format("{}-{}-{:02x}{:02x}{:02x}{:02x}", adjectives[h[0] % 64], animals[h[1] % 64], h[2], h[3], h[4],
                     h[5]);
}

std::string student_id_hmac(std::string_view secret, std::string_view assignment_id, std::string_view student) {
  return hex_text(hmac_sha256(secret, seed_message(assignment_id, student, "student id", 0)));
}

std::vector<std::size_t> break_pseudonym_ties(std::string_view secret, std::string_view assignment_id,
                                              std::vector<class_entry>& entries) {
  // By student id, so that which of two students keeps the name does not hang on the folder's order.
  std::vector<std::size_t> order(entries.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return entries[a].student < entries[b].student; });
  std::multiset<std::string> taken;
  for (const class_entry& e : entries) taken.insert(e.report.student.pseudonym);
  std::set<std::string> kept;
  std::vector<std::size_t> changed;
  for (const std::size_t i : order) {
    std::string& name = entries[i].report.student.pseudonym;
    if (kept.insert(name).second) continue;
    taken.erase(taken.find(name));
    std::uint64_t attempt = 1;
    std::string again = pseudonym(secret, assignment_id, entries[i].student, attempt);
    while (taken.count(again)) again = pseudonym(secret, assignment_id, entries[i].student, ++attempt);
    name = again;
    taken.insert(name);
    kept.insert(name);
    changed.push_back(i);
  }
  std::sort(changed.begin(), changed.end());
  return changed;
}

}  // namespace cudalab::host
