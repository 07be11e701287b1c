// One CSV field as cudalab writes it (results.csv, a class's gradebook.csv): RFC 4180 quoting, and
// text a spreadsheet would run as a formula kept as text.
#pragma once

#include <string>

namespace cudalab::host {

/// `text` as one CSV field: quoted when it holds a comma, a quote or a line break (quotes doubled);
/// behind a ' when it starts with =, +, -, @, a tab or a carriage return and is not a number (OWASP's
/// advice on CSV injection).
std::string csv_field(const std::string& text);

}  // namespace cudalab::host
