// The SVG writer: each element on a line of its own, coordinates to 0.1 px, so that golden files stay
// readable and diff line by line.
#include "results/svg.hpp"

#include <fmt/format.h>

#include <utility>

#include "results/xml_text.hpp"

namespace cudalab::host {

namespace {

const char* anchor_name(text_anchor a) {
  switch (a) {
    case text_anchor::middle:
      return "middle";
    case text_anchor::end:
      return "end";
    case text_anchor::start:
      break;
  }
  return "start";
}

std::string dash_attribute(const std::string& dash) { return dash.empty() ? "" : " stroke-dasharray=\"" + dash + "\""; }

}  // namespace

svg_document::svg_document(double width, double height, std::string id_prefix)
    : width_(width), height_(height), id_prefix_(std::move(id_prefix)) {}

void svg_document::line(double x1, double y1, double x2, double y2, const std::string& stroke, double width,
                        const std::string& dash) {
  body_ << fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\"{}{}/>\n", x1, y1,
                       x2, y2, stroke, width == 1 ? "" : fmt::format(" stroke-width=\"{:g}\"", width),
                       dash_attribute(dash));
}

void svg_document::polyline(const std::vector<std::pair<double, double>>& points, const std::string& stroke,
                            double width, const std::string& dash) {
  std::string pts;
  for (const auto& [x, y] : points) pts += fmt::format("{}{:.1f},{:.1f}", pts.empty() ? "" : " ", x, y);
  body_ << fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"{:g}\"{} points=\"{}\"/>\n", stroke, width,
                       dash_attribute(dash), pts);
}

void svg_document::rect(double x, double y, double w, double h, const std::string& fill) {
  body_ << fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\"/>\n", x, y, w, h,
                       fill);
}

void svg_document::text(double x, double y, const std::string& s, text_anchor anchor, double size, double degrees) {
  body_ << fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\"{}{}{}>{}</text>\n", x, y,
                       anchor == text_anchor::start ? "" : fmt::format(" text-anchor=\"{}\"", anchor_name(anchor)),
                       size == 12 ? "" : fmt::format(" font-size=\"{:g}\"", size),
                       degrees == 0 ? "" : fmt::format(" transform=\"rotate({:g} {:.1f} {:.1f})\"", degrees, x, y),
                       xml_escape(s));
}

void svg_document::marker(marker_shape shape, double x, double y, const std::string& colour,
                          const std::string& tooltip) {
  // `element` is an opening tag without its end, named `tag`: closed at once, or around the tooltip.
  auto emit = [&](const char* tag, const std::string& element) {
    if (tooltip.empty())
      body_ << element << "/>\n";
    else
      body_ << element << "><title>" << xml_escape(tooltip) << "</title></" << tag << ">\n";
  };
  auto polygon = [&](std::initializer_list<std::pair<double, double>> corners) {
    std::string pts;
    for (const auto& [dx, dy] : corners) pts += fmt::format("{}{:.1f},{:.1f}", pts.empty() ? "" : " ", x + dx, y + dy);
    emit("polygon", fmt::format("<polygon points=\"{}\" fill=\"{}\"", pts, colour));
  };
  auto strokes = [&](const std::string& d) {
    emit("path", fmt::format("<path d=\"{}\" stroke=\"{}\" stroke-width=\"2\" fill=\"none\"", d, colour));
  };
  switch (shape) {
    case marker_shape::circle:
      return emit("circle", fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" fill=\"{}\"", x, y, colour));
    case marker_shape::square:
      return emit("rect", fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"6\" height=\"6\" fill=\"{}\"", x - 3,
                                      y - 3, colour));
    case marker_shape::triangle_up:
      return polygon({{0, -4}, {4, 3}, {-4, 3}});
    case marker_shape::triangle_down:
      return polygon({{0, 4}, {4, -3}, {-4, -3}});
    case marker_shape::diamond:
      return polygon({{0, -4.5}, {4, 0}, {0, 4.5}, {-4, 0}});
    case marker_shape::cross:
      return strokes(fmt::format("M{:.1f} {:.1f}l7 7m0 -7l-7 7", x - 3.5, y - 3.5));
    case marker_shape::plus:
      return strokes(fmt::format("M{:.1f} {:.1f}h9m-4.5 -4.5v9", x - 4.5, y));
  }
}

void svg_document::ring(double x, double y, const std::string& colour, const std::string& tooltip) {
  const std::string element = fmt::format(
      "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"6\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\"", x, y, colour);
  if (tooltip.empty())
    body_ << element << "/>\n";
  else
    body_ << element << "><title>" << xml_escape(tooltip) << "</title></circle>\n";
}

void svg_document::outline(double x, double y, double w, double h, const std::string& stroke) {
  body_ << fmt::format(
      "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"none\" stroke=\"{}\" "
      "stroke-width=\"1.5\"/>\n",
      x, y, w, h, stroke);
}

void svg_document::open_group(const std::string& id) { body_ << "<g id=\"" << xml_escape(id_prefix_ + id) << "\">\n"; }

void svg_document::close_group() { body_ << "</g>\n"; }

std::string svg_document::str() const {
  return fmt::format(
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:g}\" height=\"{1:g}\" viewBox=\"0 0 {0:g} {1:g}\" "
             "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
             width_, height_) +
         body_.str() + "</svg>\n";
}

}  // namespace cudalab::host
