// The columns of the results tables: each quantity of a result said once, with its header and format
// in results.csv, the console table and report.md's tables (nvbench's summary name/hint idea).
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "results/result.hpp"

namespace cudalab::host {

/// A column's value for one result: none (not timed, not modelled), a count, a real or text.
using cell = std::variant<std::monostate, std::uint64_t, double, std::string>;

/// One column. The console and Markdown tables show the columns they name in this table's order,
/// after their own variant (and, in the console, coloured status) columns.
struct column {
  const char* csv;       ///< header in results.csv; nullptr: not there
  const char* console;   ///< header in the console table; nullptr: not there
  const char* markdown;  ///< header in report.md's tables; nullptr: not there
  int width;             ///< the console table's column width (right-aligned), the gap before it not counted
  int rank;              ///< the console column's importance, 1 the most: a narrow terminal drops the highest first
  int precision;         ///< digits after the point of a real in the console and Markdown tables
  double scale;          ///< the tables show a real times this (100: a fraction as a percentage)
  bool positive;         ///< the tables show "-" for a real that is not above 0 (a rate never measured)
  bool time;             ///< a time in ms, which the tables show in its own unit (time_text); CSV keeps ms
  cell (*value)(const variant_result& r);
  bool counters = false;  ///< Nsight Compute's (run --profile): report.md shows it only for lab files that have them
};

/// Every column, in results.csv's order, which the console and Markdown tables keep.
const std::vector<column>& result_columns();

/// A cell as results.csv writes it (not yet quoted): "" for none, counts whole, reals as {:.6g} ("" for
/// one that is not finite, where JSON has null), text as it is.
std::string csv_text(const column& c, const variant_result& r);

/// A cell as the console and Markdown tables show it: "-" for none (and for empty text, or a real
/// not above 0 in a `positive` column), times in their own unit ("2.700 us"), other reals scaled with
/// `precision` digits after the point.
std::string shown_text(const column& c, const variant_result& r);

}  // namespace cudalab::host
