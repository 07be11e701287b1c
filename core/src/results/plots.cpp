// Sweep plots: one hand-written SVG line chart per lab file with a sweep, GB/s against the last swept
// parameter, a line per variant (and per value of any other swept parameter: "variant@block=256").
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "results/format.hpp"
#include "results/reporter.hpp"
#include "results/safe_file.hpp"

namespace cudalab::host {

namespace {

constexpr double width = 720, height = 420, left = 70, right = 190, top = 40, bottom = 50;
const char* const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                               "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

// A swept value as a number. Swept values arrive as value_text (plain integers and reals);
// anything else (choices, booleans) makes the axis categorical, placed by position.
bool as_number(const std::string& s, double& v) {
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return end != s.c_str() && *end == '\0';
}

// An axis label: whole multiples of 1024 as sizes ("64Mi"), as lab files write them; else the value.
std::string tick_text(const std::string& s) {
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (end == s.c_str() || *end != '\0' || v < 1024) return s;
  const char* const units[] = {"Ki", "Mi", "Gi", "Ti"};
  long long scaled = v;
  int unit = -1;
  while (unit < 3 && scaled % 1024 == 0 && scaled >= 1024) {
    scaled /= 1024;
    ++unit;
  }
  return unit < 0 ? s : std::to_string(scaled) + units[unit];
}

struct series {
  std::string name;
  std::vector<std::pair<std::string, double>> points;  // x label, GB/s
};

std::string plot_svg(const std::vector<const variant_result*>& rows, const std::string& xname) {
  // Series: variant plus the values of the other swept parameters.
  std::map<std::string, series> by_name;
  std::vector<std::string> order, xs;
  for (const auto* r : rows) {
    if (r->gbps <= 0) continue;
    std::string others;
    for (const auto& [k, v] : r->point)
      if (k != xname) others += (others.empty() ? "@" : ",") + k + "=" + v;
    const std::string name = variant_label(*r) + others;
    if (!by_name.count(name)) order.push_back(name);
    auto& s = by_name[name];
    s.name = name;
    const std::string x = point_value(*r, xname);
    s.points.emplace_back(x, r->gbps);
    if (std::find(xs.begin(), xs.end(), x) == xs.end()) xs.push_back(x);
  }
  bool numeric = !xs.empty();
  std::vector<double> xv;
  for (const auto& x : xs) {
    double v = 0;
    numeric = numeric && as_number(x, v);
    xv.push_back(v);
  }
  double xmin = 0, xmax = double(std::max<std::size_t>(xs.size(), 2) - 1);
  bool logx = false;
  if (numeric) {
    xmin = *std::min_element(xv.begin(), xv.end());
    xmax = *std::max_element(xv.begin(), xv.end());
    logx = xmin > 0 && xmax / xmin > 30;
    if (xmax == xmin) xmax = xmin + 1;
  }
  auto xpos = [&](const std::string& x) {
    double v = 0;
    if (numeric) {
      as_number(x, v);
      const double t =
          logx ? (std::log(v) - std::log(xmin)) / (std::log(xmax) - std::log(xmin)) : (v - xmin) / (xmax - xmin);
      return left + t * (width - left - right);
    }
    const auto i = double(std::find(xs.begin(), xs.end(), x) - xs.begin());
    return left + i / std::max(1.0, xmax) * (width - left - right);
  };
  // Points in x order, so a sweep listed high-to-low still draws one left-to-right line.
  for (auto& [n, s] : by_name)
    std::stable_sort(s.points.begin(), s.points.end(),
                     [&](const auto& a, const auto& b) { return xpos(a.first) < xpos(b.first); });
  double ymax = 0;
  for (const auto& [n, s] : by_name)
    for (const auto& p : s.points) ymax = std::max(ymax, p.second);
  const double step = ymax > 0 ? std::pow(10.0, std::floor(std::log10(ymax))) : 1.0;
  ymax = ymax > 0 ? std::ceil(ymax / step) * step : 1.0;
  auto ypos = [&](double g) { return height - bottom - g / ymax * (height - top - bottom); };

  std::ostringstream svg;
  svg << fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" font-family=\"sans-serif\" "
      "font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      width, height);
  svg << fmt::format("<text x=\"{}\" y=\"22\" font-size=\"14\">{}</text>\n", left,
                     xml_escape(rows.front()->lab_file + " - GB/s against " + xname));
  svg << fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"black\"/>\n", left, height - bottom,
                     width - right);
  svg << fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"black\"/>\n", left, top,
                     height - bottom);
  for (int i = 0; i <= 5; ++i) {
    const double g = ymax * i / 5;
    svg << fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#ddd\"/>\n", left, ypos(g),
                       width - right);
    svg << fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{:g}</text>\n", left - 6, ypos(g) + 4, g);
  }
  // Label the x values left to right, skipping any that would crowd the one labelled before it.
  std::vector<std::pair<double, std::string>> ticks;
  for (const auto& x : xs) ticks.emplace_back(xpos(x), x);
  std::sort(ticks.begin(), ticks.end());
  double last_label = -1e9;
  for (const auto& [at, x] : ticks) {
    if (at - last_label < 36) continue;
    last_label = at;
    svg << fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", at, height - bottom + 16,
                       xml_escape(tick_text(x)));
  }
  svg << fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}{}</text>\n", (left + width - right) / 2,
                     height - 12, xml_escape(xname), logx ? " (log scale)" : "");
  svg << fmt::format("<text x=\"16\" y=\"{}\" transform=\"rotate(-90 16 {})\" text-anchor=\"middle\">GB/s</text>\n",
                     (top + height - bottom) / 2, (top + height - bottom) / 2);
  for (std::size_t i = 0; i < order.size(); ++i) {
    const series& s = by_name[order[i]];
    const char* colour = palette[i % (sizeof palette / sizeof *palette)];
    std::string pts;
    for (const auto& [x, g] : s.points) pts += fmt::format("{:.1f},{:.1f} ", xpos(x), ypos(g));
    svg << fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>\n", colour, pts);
    for (const auto& [x, g] : s.points)
      svg << fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.5\" fill=\"{}\"/>\n", xpos(x), ypos(g), colour);
    const double ly = top + 14.0 * double(i);
    svg << fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"{3}\" stroke-width=\"2\"/>\n",
                       width - right + 10, ly, width - right + 28, colour);
    svg << fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", width - right + 32, ly + 4, xml_escape(s.name));
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace

std::vector<std::filesystem::path> write_sweep_plots(const std::vector<variant_result>& results,
                                                     const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> written;
  for (const auto& [file, name] : sweep_plot_files(results)) {
    const auto rows = rows_of(results, file);
    const auto path = dir / name;
    create_folder_for(path);
    write_file_atomically(path, plot_svg(rows, swept_names(rows).back()));
    written.push_back(path);
  }
  return written;
}

}  // namespace cudalab::host
