// A check of TOML text before TOML++ parses it: a non-ASCII character outside strings and comments.
// TOML allows none there, and TOML++ 3.3 reaches undefined behaviour (an "unreachable" default in its
// generated is_non_ascii_horizontal_whitespace) on some of them, e.g. U+01BF; found by fuzzing.
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

#include "labfile/toml_tree.hpp"

namespace cudalab::host {

namespace {

// The code point of the UTF-8 character at text[i] (its lead byte if the bytes are not UTF-8) and its
// length.
std::pair<std::uint32_t, int> decode(std::string_view text, std::size_t i) {
  const utf8_char c = decode_utf8(text, i);
  return {c.code_point, c.length};
}

// The code points on which TOML++ 3.3's is_non_ascii_horizontal_whitespace() reaches its
// "unreachable" default: 32-bit chunks 0, 11 and 63 of its table, less the spaces they hold.
bool whitespace_check_undefined(std::uint32_t cp) {
  if (cp <= 0xA0 || cp >= 0xFEFF || cp == 0x3000) return false;
  const std::uint32_t chunk = (cp - 0xA0) / 0x3FA;
  return chunk == 0 || chunk == 11 || chunk == 63;
}

// The non-ASCII horizontal whitespace TOML++ 3.3 trims after a line-ending backslash.
bool non_ascii_space(std::uint32_t cp) {
  return cp == 0xA0 || cp == 0x1680 || cp == 0x180E || (cp >= 0x2000 && cp <= 0x200B) || cp == 0x202F || cp == 0x205F ||
         cp == 0x2060 || cp == 0x3000 || cp == 0xFEFF;
}

std::string code_text(std::uint32_t cp, int length) {
  char code[16];
  std::snprintf(code, sizeof code, length > 1 ? "U+%04X" : "byte 0x%02X", static_cast<unsigned>(cp));
  return code;
}

}  // namespace

std::optional<lab_problem> stray_non_ascii(const std::string& file, std::string_view text) {
  enum class in { code, comment, basic, literal, multi_basic, multi_literal } state = in::code;
  int line = 1, column = 1;
  bool bare = false;   // inside a bare key or value token
  bool value = false;  // reading a value (after '='), not a key
  std::string nest;    // the arrays ('[') and inline tables ('{') open in the value being read
  auto stray = [&](std::size_t i, int at) {
    const auto [cp, length] = decode(text, i);
    return std::optional<lab_problem>(lab_problem{{file, line, at},
                                                  "TOML syntax error: character " + code_text(cp, length) +
                                                      " outside a string or comment (keys and values are "
                                                      "ASCII; put text in quotes)"});
  };
  auto starts = [&](std::size_t i, const char* s) {
    return text.compare(i, std::char_traits<char>::length(s), s) == 0;
  };
  // A backslash in a basic string, blanks, then a non-ASCII character: an invalid escape, on which
  // TOML++ asks whether that character is whitespace (a fuzzer regression, e.g. "\\" U+FCFF).
  auto escape_problem = [&](std::size_t i) -> std::optional<lab_problem> {
    if (text[i] != '\\') return std::nullopt;
    std::size_t j = i + 1;
    int at = column;
    while (j < text.size() && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r')) ++j, ++at;
    if (j >= text.size() || static_cast<unsigned char>(text[j]) < 0x80) return std::nullopt;
    const auto [cp, length] = decode(text, j);
    return lab_problem{{file, line, at},
                       "TOML syntax error: invalid escape sequence: a backslash followed by character " +
                           code_text(cp, length) + " in a string"};
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const int at_column = column;
    if (c == '\n') {
      ++line;
      column = 1;
      bare = false;
      if (nest.empty()) value = false;  // the next line starts with a key, unless an array or table is open
      if (state != in::multi_basic && state != in::multi_literal) state = in::code;  // TOML++ reports open strings
      continue;
    }
    if ((c & 0xC0) != 0x80) ++column;  // columns count characters, not UTF-8 continuation bytes
    switch (state) {
      case in::code: {
        // Tokens as TOML++ reads them: inside a bare key or value token (`6zz[`, `+"`) quotes and
        // brackets are just characters that TOML++ scans on through, so they open nothing here either.
        const bool blank = c == ' ' || c == '\t' || c == '\r';
        if (bare) {
          const bool ends = blank || c == '#' || c == ',' || c == ']' || c == '}' || (!value && (c == '.' || c == '='));
          if (!ends) {
            if (c >= 0x80) return stray(i, at_column);
            break;
          }
          bare = false;
        }
        if (blank) break;
        if (c == '#') {
          state = in::comment;
        } else if (starts(i, "\"\"\"")) {  // TOML++ reads a triple quote as one in keys too (and refuses it)
          state = in::multi_basic;
          i += 2, column += 2;
        } else if (starts(i, "'''")) {
          state = in::multi_literal;
          i += 2, column += 2;
        } else if (c == '"') {
          state = in::basic;
        } else if (c == '\'') {
          state = in::literal;
        } else if (c == '=') {
          value = true;
        } else if (c == '[') {
          if (value) nest.push_back('[');  // an array; otherwise a [table] header
        } else if (c == '{') {
          if (value) nest.push_back('{'), value = false;  // an inline table: keys follow
        } else if (c == ',') {
          value = !nest.empty() && nest.back() == '[';
        } else if (c == ']' || c == '}') {
          if (!nest.empty()) nest.pop_back(), value = true;
        } else if (c == '.') {
          // between the parts of a dotted key
        } else if (c >= 0x80) {
          return stray(i, at_column);
        } else {
          bare = true;
        }
        break;
      }
      case in::comment:
        break;
      case in::basic:
        if (auto bad = escape_problem(i)) return bad;
        if (c == '\\' && i + 1 < text.size() && text[i + 1] != '\n')
          ++i, ++column;  // an escaped character
        else if (c == '"')
          state = in::code;
        break;
      case in::literal:
        if (c == '\'') state = in::code;
        break;
      case in::multi_basic:
        if (auto bad = escape_problem(i)) return bad;
        if (c == '\\') {
          // A line-ending backslash: TOML++ tests the whitespace after it, then the first character
          // that is not, for non-ASCII whitespace - where some characters reach its bug.
          std::size_t j = i + 1;
          while (j < text.size() && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r')) ++j;
          if (j < text.size() && text[j] == '\n') {
            int ws_line = line, ws_column = column;
            for (std::size_t k = i + 1; k < text.size(); ++k) {
              const char w = text[k];
              if (w == '\n') {
                ++ws_line, ws_column = 1;
              } else if (w == ' ' || w == '\t' || w == '\r') {
                ++ws_column;
              } else {
                const auto [cp, length] = decode(text, k);
                if (whitespace_check_undefined(cp))
                  return lab_problem{
                      {file, ws_line, ws_column},
                      "TOML syntax error: character " + code_text(cp, length) +
                          " right after a line-ending backslash in a multi-line string is not "
                          "supported (TOML++ 3.3 mishandles it); start that line with another character"};
                if (!non_ascii_space(cp)) break;
                k += length - 1;  // TOML++ trims the spaces it knows beyond ASCII too, then looks further
                ++ws_column;
              }
            }
          } else if (i + 1 < text.size() && text[i + 1] != '\n') {
            ++i, ++column;  // an escaped character
          }
        } else if (starts(i, "\"\"\"")) {
          state = in::code;
          i += 2, column += 2;
          while (i + 1 < text.size() && text[i + 1] == '"') ++i, ++column;  // up to two quotes may end the content
        }
        break;
      case in::multi_literal:
        if (starts(i, "'''")) {
          state = in::code;
          i += 2, column += 2;
          while (i + 1 < text.size() && text[i + 1] == '\'') ++i, ++column;
        }
        break;
    }
  }
  return std::nullopt;
}

}  // namespace cudalab::host
