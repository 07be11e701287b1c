// The plots of a run, one SVG per lab file with a timed result. A sweep gets stacked panels over the
// last swept parameter: GB/s with the spread of the repetitions, % of the baseline, and the sectors per
// request the model predicts, a series per variant (and per value of the other swept parameters:
// "variant@block=256"). A lab file of a single point gets a bar chart of its variants.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>

#include "results/format.hpp"
#include "results/plot_axis.hpp"
#include "results/reporter.hpp"
#include "results/safe_file.hpp"
#include "results/svg.hpp"

namespace cudalab::host {

namespace {

constexpr double fig_width = 760, margin_left = 78, margin_right = 24,
                 plot_width = fig_width - margin_left - margin_right;
constexpr double char_width = 7.8;  // of 12 px sans-serif (DejaVu Sans), at most for most text: to lay out labels
constexpr double x_inset = 0.03;    // of the plot's width, kept free at each end so markers clear the frame
const char* const frame_colour = "#444";
const char* const grid_colour = "#ddd";

// A value drawn for one result: y, and the spread around it (lo = hi = y when there is none).
struct plotted {
  double y, lo, hi;
};

// One panel of a sweep plot: what it draws of each result, and how it is labelled.
struct panel {
  std::string id;       // the SVG group's id
  std::string heading;  // above the panel
  std::string y_title;  // beside the y axis
  double height;
  bool from_zero;  // the axis starts at 0 whatever the data
  std::function<std::optional<plotted>(const variant_result&)> value;
  std::optional<double> reference;  // a dashed line across (the heading says what it is)
  // What Nsight Compute counted of the same quantity (run --profile), drawn as a ring; unset: nothing.
  std::function<std::optional<double>(const variant_result&)> measured = {};
};

// `count` (sectors, wavefronts) over the requests of the accesses `kinds` of one memory that the model
// predicted; nullopt without a model or without such accesses.
template <typename Totals>
std::optional<double> per_request(const variant_result& r, std::initializer_list<const Totals*> kinds,
                                  std::uint64_t Totals::*count) {
  if (!r.has_model) return std::nullopt;
  double requests = 0, counted = 0;
  for (const Totals* t : kinds) {
    requests += double(t->requests);
    counted += double(t->*count);
  }
  if (requests == 0) return std::nullopt;
  return counted / requests;
}

// Global sectors per request the model predicts for `r`, over its loads, stores and atomics.
std::optional<double> predicted_sectors_per_request(const variant_result& r) {
  const auto& m = r.model;
  return per_request(r, {&m.global_load, &m.global_store, &m.global_atomic}, &global_totals::sectors);
}

// Shared-memory wavefronts per request the model predicts for `r`, over its loads, stores and atomics
// (the fewest: one per 128 bytes a request moves).
std::optional<double> predicted_wavefronts_per_request(const variant_result& r) {
  const auto& m = r.model;
  return per_request(r, {&m.shared_load, &m.shared_store, &m.shared_atomic}, &shared_totals::wavefronts);
}

// Global sectors per request that Nsight Compute counted for `r`, over its loads, stores and atomics.
std::optional<double> measured_sectors_per_request(const variant_result& r) {
  if (!r.has_measured) return std::nullopt;
  const auto& m = r.measured;
  const double requests = double(m.global_load.requests + m.global_store.requests + m.global_atomic.requests);
  if (requests == 0) return std::nullopt;
  return double(m.global_load.sectors + m.global_store.sectors + m.global_atomic.sectors) / requests;
}

// Shared-memory wavefronts per request that Nsight Compute counted for `r` (those its addresses need).
std::optional<double> measured_wavefronts_per_request(const variant_result& r) {
  if (!r.has_measured) return std::nullopt;
  const auto& m = r.measured;
  const double requests = double(m.shared_load.requests + m.shared_store.requests + m.shared_atomic.requests);
  if (requests == 0) return std::nullopt;
  return double(m.shared_load.address_wavefronts + m.shared_store.address_wavefronts +
                m.shared_atomic.address_wavefronts) /
         requests;
}

// Whether any of `rows` has a value of `f`.
template <typename F>
bool any_has(const std::vector<const variant_result*>& rows, F f) {
  return std::any_of(rows.begin(), rows.end(), [&](const variant_result* r) { return f(*r).has_value(); });
}

// A value without a spread, as a panel draws it.
std::optional<plotted> exact(std::optional<double> v) {
  if (!v) return std::nullopt;
  return plotted{*v, *v, *v};
}

// GB/s at the median, and at the slowest and the fastest repetition.
std::optional<plotted> gbps_of(const variant_result& r) {
  if (!(r.gbps > 0)) return std::nullopt;
  const auto& t = r.time;
  const double lo = t.max_ms > 0 ? r.gbps * t.median_ms / t.max_ms : r.gbps;
  const double hi = t.min_ms > 0 ? r.gbps * t.median_ms / t.min_ms : r.gbps;
  return plotted{r.gbps, std::min(lo, r.gbps), std::max(hi, r.gbps)};
}

std::string shortened(const std::string& s, std::size_t most) {
  return s.size() <= most ? s : s.substr(0, most - 3) + "...";
}

std::string number_text(double v) { return v >= 100 ? fmt::format("{:.0f}", v) : fmt::format("{:.3g}", v); }

// The values of `r`'s swept parameters other than `xname`: "block=256,unroll=2" ("" for none).
std::string other_values(const variant_result& r, const std::string& xname) {
  std::string others;
  for (const auto& [k, v] : r.point)
    if (k != xname) others += (others.empty() ? "" : ",") + k + "=" + v;
  return others;
}

// A sweep plot: panels over the last swept parameter. Its series are the variants, each with the values
// of the other swept parameters ("copy@block=256"), as long as there are few enough to tell apart;
// beyond distinct_styles series the plot is drawn in facets instead, one per value of the other
// parameters, with a series per variant in each.
class sweep_plot {
 public:
  sweep_plot(const std::vector<const variant_result*>& rows, const std::string& xname, const std::string& spacing)
      : rows_(rows), xname_(xname), x_(x_values(rows, xname), spacing) {
    std::vector<std::string> combined, variants;
    for (const variant_result* r : rows) {
      const std::string others = other_values(*r, xname);
      add_once(combined, variant_label(*r) + (others.empty() ? "" : "@" + others));
      add_once(variants, variant_label(*r));
    }
    const bool faceted = combined.size() > distinct_styles && variants.size() < combined.size();
    series_ = faceted ? variants : combined;
    for (const variant_result* r : rows) {
      const std::string others = other_values(*r, xname);
      const std::string facet = faceted ? others : "";
      auto f = std::find_if(facets_.begin(), facets_.end(), [&](const facet_rows& x) { return x.name == facet; });
      if (f == facets_.end())
        f = facets_.insert(facets_.end(), {facet, std::vector<std::vector<const variant_result*>>(series_.size())});
      const std::string name = variant_label(*r) + (faceted || others.empty() ? "" : "@" + others);
      const auto at = std::size_t(std::find(series_.begin(), series_.end(), name) - series_.begin());
      f->series_rows[at].push_back(r);
    }
    for (facet_rows& f : facets_)
      for (auto& one : f.series_rows)
        std::stable_sort(one.begin(), one.end(), [&](const variant_result* a, const variant_result* b) {
          return x_.fraction(point_value(*a, xname_)) < x_.fraction(point_value(*b, xname_));
        });
  }

