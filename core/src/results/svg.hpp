// A small SVG writer for the plots: lines, shapes, markers and text in user units (pixels), every text
// made XML-safe and escaped (xml_text.hpp). The document is written whole by str(); nothing here knows
// about results.
#pragma once

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "results/plot_style.hpp"

namespace cudalab::host {

/// How a text is anchored at its x: its start, middle or end.
enum class text_anchor { start, middle, end };

/// An SVG document of a fixed size on a white background, in sans-serif 12 px.
class svg_document {
 public:
  /// `id_prefix` starts every group's id: "" for a file of its own, a prefix of its own for each of
  /// several documents put inline in one HTML page (ids are unique in a page).
  svg_document(double width, double height, std::string id_prefix = "");

  /// A line; `dash` is an SVG dash array ("4 3"), "" for solid.
  void line(double x1, double y1, double x2, double y2, const std::string& stroke, double width = 1,
            const std::string& dash = "");
  /// A line through `points` (x, y) in order.
  void polyline(const std::vector<std::pair<double, double>>& points, const std::string& stroke, double width,
                const std::string& dash = "");
  void rect(double x, double y, double w, double h, const std::string& fill);
  /// Text at (x, y) (its baseline), in `size` px, rotated by `degrees` about (x, y).
  void text(double x, double y, const std::string& s, text_anchor anchor = text_anchor::start, double size = 12,
            double degrees = 0);
  /// A series' marker centred at (x, y), about 7 px across, with `tooltip` as its title ("" for none).
  void marker(marker_shape shape, double x, double y, const std::string& colour, const std::string& tooltip = "");
  /// A ring (a circle's outline, about 12 px across) centred at (x, y): a measured value beside a
  /// series' predicted marker; `tooltip` as its title ("" for none).
  void ring(double x, double y, const std::string& colour, const std::string& tooltip = "");
  /// A rectangle's outline.
  void outline(double x, double y, double w, double h, const std::string& stroke);
  /// A group with an id (for readers and tests to find a panel); groups nest.
  void open_group(const std::string& id);
  void close_group();

  /// The whole document.
  std::string str() const;

 private:
  double width_, height_;
  std::string id_prefix_;
  std::ostringstream body_;
};

}  // namespace cudalab::host
