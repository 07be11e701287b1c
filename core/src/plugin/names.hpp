// Plugin names in messages: a name comes from a lab file, the command line or a file on the search
// path, so it can hold any byte; messages show it with control characters escaped.
#pragma once

#include <string>

namespace cudalab::host {

/// `text` safe to print on a terminal: each control character (NUL, ESC, newline, ...) and DEL as
/// \xNN, a backslash as \\, everything else as it is. "testlab\0x" -> "testlab\x00x".
std::string printable(const std::string& text);

}  // namespace cudalab::host
