// Text for the console: control characters escaped (printable), in one line or keeping its lines.
#include <gtest/gtest.h>

#include <string>

#include "results/console_text.hpp"

namespace cudalab::host {
namespace {

// What a student's #pragma message, a child's output or a kit's title may hold reaches a terminal or a
// page escaped (review 2026-11-26-redteam F29): C0 controls (ESC, BEL, CR, ...), DEL, and C1 - as UTF-8
// (U+009B, CSI) or a lone byte an 8-bit terminal takes for one - each byte as \xNN. Printable text, UTF-8
// included, stays as it is.
TEST(Printable, redteam26_f29_control_characters_are_shown_escaped) {
  EXPECT_EQ(printable("\x1b[31mred\x1b[0m"), "\\x1b[31mred\\x1b[0m");
  EXPECT_EQ(printable(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(printable("bell\x07 del\x7f cr\r"), "bell\\x07 del\\x7f cr\\x0d");
  EXPECT_EQ(printable("csi \xc2\x9b"
                      "2J"),
            "csi \\xc2\\x9b2J");
  EXPECT_EQ(printable("lone \x9b"
                      "2J and \x85"),
            "lone \\x9b2J and \\x85");
  EXPECT_EQ(printable("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80 \xc2\xa0nbsp"),
            "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80 \xc2\xa0nbsp");
  EXPECT_EQ(printable("a broken \xc3 and \xff"), "a broken \xc3 and \xff");  // not UTF-8, and no control
  // One line: newlines and tabs escaped, backslashes doubled (the escaped form reads back unambiguously).
  EXPECT_EQ(printable("two\nlines\tand \\x1b"), "two\\x0alines\\x09and \\\\x1b");
  // Lines kept: newlines and tabs stay, backslashes too, and escaping twice changes nothing.
  const std::string once = printable("line 1\x1b[2J\n\tline 2 \\ \xc2\x9b", text_lines::kept);
  EXPECT_EQ(once, "line 1\\x1b[2J\n\tline 2 \\ \\xc2\\x9b");
  EXPECT_EQ(printable(once, text_lines::kept), once);
}

}  // namespace
}  // namespace cudalab::host
