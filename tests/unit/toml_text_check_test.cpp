// The check before TOML++ parses: non-ASCII characters outside strings and comments are syntax errors
// with their line and column (TOML++ 3.3 has undefined behaviour on some; the fuzzer found them),
// while text in strings and comments stays free.
#include <gtest/gtest.h>

#include <string>

#include "labfile/lab_file.hpp"

namespace cudalab::host {
namespace {

std::string problem_of(const std::string& text) {
  try {
    parse_lab_text(text, "x.toml");
  } catch (const lab_file_error& e) {
    return e.what();
  }
  return "";
}

TEST(TomlTextCheck, NonAsciiInStringsAndCommentsIsFine) {
  EXPECT_EQ(problem_of("[lab] # caf\xc3\xa9 \xc3\x97\nplugin = \"testlab\"\ntitle = \"16384\xc2\xb2 \xc3\x97 2\"\n"),
            "");
  EXPECT_EQ(problem_of("[lab]\nplugin = 'testlab'\ntitle = '''\n\xc6\xbf'''\n"), "");
  EXPECT_EQ(problem_of("[lab]\nplugin = \"testlab\"\ntitle = \"\"\"\\\n   x\xc3\xa9\"\"\"\n"), "");
}

TEST(TomlTextCheck, NonAsciiOutsideStringsIsASyntaxError) {
  EXPECT_EQ(problem_of("[lab]\nplugin = \"testlab\"\n\xc3\x97 = 1\n"),
            "x.toml:3:1: TOML syntax error: character U+00D7 outside a string or comment (keys and values are "
            "ASCII; put text in quotes)");
  EXPECT_NE(problem_of("[lab]\nplugin = \"testlab\"\nn = [1,\xc6\xbf 2]\n")
                .find("x.toml:3:8: TOML syntax error: character U+01BF"),
            std::string::npos);
  // A quote in the middle of a bare value does not open a string (fuzzer regression).
  EXPECT_NE(problem_of("[lab]\nplugin = +\"Qs\xda\x8aize\n").find("U+068A"), std::string::npos);
  EXPECT_NE(problem_of("[lab]\nplugin = \"a\" \xff\n").find("byte 0xFF"), std::string::npos);
}

TEST(TomlTextCheck, AfterALineEndingBackslash) {
  EXPECT_NE(problem_of("[lab]\nplugin = \"testlab\"\ntitle = \"\"\"\\\n   \xc3\xa9t\xc3\xa9\"\"\"\n")
                .find("x.toml:4:4: TOML syntax error: character U+00E9 right after a line-ending backslash"),
            std::string::npos);
}

TEST(TomlTextCheck, NonAsciiAfterABackslashIsAnInvalidEscape) {
  EXPECT_EQ(
      problem_of("[lab]\nplugin = \"testlab\"\ntitle = \"\"\"c\\\xef\xb3\xbf\"\"\"\n"),
      "x.toml:3:14: TOML syntax error: invalid escape sequence: a backslash followed by character U+FCFF in a string");
  EXPECT_NE(problem_of("[lab]\nplugin = \"testlab\"\ntitle = \"c\\  \xc3\xa9\"\n").find("U+00E9"), std::string::npos);
}

TEST(TomlTextCheck, TomlPlusPlusOwnErrorsStay) {
  EXPECT_NE(problem_of("[#]\n").find("x.toml:1:2: TOML syntax error"), std::string::npos);
}

}  // namespace
}  // namespace cudalab::host
