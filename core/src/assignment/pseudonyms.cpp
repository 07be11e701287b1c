// Pseudonyms for the class leaderboard (pseudonyms.hpp).
#include "assignment/pseudonyms.hpp"

#include <fmt/format.h>

#include "assignment/digests.hpp"
#include "assignment/student_seeds.hpp"

namespace cudalab::host {

namespace {

// 64 of each: a name takes 6 bits of the HMAC for each word and 8 more for the suffix.
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
    "quail",  "rabbit",  "raven",   "salmon", "seal",   "shrew",  "sloth",   "stoat", "swift",  "tapir",   "tern",
    "tiger",  "toucan",  "turtle",  "walrus", "weasel", "whale",  "wombat",  "yak",   "zebra"};

}  // namespace

std::string pseudonym(std::string_view secret, std::string_view assignment_id, std::string_view student) {
  const digest_bytes h = hmac_sha256(secret, seed_message(assignment_id, student, "pseudonym", 0));
  return fmt::format("{}-{}-{:02x}", adjectives[h[0] % 64], animals[h[1] % 64], h[2]);
}

}  // namespace cudalab::host
