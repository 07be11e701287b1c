// The check before TOML++ parses: non-ASCII characters outside strings and comments are syntax errors
// with their line and column (TOML++ 3.3 has undefined behaviour on some; the fuzzer found them),
// while text in strings and comments stays free.
#include <gtest/gtest.h>

#include <cstdio>
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

// ---- the red-team review of 2026-11-23 ----------------------------------------------------------------

TEST(TomlTextCheck, redteam_f36_utf16_is_named) {  // once: "character U+1FE6C0", not even a code point
  const std::string utf16le = std::string("\xFF\xFE[\0l\0a\0b\0]\0\n\0", 14);
  EXPECT_EQ(problem_of(utf16le),
            "x.toml:1:1: the file is UTF-16 (it starts with a UTF-16 byte-order mark), not UTF-8: save it as UTF-8");
  EXPECT_EQ(problem_of(std::string("\xFE\xFF\0[\0l\0a\0b\0]", 12)).find("the file is UTF-16"), 12u);
  EXPECT_EQ(problem_of(std::string("[\0l\0a\0b\0]\0", 10)),
            "x.toml:1:1: the file looks like UTF-16 (a NUL byte beside each ASCII character), not UTF-8: save it as "
            "UTF-8");
}

TEST(TomlTextCheck, redteam_f36_invalid_utf8_is_no_code_point) {
  const std::string lab = "[lab]\nplugin = \"testlab\"\n";
  // Beyond U+10FFFF, a surrogate, an overlong NUL, a lone continuation byte, a cut sequence, Latin-1.
  for (const char* bad : {"\xF4\x90\x80\x80", "\xED\xA0\x80", "\xC0\x80", "\x80", "\xE2\x82", "\xE9"}) {
    const std::string lead = problem_of(lab + "title = \"" + bad + "\"\n");
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(*bad)));
    EXPECT_EQ(lead, "x.toml:3:10: the file is not valid UTF-8: byte " + std::string(byte) +
                        " here is not part of a UTF-8 character; save it as UTF-8");
    EXPECT_EQ(problem_of(lab + bad + " = 1\n").find("x.toml:3:1: the file is not valid UTF-8: byte "), 0u);
  }
}

}  // namespace
}  // namespace cudalab::host
