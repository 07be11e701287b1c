// A comparison of two runs written out: a console table (at most 100 columns), Markdown, JSON
// (docs/compare.md describes the JSON's fields) or one self-contained HTML page.
#pragma once

#include <ostream>

#include "compare/comparison.hpp"

namespace cudalab::host {

/// Raised when a field of the comparison's JSON is renamed or removed or changes meaning.
inline constexpr int compare_schema_version = 1;

/// The table: the two runs, then a block per lab file and sweep point with a row per variant (base
/// and new median time, change, p-value, verdict; a note under the row), then the counts and whether
/// anything regressed. `colour`: verdicts in colour (slower red, faster green, unsure yellow).
void write_compare_table(std::ostream& out, const comparison& c, bool colour);

/// Markdown: a section per lab file with one table (the swept parameters as leading columns).
void write_compare_markdown(std::ostream& out, const comparison& c);

/// JSON, indented by 2: the settings, both runs, a record per result, the counts, "regression".
void write_compare_json(std::ostream& out, const comparison& c);

/// An HTML page (html_page.hpp): both runs, the verdict on the whole (a regression or not) and the
/// counts, then per lab file a table that sorts by any column and filters by variant (the swept
/// values, base and new median, the change with a bar on either side of 0, p, the verdict; a note
/// under its row), every name from the results escaped.
void write_compare_html(std::ostream& out, const comparison& c);

/// A time in milliseconds with a unit that suits it: "2.700 us", "17.32 ms", "1.250 s", "-" when not
/// a number above 0.
std::string duration_text(double ms);

}  // namespace cudalab::host
