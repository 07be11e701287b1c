// Text for a terminal of a given width: its width, wrapped lines, the columns that fit, control characters
// escaped.
#include "results/console_text.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>

namespace cudalab::host {

std::size_t console_width() {
  if (const char* columns = std::getenv("COLUMNS"); columns && *columns) {
    char* end = nullptr;
    const long n = std::strtol(columns, &end, 10);
    if (*end == '\0' && n >= 1 && n <= 9999) return std::size_t(n);
  }
  winsize w{};
  if (::isatty(STDOUT_FILENO) && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 0) return w.ws_col;
  return default_console_width;
}

namespace {

void escape_byte(std::string& out, unsigned char byte) {
  char escaped[5];
  std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
  out += escaped;
}

// The length of the UTF-8 character that starts at text[i] (2 to 4), or 0 when none does.
std::size_t utf8_length(const std::string& text, std::size_t i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  const std::size_t n = lead >= 0xC2 && lead <= 0xDF   ? 2
                        : lead >= 0xE0 && lead <= 0xEF ? 3
                        : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                       : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return 0;
  return n;
}

}  // namespace

std::string printable(const std::string& text, text_lines lines) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x80) {
      const bool kept = lines == text_lines::kept && (byte == '\n' || byte == '\t');
      if (byte == '\\' && lines == text_lines::one)
        out += "\\\\";
      else if ((byte < 0x20 || byte == 0x7f) && !kept)
        escape_byte(out, byte);
      else
        out += text[i];
      ++i;
    } else if (const std::size_t n = utf8_length(text, i); n == 0) {
      // No UTF-8 character starts here: a terminal in an 8-bit mode may take the byte for C1.
      if (byte <= 0x9F)
        escape_byte(out, byte);
      else
        out += text[i];
      ++i;
    } else if (byte == 0xC2 && static_cast<unsigned char>(text[i + 1]) <= 0x9F) {  // C1 as UTF-8
      escape_byte(out, byte);
      escape_byte(out, static_cast<unsigned char>(text[i + 1]));
      i += 2;
    } else {
      out.append(text, i, n);
      i += n;
    }
  }
  return out;
}

std::size_t text_columns(const std::string& text) {
  return std::size_t(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string pad_left(const std::string& text, std::size_t columns) {
  const std::size_t used = text_columns(text);
  return used >= columns ? text : std::string(columns - used, ' ') + text;
}

std::string pad_right(const std::string& text, std::size_t columns) {
  const std::size_t used = text_columns(text);
  return used >= columns ? text : text + std::string(columns - used, ' ');
}

namespace {

// The byte length of the first `columns` columns of `text` (whole UTF-8 sequences).
std::size_t bytes_of_columns(const std::string& text, std::size_t columns) {
  std::size_t shown = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (shown++ == columns) return i;
  }
  return text.size();
}

// Appends the lines of one paragraph (no newline in it) to `lines`; an empty one is an empty line.
void wrap_paragraph(const std::string& text, std::size_t width, std::size_t first_indent, std::size_t indent,
                    std::vector<std::string>& lines) {
  std::size_t line_indent = first_indent;
  std::string line(line_indent, ' ');
  std::size_t used = 0;  // columns of text on this line, after its indent
  const auto room = [&] { return width > line_indent ? width - line_indent : 1; };
  const auto break_line = [&] {
    lines.push_back(line);
    line_indent = indent;
    line.assign(indent, ' ');
    used = 0;
  };
  std::string gap;  // the spaces before the next word: kept only when the word goes on the same line
  bool any = false;
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == ' ') {
      gap += ' ';
      ++i;
      continue;
    }
    const std::size_t end = std::min(text.find(' ', i), text.size());
    std::string word = text.substr(i, end - i);
    i = end;
    any = true;
    std::size_t w = text_columns(word);
    if (used > 0 && used + gap.size() + w > room()) {
      break_line();
    } else if (used > 0) {
      line += gap;
      used += gap.size();
    }
    gap.clear();
    while (used + w > room()) {  // a word longer than a whole line: cut at the line's end
      const std::size_t cut = bytes_of_columns(word, room() - used);
      line += word.substr(0, cut);
      word.erase(0, cut);
      w = text_columns(word);
      break_line();
    }
    line += word;
    used += w;
  }
  lines.push_back(any ? line : std::string());
}

}  // namespace

std::vector<std::string> wrap_lines(const std::string& text, std::size_t width, std::size_t first_indent,
                                    std::size_t indent) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  bool first = true;
  while (true) {
    const std::size_t newline = text.find('\n', start);
    wrap_paragraph(text.substr(start, newline == std::string::npos ? std::string::npos : newline - start), width,
                   first ? first_indent : indent, indent, lines);
    first = false;
    if (newline == std::string::npos) return lines;
    start = newline + 1;
  }
}

std::vector<bool> fit_columns(std::size_t fixed, const std::vector<column_fit>& optional, std::size_t width) {
  std::vector<bool> shown(optional.size(), true);
  if (width == unlimited_width) return shown;
  std::size_t total = fixed;
  for (const column_fit& c : optional) total += c.columns;
  // The least important first; of equal rank, the one further right.
  std::vector<std::size_t> order(optional.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return optional[a].rank != optional[b].rank ? optional[a].rank > optional[b].rank : a > b;
  });
  for (const std::size_t i : order) {
    if (total <= width) break;
    shown[i] = false;
    total -= optional[i].columns;
  }
  return shown;
}

}  // namespace cudalab::host