  std::string render() const {
    const std::vector<panel> panels = panels_shown();
    const double scale = facets_.size() > 1 ? 0.7 : 1.0;  // facets' panels are lower, so the plot stays readable
    const double legend_entry = std::min(plot_width, 34 + char_width * double(longest_name()));
    const std::size_t columns = std::max<std::size_t>(1, std::size_t(plot_width / legend_entry));
    const std::size_t legend_rows = (series_.size() + columns - 1) / columns;
    double facet_height = facets_.size() > 1 ? 22 : 0;
    for (const panel& p : panels) facet_height += p.height * scale + 46;
    const double panels_top = 64;
    double height = panels_top + facet_height * double(facets_.size()) + 14;
    const double legend_top = height + 12;
    height = legend_top + 18.0 * double(legend_rows) + 10;

    svg_document svg(fig_width, height);
    svg.text(12, 22, shortened(rows_.front()->title, 100), text_anchor::start, 14);
    svg.text(12, 42,
             rows_.front()->lab_file + ": against " + xname_ +
                 (x_.kind() == axis_kind::log      ? " (log scale)"
                  : x_.kind() == axis_kind::linear ? ""
                                                   : " (by value)") +
                 (facets_.size() > 1 ? ", one facet per value of the other swept parameters" : ""));
    double top = panels_top;
    for (const facet_rows& f : facets_) {
      if (facets_.size() > 1) {
        svg.open_group("facet " + f.name);
        svg.text(12, top + 12, f.name, text_anchor::start, 13);
        top += 22;
      }
      for (const panel& p : panels) {
        draw_panel(svg, p, f, top + 18, p.height * scale);
        top += p.height * scale + 46;
      }
      if (facets_.size() > 1) svg.close_group();
    }
    svg.text(margin_left + plot_width / 2, top + 8, xname_ + (x_.kind() == axis_kind::log ? " (log scale)" : ""),
             text_anchor::middle);
    draw_legend(svg, legend_top, legend_entry, columns);
    return svg.str();
  }

