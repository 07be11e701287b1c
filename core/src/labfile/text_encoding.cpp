// The encoding of a lab file or profile: UTF-8, as TOML requires. Checked before anything reads the
// text as TOML, so that a file saved as UTF-16 or Latin-1 is named as such, and no message ever shows
// a "code point" decoded from bytes that are not UTF-8.
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "labfile/toml_tree.hpp"

namespace cudalab::host {
namespace {

bool continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

std::string byte_text(unsigned char c) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02X", static_cast<unsigned>(c));
  return text;
}

// A problem at line 1, column 1: the whole file is in another encoding.
lab_problem whole_file(const std::string& file, const std::string& what) {
  lab_problem problem;  // built step by step: g++ 12 warns falsely on the nested braces
  problem.where = {file, 1, 1};
  problem.message = "the file " + what + ", not UTF-8: save it as UTF-8";
  return problem;
}

}  // namespace

utf8_char decode_utf8(std::string_view text, std::size_t i) {
  const auto c = static_cast<unsigned char>(text[i]);
  const utf8_char lone{c, 1, false};
  if (c < 0x80) return {c, 1, true};
  const int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
  if (extra == 0 || c > 0xF4 || i + static_cast<std::size_t>(extra) >= text.size()) return lone;
  std::uint32_t cp = c & (0x3F >> extra);
  for (int k = 1; k <= extra; ++k) {
    const auto next = static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]);
    if (!continuation(next)) return lone;
    cp = (cp << 6) | (next & 0x3F);
  }
  static constexpr std::uint32_t least[] = {0, 0x80, 0x800, 0x10000};  // shorter forms are overlong
  if (cp < least[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return lone;
  return {cp, extra + 1, true};
}

std::optional<lab_problem> encoding_problem(const std::string& file, std::string_view text) {
  if (text.substr(0, 2) == "\xFF\xFE" || text.substr(0, 2) == "\xFE\xFF")
    return whole_file(file, "is UTF-16 (it starts with a UTF-16 byte-order mark)");
  // UTF-16 without a mark: TOML text is ASCII at its start, so one byte of the first two is 0.
  if (text.size() >= 2 && (text[0] == '\0') != (text[1] == '\0'))
    return whole_file(file, "looks like UTF-16 (a NUL byte beside each ASCII character)");
  int line = 1, column = 1;
  for (std::size_t i = 0; i < text.size();) {
    const utf8_char c = decode_utf8(text, i);
    if (!c.valid) {
      lab_problem problem;
      problem.where = {file, line, column};
      problem.message = "the file is not valid UTF-8: byte " + byte_text(static_cast<unsigned char>(text[i])) +
                        " here is not part of a UTF-8 character; save it as UTF-8";
      return problem;
    }
    if (c.code_point == '\n')
      ++line, column = 1;
    else
      ++column;
    i += static_cast<std::size_t>(c.length);
  }
  return std::nullopt;
}

}  // namespace cudalab::host
