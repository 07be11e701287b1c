// Per-student seeds and the digests under them: HMAC-SHA256 against RFC 4231's test vectors, SHA-256
// against FIPS 180-2's "abc", the seed message's length-prefixed framing, a known seed (computed
// independently with Python's hmac module), and seeds that differ per student, test, draw and secret.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "assignment/digests.hpp"
#include "assignment/student_seeds.hpp"

namespace cudalab::host {
namespace {

std::string bytes(std::initializer_list<int> values) {
  std::string s;
  for (const int v : values) s += static_cast<char>(v);
  return s;
}

std::string repeated(int byte, std::size_t n) { return std::string(n, static_cast<char>(byte)); }

// RFC 4231, section 4: test cases 1, 2, 3, 4, 6 and 7 (5 checks a truncated output, which is not used here).
TEST(Digests, HmacSha256MatchesRfc4231) {
  EXPECT_EQ(hex_text(hmac_sha256(repeated(0x0b, 20), "Hi There")),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  EXPECT_EQ(hex_text(hmac_sha256("Jefe", "what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  EXPECT_EQ(hex_text(hmac_sha256(repeated(0xaa, 20), repeated(0xdd, 50))),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
  std::string key4;
  for (int b = 1; b <= 25; ++b) key4 += static_cast<char>(b);
  EXPECT_EQ(hex_text(hmac_sha256(key4, repeated(0xcd, 50))),
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");
  EXPECT_EQ(hex_text(hmac_sha256(repeated(0xaa, 131), "Test Using Larger Than Block-Size Key - Hash Key First")),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  EXPECT_EQ(hex_text(hmac_sha256(repeated(0xaa, 131),
                                 "This is a test using a larger than block-size key and a larger than block-size "
                                 "data. The key needs to be hashed before being used by the HMAC algorithm.")),
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}

TEST(Digests, Sha256OfAbc) {
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(StudentSeeds, MessageIsLengthPrefixed) {
  EXPECT_EQ(seed_message("a", "", "xy", 258), bytes({0, 0, 0, 0, 0, 0, 0, 1,   'a', 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                     0, 0, 0, 0, 0, 0, 2, 'x', 'y', 0, 0, 0, 0, 0, 0, 1, 2}));
  // Moving a character from one field to the next changes the message, and so the seed.
  EXPECT_NE(seed_message("ab", "c", "t", 0), seed_message("a", "bc", "t", 0));
  EXPECT_NE(seed_message("hw", "s1", "t2", 0), seed_message("hw", "s1t", "2", 0));
  const std::string secret = repeated(7, 32);
  EXPECT_NE(student_seed(secret, "ab", "c", "t", 0), student_seed(secret, "a", "bc", "t", 0));
}

TEST(StudentSeeds, KnownValue) {
  std::string secret;
  for (int b = 0; b < 32; ++b) secret += static_cast<char>(b);
  // Python: hmac.new(bytes(range(32)), framed message, sha256).digest()[:8], big-endian.
  EXPECT_EQ(student_seed(secret, "hw3-reduce", "student-1", "hidden-sizes", 0), 0xb639f47b094ca58fULL);
  EXPECT_EQ(student_seed(secret, "hw3-reduce", "student-1", "hidden-sizes", 7), 0xdffc294bdd0cb2a7ULL);
}

TEST(StudentSeeds, DeterministicAndDistinct) {
  const std::string secret = repeated(0x5a, 32);
  EXPECT_EQ(student_seed(secret, "hw1", "alice", "hidden", 0), student_seed(secret, "hw1", "alice", "hidden", 0));
  std::set<std::uint64_t> seen;
  int made = 0;
  for (const char* student : {"alice", "bob", "carol"})
    for (const char* test : {"hidden-sizes", "hidden-blocks"})
      for (std::uint64_t i = 0; i < 4; ++i, ++made) seen.insert(student_seed(secret, "hw1", student, test, i));
  EXPECT_EQ(seen.size(), std::size_t(made));
  EXPECT_NE(student_seed(secret, "hw1", "alice", "hidden", 0), student_seed(secret, "hw2", "alice", "hidden", 0));
  EXPECT_NE(student_seed(secret, "hw1", "alice", "hidden", 0),
            student_seed(repeated(0x5b, 32), "hw1", "alice", "hidden", 0));
}

}  // namespace
}  // namespace cudalab::host