 private:
  // The rows of one facet, by series (index into series_).
  struct facet_rows {
    std::string name;  // "block=256"; "" when the plot has no facets
    std::vector<std::vector<const variant_result*>> series_rows;
  };

  static void add_once(std::vector<std::string>& names, const std::string& name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }

  static std::vector<std::string> x_values(const std::vector<const variant_result*>& rows, const std::string& xname) {
    std::vector<std::string> xs;
    for (const variant_result* r : rows) add_once(xs, point_value(*r, xname));
    return xs;
  }

  // GB/s when a result was timed; % of the baseline when the lab file has a timed baseline and something
  // to compare with it; global sectors and shared wavefronts per request when the model traced such
  // accesses or Nsight Compute counted them (run --profile: rings beside the predicted markers).
  std::vector<panel> panels_shown() const {
    std::vector<panel> panels;
    if (any_has(rows_, gbps_of))
      panels.push_back({"gbps", "median GB/s; bars: the slowest to the fastest repetition", "GB/s", 240, false, gbps_of,
                        std::nullopt});
    const variant_result* baseline = nullptr;
    for (const variant_result* r : rows_)
      if (r->is_baseline && r->gbps > 0) baseline = r;
    const bool compared = std::any_of(
        rows_.begin(), rows_.end(), [](const variant_result* r) { return !r->is_baseline && r->pct_of_baseline > 0; });
    if (baseline && compared)
      panels.push_back(
          {"pct_of_baseline", "% of the baseline's GB/s at the same point (" + baseline->variant + " = 100, dashed)",
           "% of baseline", 160, false,
           [](const variant_result& r) {
             return exact(r.is_baseline || !(r.pct_of_baseline > 0) ? std::nullopt : std::optional(r.pct_of_baseline));
           },
           100.0});
    // The model's per-request figures, each with Nsight Compute's beside it when it counted them.
    struct per_request_panel {
      const char* id;
      const char* heading;
      const char* y_title;
      std::optional<double> (*predicted)(const variant_result&);
      std::optional<double> (*measured)(const variant_result&);
    };
    const per_request_panel per_request_panels[] = {
        {"sectors_per_request", "global sectors per request, predicted by the model (4 = coalesced)", "sectors/request",
         predicted_sectors_per_request, measured_sectors_per_request},
        {"wavefronts_per_request",
         "shared-memory wavefronts per request, predicted by the model (the fewest: 1 per 128 bytes moved)",
         "wavefronts/request", predicted_wavefronts_per_request, measured_wavefronts_per_request}};
    for (const per_request_panel& q : per_request_panels) {
      const bool counted = any_has(rows_, q.measured);
      if (!counted && !any_has(rows_, q.predicted)) continue;
      panel p{
          q.id, std::string(q.heading) + (counted ? "; rings: counted by Nsight Compute" : ""),     q.y_title,   160,
          true, [predicted = q.predicted](const variant_result& r) { return exact(predicted(r)); }, std::nullopt};
      if (counted) p.measured = q.measured;
      panels.push_back(p);
    }
    return panels;
  }

  std::size_t longest_name() const {
    std::size_t n = 0;
    for (const std::string& s : series_) n = std::max(n, shortened(s, 60).size());
    return n;
  }

  double x_at(const std::string& value) const {
    return margin_left + (x_inset + (1 - 2 * x_inset) * x_.fraction(value)) * plot_width;
  }

