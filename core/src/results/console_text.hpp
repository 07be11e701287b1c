// Text for a terminal of a given width: how wide the console is, lines wrapped at spaces, which
// columns of a table fit (the console table, explain's tables, --help), and text from outside (a name, a
// child's output, a compiler's message) with its control characters escaped.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace cudalab::host {

/// A width that nothing reaches: every column shown, no line wrapped (--wide).
inline constexpr std::size_t unlimited_width = std::numeric_limits<std::size_t>::max();

/// The width assumed when stdout is not a terminal and $COLUMNS is not set: wide enough for every
/// column of the run table, and for `less` on a common terminal.
inline constexpr std::size_t default_console_width = 120;

/// The columns the console may use: $COLUMNS when it is a whole number from 1 to 9999 (set by the
/// user or exported by the shell: it wins, so that a pipe or a test can ask for a width); else the
/// width of the terminal on stdout (ioctl TIOCGWINSZ); else (stdout is no terminal, or says 0)
/// default_console_width.
std::size_t console_width();

/// What printable() does with line breaks, tabs and backslashes.
enum class text_lines {
  one,   ///< one line: a newline and a tab are escaped too, and a backslash doubled (\\), so that the escaped
         ///< form reads back unambiguously (a name in a message)
  kept,  ///< lines: newlines and tabs stay, and backslashes as they are, so that escaping twice changes nothing
         ///< (a page, a log, a console line)
};

/// `text` safe to show on a terminal or in a file a person reads: each byte of a control character - C0
/// (NUL, ESC, ...), DEL, and C1 (U+0080 to U+009F, or such a byte where no UTF-8 character has it) - as
/// \xNN, everything else as it is. Text a student, a kit or a plugin wrote then never moves the cursor,
/// recolours, hides or rewrites what the reader sees. "testlab\0x" -> "testlab\x00x"; "\e[31m" -> "\x1b[31m".
std::string printable(const std::string& text, text_lines lines = text_lines::one);

/// The columns `text` takes on a terminal: one per UTF-8 code point (continuation bytes take none).
std::size_t text_columns(const std::string& text);

/// `text` padded with spaces to `columns` on the left (right-aligned) or on the right (left-aligned);
/// as it is when it is that wide already.
std::string pad_left(const std::string& text, std::size_t columns);
std::string pad_right(const std::string& text, std::size_t columns);

/// `text` in lines of at most `width` columns, broken at spaces (runs of spaces between words kept
/// inside a line, dropped at a break); a word longer than a line is cut. The first line starts with
/// `first_indent` spaces, the others with `indent`; a newline in `text` starts a new line. At least
/// one column of text fits on every line, whatever the indent.
std::vector<std::string> wrap_lines(const std::string& text, std::size_t width, std::size_t first_indent,
                                    std::size_t indent);

/// One column of a table as fit_columns sees it: the columns it takes (its separator included) and
/// its rank, 1 being the most important; columns of equal rank are dropped last first.
struct column_fit {
  std::size_t columns;
  int rank;
};

/// Which of `optional` to show beside columns that are always shown (`fixed` columns wide) in
/// `width`: the least important (highest rank) are dropped first until the rest fit. An unlimited
/// width shows them all; a width that even the fixed columns pass shows none.
std::vector<bool> fit_columns(std::size_t fixed, const std::vector<column_fit>& optional, std::size_t width);

}  // namespace cudalab::host
