// The frame every cudalab HTML report shares (report.html, compare's, feedback.html, class.html): one
// self-contained page with its style sheet and script inline - nothing is fetched from anywhere, so a
// copied folder opens offline - light and dark by the reader's colour scheme, readable with
// JavaScript off; and the plain tables it holds, which the script makes sortable and filterable.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace cudalab::host {

/// The whole page: <!DOCTYPE html>, UTF-8, a viewport for phones, `title` (text: escaped here), the
/// inline style sheet and script, and `body` (HTML its writer escaped). With JavaScript on, every
/// table of class "sortable" sorts by a column when its header is pressed (by each cell's data-sort
/// number, else its text; again for the other way), and one with data-filter="variant" gets a choice
/// of variant above it that shows only that variant's rows (each row group's data-variant).
std::string html_document(const std::string& title, const std::string& body);

/// One cell of an html_table.
struct html_cell {
  std::string html;                             ///< what it shows, escaped by the caller (html_escape)
  std::optional<double> number = std::nullopt;  ///< what it sorts by in a numeric column; none: after every number
  std::string css_class = "";                   ///< more classes ("bad", "ok")
  std::string title = "";                       ///< a tooltip (text: escaped here)
};

/// A cell showing `text` (escaped here), sorted by `number` when it has one.
html_cell text_cell(const std::string& text, std::optional<double> number = std::nullopt);

/// A cell showing `html`, which its caller escaped (a link, a swatch before a name).
html_cell markup_cell(std::string html, std::optional<double> number = std::nullopt);

/// One column of an html_table.
struct html_column {
  std::string header;      ///< text: escaped here
  bool numeric = false;    ///< right-aligned, sorted by the cells' numbers
  std::string title = "";  ///< what the column means, as the header's tooltip (text)
};

/// A plain HTML table whose rows are each a <tbody> of their own, so that a note under a row (an error,
/// a mismatch) stays with it when the table is sorted or filtered.
class html_table {
 public:
  /// `id` names it in the page (an html_id); `sortable` lets the script sort it; `filter_by_variant`
  /// gives it the choice of variant.
  html_table(std::string id, std::vector<html_column> columns, bool sortable, bool filter_by_variant);

  /// A row of one cell per column; `variant` is what the filter matches (text), `mark` "bad" or "warn"
  /// to mark its edge red or yellow ("" for neither), `note` HTML shown on a line of its own under it
  /// ("" for none). REQUIRES: cells.size() == the number of columns.
  void add_row(const std::vector<html_cell>& cells, const std::string& variant = "", const std::string& mark = "",
               const std::string& note = "");

  /// The rows added so far.
  std::size_t rows() const { return rows_; }

  /// The table, in a box that scrolls sideways on a narrow screen.
  std::string str() const;

 private:
  std::string id_;
  std::vector<html_column> columns_;
  bool sortable_, filter_;
  std::string body_;
  std::size_t rows_ = 0;
};

}  // namespace cudalab::host