  void draw_panel(svg_document& svg, const panel& p, const facet_rows& f, double top, double height) const {
    double lo = INFINITY, hi = 0;
    for (const auto& one : f.series_rows)
      for (const variant_result* r : one) {
        if (auto v = p.value(*r)) {
          lo = std::min(lo, v->lo);
          hi = std::max(hi, v->hi);
        }
        if (auto m = p.measured ? p.measured(*r) : std::nullopt) {
          lo = std::min(lo, *m);
          hi = std::max(hi, *m);
        }
      }
    if (p.reference) {
      lo = std::min(lo, *p.reference);
      hi = std::max(hi, *p.reference);
    }
    const y_axis y = fit_y_axis(lo, hi, p.from_zero);
    const double bottom = top + height;
    auto y_at = [&](double v) { return bottom - y.fraction(v) * height; };

    svg.open_group(f.name.empty() ? p.id : p.id + " " + f.name);
    svg.text(margin_left, top - 6, p.heading + (y.from_zero ? "" : "; the axis does not start at 0"));
    const double step = y.ticks.size() > 1 ? y.ticks[1] - y.ticks[0] : 1;
    for (double t : y.ticks) {
      svg.line(margin_left, y_at(t), margin_left + plot_width, y_at(t), grid_colour);
      svg.text(margin_left - 6, y_at(t) + 4, tick_text(t, step), text_anchor::end);
    }
    svg.line(margin_left, bottom, margin_left + plot_width, bottom, frame_colour);
    svg.line(margin_left, top, margin_left, bottom, frame_colour);
    svg.text(18, top + height / 2, p.y_title, text_anchor::middle, 12, -90);
    draw_x_ticks(svg, bottom);
    if (p.reference)
      svg.line(margin_left, y_at(*p.reference), margin_left + plot_width, y_at(*p.reference), frame_colour, 1, "6 4");
    for (std::size_t i = 0; i < series_.size(); ++i) {
      const series_style style = style_of(i);
      std::vector<std::pair<double, double>> line;
      for (const variant_result* r : f.series_rows[i])
        if (auto v = p.value(*r)) line.emplace_back(x_at(point_value(*r, xname_)), y_at(v->y));
      if (line.size() > 1) svg.polyline(line, style.colour, 1.5, style.dashed ? "5 3" : "");
      for (const variant_result* r : f.series_rows[i]) {
        auto v = p.value(*r);
        if (!v) continue;
        const double x = x_at(point_value(*r, xname_));
        if (v->hi > v->lo) {
          svg.line(x, y_at(v->lo), x, y_at(v->hi), style.colour);
          svg.line(x - 3, y_at(v->lo), x + 3, y_at(v->lo), style.colour);
          svg.line(x - 3, y_at(v->hi), x + 3, y_at(v->hi), style.colour);
        }
        svg.marker(style.marker, x, y_at(v->y), style.colour,
                   fmt::format("{}{} at {}={}: {}", series_[i], f.name.empty() ? "" : "@" + f.name, xname_,
                               point_value(*r, xname_), number_text(v->y)));
      }
      if (p.measured)
        for (const variant_result* r : f.series_rows[i])
          if (auto m = p.measured(*r))
            svg.ring(x_at(point_value(*r, xname_)), y_at(*m), style.colour,
                     fmt::format("{}{} at {}={}: {} counted", series_[i], f.name.empty() ? "" : "@" + f.name, xname_,
                                 point_value(*r, xname_), number_text(*m)));
    }
    svg.close_group();
  }

  // The swept values under the axis, left to right, skipping any that would crowd the one before.
  void draw_x_ticks(svg_document& svg, double bottom) const {
    double last = -1e9;
    for (const std::string& value : x_.values()) {
      const double at = x_at(value);
      svg.line(at, bottom, at, bottom + 4, frame_colour);
      const std::string label = size_text(value);
      const double room = std::max(36.0, char_width * double(label.size()) + 8);
      if (at - last < room) continue;
      last = at;
      svg.text(at, bottom + 17, label, text_anchor::middle);
    }
  }

  void draw_legend(svg_document& svg, double top, double entry, std::size_t columns) const {
    svg.open_group("legend");
    for (std::size_t i = 0; i < series_.size(); ++i) {
      const series_style style = style_of(i);
      const std::size_t row = i / columns, column = i % columns;
      const double x = margin_left + entry * double(column), y = top + 18.0 * double(row);
      svg.line(x, y, x + 24, y, style.colour, 1.5, style.dashed ? "5 3" : "");
      svg.marker(style.marker, x + 12, y, style.colour);
      svg.text(x + 30, y + 4, shortened(series_[i], 60));
    }
    svg.close_group();
  }

  std::vector<const variant_result*> rows_;
  std::string xname_;
  sweep_x_axis x_;
  std::vector<std::string> series_;  // names, in first-seen order: series i is drawn in style_of(i)
  std::vector<facet_rows> facets_;
};

// The frame of a horizontal bar chart whose bars start at `x0` and whose values span `bar_width` px on
// `axis`, from `top` to `bottom`: a grid line and a label per tick, the two axis lines.
void draw_bar_frame(svg_document& svg, const y_axis& axis, double x0, double bar_width, double top, double bottom) {
  auto x_at = [&](double v) { return x0 + axis.fraction(v) * bar_width; };
  const double step = axis.ticks.size() > 1 ? axis.ticks[1] - axis.ticks[0] : 1;
  for (double t : axis.ticks) {
    svg.line(x_at(t), top, x_at(t), bottom, grid_colour);
    svg.text(x_at(t), bottom + 16, tick_text(t, step), text_anchor::middle);
  }
  svg.line(x0, top, x0, bottom, frame_colour);
  svg.line(x0, bottom, x0 + bar_width, bottom, frame_colour);
}

// A lab file of one point with counters and nothing timed (run --profile): for each quantity (global
// sectors and shared wavefronts per request) a pair of bars per variant that has it, the model's filled
// and Nsight Compute's outlined below it, from 0, each pair's values written beside it.
std::string counters_chart(const std::vector<const variant_result*>& all_rows) {
  struct quantity {
    const char* id;
    const char* heading;
    std::optional<double> (*predicted)(const variant_result&);
    std::optional<double> (*measured)(const variant_result&);
  };
  const quantity quantities[] = {
      {"sectors_per_request", "global sectors per request (4 = coalesced)", predicted_sectors_per_request,
       measured_sectors_per_request},
      {"wavefronts_per_request", "shared-memory wavefronts per request (the fewest: 1 per 128 bytes moved)",
       predicted_wavefronts_per_request, measured_wavefronts_per_request}};
  const double row_height = 22, heading_height = 30, axis_height = 30, top = 58;
  std::size_t longest = 0;
  double height = top;
  for (const quantity& q : quantities) {
    std::size_t rows = 0;
    for (const variant_result* r : all_rows)
      if (q.predicted(*r) || q.measured(*r)) {
        ++rows;
        longest = std::max(longest, shortened(variant_label(*r), 40).size());
      }
    if (rows > 0) height += heading_height + row_height * double(rows) + axis_height;
  }
  const double label_width = std::clamp(char_width * double(longest) + 8, 80.0, 320.0);
  const double notes_width = 0.85 * char_width * 36 + 16;  // "12.00 predicted, 12.00 counted" in 11 px
  const double x0 = 12 + label_width;
  const double width = std::ceil(std::max(fig_width, x0 + 300 + notes_width + 12));
  const double bar_width = width - x0 - notes_width - 12;
  svg_document svg(width, height + 10);
  svg.text(12, 22, shortened(all_rows.front()->title, 100), text_anchor::start, 14);
  svg.text(12, 42,
           all_rows.front()->lab_file + ": filled, the model's prediction; outlined, what Nsight Compute counted");
  double y = top;
  for (const quantity& q : quantities) {
    std::vector<const variant_result*> rows;
    double hi = 0;
    for (const variant_result* r : all_rows) {
      const auto p = q.predicted(*r), m = q.measured(*r);
      if (!p && !m) continue;
      rows.push_back(r);
      hi = std::max({hi, p.value_or(0), m.value_or(0)});
    }
    if (rows.empty()) continue;
    const y_axis axis = fit_y_axis(0, hi);
    auto x_at = [&](double v) { return x0 + axis.fraction(v) * bar_width; };
    svg.open_group(q.id);
    svg.text(12, y + 18, q.heading, text_anchor::start, 13);
    const double first = y + heading_height, bottom = first + row_height * double(rows.size());
    draw_bar_frame(svg, axis, x0, bar_width, first, bottom);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const variant_result& r = *rows[i];
      const series_style style = style_of(i);
      const double row_top = first + row_height * double(i) + 3;
      svg.text(x0 - 6, row_top + 12, shortened(variant_label(r), 40), text_anchor::end);
      const auto p = q.predicted(r), m = q.measured(r);
      if (p) svg.rect(x0, row_top, x_at(*p) - x0, 7, style.colour);
      if (m) svg.outline(x0, row_top + 8, x_at(*m) - x0, 7, style.colour);
      const auto value = [](const std::optional<double>& v) {
        return v ? fmt::format("{:.2f}", *v) : std::string("-");
      };
      svg.text(x0 + bar_width + 8, row_top + 12, value(p) + " predicted, " + value(m) + " counted", text_anchor::start,
               11);
    }
    svg.close_group();
    y = bottom + axis_height;
  }
  return svg.str();
}

// A lab file of one point: a bar per timed variant (GB/s from 0, whiskers from the slowest to the
// fastest repetition), its % of the baseline and predicted sectors per request written beside it.
std::string bar_chart(const std::vector<const variant_result*>& all_rows) {
  std::vector<const variant_result*> rows;
  for (const variant_result* r : all_rows)
    if (r->gbps > 0) rows.push_back(r);
  if (rows.empty()) return counters_chart(all_rows);  // run --profile: counters, nothing timed
  std::vector<std::string> notes;
  std::size_t longest = 0, longest_note = 0;
  for (const variant_result* r : rows) {
    std::string note = fmt::format("{} GB/s", number_text(r->gbps));
    if (!r->is_baseline && r->pct_of_baseline > 0) note += fmt::format(", {:.1f}% of baseline", r->pct_of_baseline);
    if (auto s = predicted_sectors_per_request(*r)) note += fmt::format(", {:.2f} sectors/req", *s);
    if (auto w = predicted_wavefronts_per_request(*r)) note += fmt::format(", {:.2f} wavefronts/req", *w);
    longest_note = std::max(longest_note, note.size());
    notes.push_back(std::move(note));
    longest = std::max(longest, shortened(variant_label(*r), 40).size());
  }
  const double label_width = std::clamp(char_width * double(longest) + 8, 80.0, 320.0);
  const double notes_width = 0.85 * char_width * double(longest_note) + 16;  // in 11 px
  const double x0 = 12 + label_width, min_bars = 300;
  const double width = std::ceil(std::max(fig_width, x0 + min_bars + notes_width + 12));  // whole pixels
  const double bar_width = width - x0 - notes_width - 12;
  const double row_height = 26, top = 58;
  const double height = top + row_height * double(rows.size()) + 52;

  double hi = 0;
  for (const variant_result* r : rows) hi = std::max(hi, gbps_of(*r)->hi);
  const y_axis axis = fit_y_axis(0, hi);  // bars start at 0
  auto x_at = [&](double v) { return x0 + axis.fraction(v) * bar_width; };

  svg_document svg(width, height);
  svg.text(12, 22, shortened(rows.front()->title, 100), text_anchor::start, 14);
  svg.text(12, 42,
           rows.front()->lab_file + ": median GB/s of each variant; whiskers: the slowest to the fastest repetition");
  const double bottom = top + row_height * double(rows.size());
  draw_bar_frame(svg, axis, x0, bar_width, top, bottom);
  svg.text(x0 + bar_width / 2, bottom + 36, "GB/s", text_anchor::middle);
  svg.open_group("bars");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const variant_result& r = *rows[i];
    const series_style style = style_of(i);
    const plotted v = *gbps_of(r);
    const double y = top + row_height * double(i) + 5, mid = y + 8;
    svg.text(x0 - 6, mid + 4, shortened(variant_label(r), 40), text_anchor::end);
    svg.rect(x0, y, x_at(v.y) - x0, 16, style.colour);
    if (v.hi > v.lo) {
      svg.line(x_at(v.lo), mid, x_at(v.hi), mid, frame_colour);
      svg.line(x_at(v.lo), mid - 4, x_at(v.lo), mid + 4, frame_colour);
      svg.line(x_at(v.hi), mid - 4, x_at(v.hi), mid + 4, frame_colour);
    }
    svg.text(x0 + bar_width + 8, mid + 4, notes[i], text_anchor::start, 11);
  }
  svg.close_group();
  return svg.str();
}

// How the lab file's context describes axis `name`'s spacing, "" when it does not.
std::string spacing_of(const std::vector<lab_description>& labs, const std::string& file, const std::string& name) {
  for (const lab_description& l : labs)
    if (l.file == file)
      for (const auto& [axis, spacing] : l.sweep_spacing)
        if (axis == name) return spacing;
  return "";
}

}  // namespace

std::vector<std::filesystem::path> write_plots(const std::vector<variant_result>& results,
                                               const std::vector<lab_description>& labs,
                                               const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> written;
  for (const auto& [file, name] : plot_files(results)) {
    const auto rows = rows_of(results, file);
    const auto swept = swept_names(rows);
    const auto path = dir / name;
    create_folder_for(path);
    if (swept.empty())
      write_file_atomically(path, bar_chart(rows));
    else
      write_file_atomically(path, sweep_plot(rows, swept.back(), spacing_of(labs, file, swept.back())).render());
    written.push_back(path);
  }
  return written;
}

}  // namespace cudalab::host
