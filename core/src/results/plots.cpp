// The plots of a run, one SVG per lab file with a timed result. A sweep gets stacked panels against a
// swept parameter (the last whose values are numbers): GB/s with the spread of the repetitions, % of
// the baseline, and the sectors and wavefronts per request the model predicts. The plot encodes the
// lab's structure: each variant a colour and marker of its own, the same in every plot of the run; a
// second swept parameter of a few numbers a dash pattern; any other swept parameter (a categorical one
// such as a distribution, or one of many values) small multiples, a facet per value side by side on
// shared axes. The legend sits beside the panels; GB/s and % of the baseline go on a log axis where they
// span decades. A lab file of a single point gets a bar chart of its variants.
#include "results/plots.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "results/format.hpp"
#include "results/plot_axis.hpp"
#include "results/reporter.hpp"
#include "results/safe_file.hpp"
#include "results/svg.hpp"

namespace cudalab::host {

namespace {

constexpr double fig_width = 760;  // the bar charts' least width
constexpr double margin_left = 78, margin_top = 64;
constexpr double single_width = 640;     // the panels' width in a plot without facets
constexpr double facet_gap = 20;         // between facets side by side
constexpr std::size_t most_columns = 3;  // facets side by side; more go on further rows
constexpr double legend_gap = 28;        // between the panels and the legend
constexpr double char_width = 7.8;       // of 12 px sans-serif (DejaVu Sans), at most for most text: to lay out labels
constexpr double x_inset = 0.03;         // of the plot's width, kept free at each end so markers clear the frame
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
  bool may_log;    // a log axis where the values span decades (spans_decades)
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

// `count` summed over the accesses `kinds` of one memory, the model's or Nsight Compute's (`has`: that
// side has figures); nullopt without such accesses.
template <typename Totals>
std::optional<double> total_over(bool has, std::initializer_list<const Totals*> kinds, std::uint64_t Totals::*count) {
  if (!has) return std::nullopt;
  std::uint64_t requests = 0, counted = 0;
  for (const Totals* t : kinds) {
    requests += t->requests;
    counted += t->*count;
  }
  if (requests == 0) return std::nullopt;
  return double(counted);
}

// Global sectors over `r`'s whole run (loads, stores and atomics), what a lab whose lesson is traffic is
// about: the model's, and what Nsight Compute counted.
std::optional<double> predicted_sectors_total(const variant_result& r) {
  const auto& m = r.model;
  return total_over(r.has_model, {&m.global_load, &m.global_store, &m.global_atomic}, &global_totals::sectors);
}
std::optional<double> measured_sectors_total(const variant_result& r) {
  const auto& m = r.measured;
  return total_over(r.has_measured, {&m.global_load, &m.global_store, &m.global_atomic}, &measured_global::sectors);
}

// Shared-memory wavefronts over `r`'s whole run: the model's, and those Nsight Compute counted the
// addresses need.
std::optional<double> predicted_wavefronts_total(const variant_result& r) {
  const auto& m = r.model;
  return total_over(r.has_model, {&m.shared_load, &m.shared_store, &m.shared_atomic}, &shared_totals::wavefronts);
}
std::optional<double> measured_wavefronts_total(const variant_result& r) {
  const auto& m = r.measured;
  return total_over(r.has_measured, {&m.shared_load, &m.shared_store, &m.shared_atomic},
                    &measured_shared::address_wavefronts);
}

// Whether the lab file `file` says its lesson is traffic ([lab] lesson = "traffic").
bool traffic_lesson(const std::vector<lab_description>& labs, const std::string& file) {
  return std::any_of(labs.begin(), labs.end(),
                     [&](const lab_description& l) { return l.file == file && l.lesson == "traffic"; });
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

// The values `rows` have of swept parameter `name`, in the order they first appear.
std::vector<std::string> values_of(const std::vector<const variant_result*>& rows, const std::string& name) {
  std::vector<std::string> values;
  for (const variant_result* r : rows) {
    const std::string v = point_value(*r, name);
    if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
  }
  return values;
}

bool all_numbers(const std::vector<std::string>& values) {
  return std::all_of(values.begin(), values.end(), [](const std::string& v) { return number_in(v).has_value(); });
}

// How the lab file's context describes axis `name`'s spacing, "" when it does not.
std::string spacing_of(const std::vector<lab_description>& labs, const std::string& file, const std::string& name) {
  for (const lab_description& l : labs)
    if (l.file == file)
      for (const auto& [axis, spacing] : l.sweep_spacing)
        if (axis == name) return spacing;
  return "";
}

// The parameter a sweep is drawn against: the last swept one whose values are all numbers, else the last.
std::string x_parameter(const std::vector<const variant_result*>& rows, const std::vector<std::string>& swept) {
  for (auto it = swept.rbegin(); it != swept.rend(); ++it)
    if (all_numbers(values_of(rows, *it))) return *it;
  return swept.back();
}

// The x axis of a sweep plot: a swept parameter, and the parameters zipped with it ([[sweep.zip]]) that
// move with it (none for an axis of its own): they make neither dash patterns nor facets.
struct x_choice {
  std::string name;
  std::vector<std::string> partners;

  bool moves_with_x(const std::string& parameter) const {
    return parameter == name || std::find(partners.begin(), partners.end(), parameter) != partners.end();
  }
};

// The x axis of lab file `file`'s plot: `chosen` (x_parameter's), unless that moves in a zipped group;
// then the group's first parameter whose values all differ, the group's others moving with it. A group
// with no such parameter (each value repeated somewhere) is plotted as a product: against `chosen`.
x_choice x_axis_of(const std::vector<lab_description>& labs, const std::string& file, const std::string& chosen) {
  for (const lab_description& l : labs) {
    if (l.file != file) continue;
    for (const std::vector<std::string>& group : l.sweep_zip) {
      if (std::find(group.begin(), group.end(), chosen) == group.end()) continue;
      for (const std::string& name : group) {
        const auto axis = std::find_if(l.sweep.begin(), l.sweep.end(), [&](const auto& a) { return a.first == name; });
        if (axis == l.sweep.end()) continue;
        const std::set<std::string> distinct(axis->second.begin(), axis->second.end());
        if (distinct.size() != axis->second.size()) continue;
        x_choice x{name, {}};
        for (const std::string& other : group)
          if (other != name) x.partners.push_back(other);
        return x;
      }
    }
  }
  return {chosen, {}};
}

// A sweep plot: panels against one swept parameter (and those zipped with it), a series per variant
// (and value of the dashed parameter), in facets by the other swept parameters.
class sweep_plot {
 public:
  sweep_plot(const std::vector<const variant_result*>& rows, const std::vector<std::string>& swept,
             const std::vector<lab_description>& labs, const std::map<std::string, std::size_t>& styles)
      : rows_(rows),
        styles_(styles),
        along_(x_axis_of(labs, rows.front()->lab_file, x_parameter(rows, swept))),
        xname_(along_.name),
        x_(values_of(rows, xname_), spacing_of(labs, rows.front()->lab_file, xname_)),
        traffic_(traffic_lesson(labs, rows.front()->lab_file)) {
    // A second parameter of a few numbers is a dash pattern; every other one that varies makes facets.
    for (const std::string& name : swept) {
      if (along_.moves_with_x(name)) continue;
      std::vector<std::string> values = values_of(rows, name);
      if (values.size() < 2) continue;
      if (dashed_name_.empty() && values.size() <= distinct_dashes && all_numbers(values)) {
        dashed_name_ = name;
        std::stable_sort(values.begin(), values.end(),
                         [](const std::string& a, const std::string& b) { return *number_in(a) < *number_in(b); });
        dashed_values_ = std::move(values);
      } else {
        facet_names_.push_back(name);
      }
    }
    for (const variant_result* r : rows) {
      if (std::none_of(variants_.begin(), variants_.end(),
                       [&](const shown_variant& v) { return v.name == r->variant; }))
        variants_.push_back({r->variant, variant_label(*r)});
      add_once(facet_keys_, facet_of(*r));
    }
    // Series grouped by variant, each variant's in the dashed parameter's order.
    for (const shown_variant& v : variants_)
      for (std::size_t d = 0; d < std::max<std::size_t>(1, dashed_values_.size()); ++d)
        if (std::any_of(rows.begin(), rows.end(),
                        [&](const variant_result* r) { return r->variant == v.name && dash_index(*r) == d; }))
          series_.push_back({v.name, v.label, d});
    for (const std::string& name : facet_keys_) {
      facet_rows f{name, std::vector<std::vector<const variant_result*>>(series_.size())};
      for (const variant_result* r : rows)
        if (facet_of(*r) == name) f.series_rows[series_index(*r)].push_back(r);
      for (auto& one : f.series_rows)
        std::stable_sort(one.begin(), one.end(), [&](const variant_result* a, const variant_result* b) {
          return x_.fraction(point_value(*a, xname_)) < x_.fraction(point_value(*b, xname_));
        });
      facets_.push_back(std::move(f));
    }
  }

  std::string render(const std::string& id_prefix) const {
    const std::vector<panel> panels = panels_shown();
    const std::size_t n = facets_.size(), columns = std::min(n, most_columns), grid_rows = (n + columns - 1) / columns;
    const bool faceted = n > 1;
    const double cell = !faceted ? single_width : columns == 2 ? 310 : 240;
    const double scale = faceted ? 0.7 : 1.0;  // facets' panels are lower, so the plot stays readable
    double cell_height = faceted ? 22 : 0;
    for (const panel& p : panels) cell_height += p.height * scale + 46;
    const double panels_right = margin_left + double(columns) * cell + double(columns - 1) * facet_gap;
    const double legend_x = panels_right + legend_gap;
    const double panels_bottom = margin_top + cell_height * double(grid_rows);
    const double width = std::ceil(legend_x + legend_width() + 12);
    const double height = std::max(panels_bottom + 24, margin_top + legend_height() + 12);
    std::vector<y_axis> axes;
    for (const panel& p : panels) axes.push_back(axis_of(p));

    svg_document svg(width, height, id_prefix);
    svg.text(12, 22, shortened(rows_.front()->title, 100), text_anchor::start, 14);
    svg.text(12, 42,
             rows_.front()->lab_file + ": against " + x_title() + x_kind_text() +
                 (faceted ? ", a facet per " + words(facet_names_) : "") +
                 (dashed_name_.empty() ? "" : ", a dash pattern per " + dashed_name_));
    for (std::size_t i = 0; i < n; ++i) {
      const facet_rows& f = facets_[i];
      const std::size_t row = i / columns, column = i % columns;
      const double left = margin_left + double(column) * (cell + facet_gap);
      double top = margin_top + double(row) * cell_height;
      if (faceted) {
        svg.open_group("facet " + f.name);
        svg.text(left + cell / 2, top + 12, f.name, text_anchor::middle, 13);
        top += 22;
      }
      for (std::size_t k = 0; k < panels.size(); ++k) {
        draw_panel(svg, panels[k], axes[k], f, {left, cell, top + 18, panels[k].height * scale, column == 0});
        top += panels[k].height * scale + 46;
      }
      if (faceted) svg.close_group();
    }
    svg.text(margin_left + (panels_right - margin_left) / 2, panels_bottom + 8,
             x_title() + (x_.kind() == axis_kind::log ? " (log scale)" : ""), text_anchor::middle);
    draw_legend(svg, legend_x, margin_top + 4);
    return svg.str();
  }

 private:
  struct shown_variant {
    std::string name, label;  // label: "cub (baseline)"
  };
  struct series {
    std::string variant, label;
    std::size_t dash;  // index into dashed_values_ (0 when there is no dashed parameter)
  };
  // The rows of one facet, by series (index into series_).
  struct facet_rows {
    std::string name;  // "distribution=uniform"; "" when the plot has no facets
    std::vector<std::vector<const variant_result*>> series_rows;
  };
  // Where a panel is drawn: its left edge and width, top and height (px), and whether it is in the
  // first column of facets (the one that carries the y axis's labels and the panel's heading).
  struct place {
    double left, width, top, height;
    bool first_column;
  };

  static void add_once(std::vector<std::string>& names, const std::string& name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }

  static std::string words(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
  }

  std::string x_kind_text() const {
    return x_.kind() == axis_kind::log ? " (log scale)" : x_.kind() == axis_kind::linear ? "" : " (by value)";
  }

  // "distribution=uniform,block=64": `r`'s values of the facets' parameters ("" without facets).
  std::string facet_of(const variant_result& r) const {
    std::string name;
    for (const std::string& p : facet_names_) name += (name.empty() ? "" : ",") + p + "=" + point_value(r, p);
    return name;
  }

  std::size_t dash_index(const variant_result& r) const {
    if (dashed_name_.empty()) return 0;
    const auto at = std::find(dashed_values_.begin(), dashed_values_.end(), point_value(r, dashed_name_));
    return std::size_t(at - dashed_values_.begin());
  }

  std::size_t series_index(const variant_result& r) const {
    const std::size_t d = dash_index(r);
    const auto at = std::find_if(series_.begin(), series_.end(),
                                 [&](const series& s) { return s.variant == r.variant && s.dash == d; });
    return std::size_t(at - series_.begin());
  }

  series_style style_for(const std::string& variant) const {
    const auto at = styles_.find(variant);
    return style_of(at == styles_.end() ? 0 : at->second);
  }

  // GB/s when a result was timed; % of the baseline when the lab file has a timed baseline and something
  // to compare with it; global sectors and shared wavefronts per request when the model traced such
  // accesses or Nsight Compute counted them (run --profile: rings beside the predicted markers), and
  // their totals over the run too where the lab file's lesson is traffic ([lab] lesson = "traffic").
  std::vector<panel> panels_shown() const {
    std::vector<panel> panels;
    if (any_has(rows_, gbps_of))
      panels.push_back({"gbps", "median GB/s; bars: the slowest to the fastest repetition", "GB/s", 240, false, true,
                        gbps_of, std::nullopt});
    const variant_result* baseline = nullptr;
    for (const variant_result* r : rows_)
      if (r->is_baseline && r->gbps > 0) baseline = r;
    const bool compared = std::any_of(
        rows_.begin(), rows_.end(), [](const variant_result* r) { return !r->is_baseline && r->pct_of_baseline > 0; });
    if (baseline && compared)
      panels.push_back(
          {"pct_of_baseline", "% of the baseline's GB/s at the same point (" + baseline->variant + " = 100, dashed)",
           "% of baseline", 160, false, true,
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
      bool total = false;  // a total over the run: drawn where the lesson is traffic, on a log axis over decades
    };
    const per_request_panel per_request_panels[] = {
        {"sectors_per_request", "global sectors per request, predicted by the model (4 = coalesced)", "sectors/request",
         predicted_sectors_per_request, measured_sectors_per_request},
        {"wavefronts_per_request",
         "shared-memory wavefronts per request, predicted by the model (the fewest: 1 per 128 bytes moved)",
         "wavefronts/request", predicted_wavefronts_per_request, measured_wavefronts_per_request},
        {"sectors_total", "global sectors in total over each run, predicted by the model: the traffic", "sectors",
         predicted_sectors_total, measured_sectors_total, true},
        {"wavefronts_total", "shared-memory wavefronts in total over each run, predicted by the model", "wavefronts",
         predicted_wavefronts_total, measured_wavefronts_total, true}};
    for (const per_request_panel& q : per_request_panels) {
      if (q.total && !traffic_) continue;
      const bool counted = any_has(rows_, q.measured);
      if (!counted && !any_has(rows_, q.predicted)) continue;
      panel p{q.id,
              std::string(q.heading) + (counted ? "; rings: counted by Nsight Compute" : ""),
              q.y_title,
              160,
              true,
              q.total,
              [predicted = q.predicted](const variant_result& r) { return exact(predicted(r)); },
              std::nullopt};
      if (counted) p.measured = q.measured;
      panels.push_back(p);
    }
    return panels;
  }

  // The panel's y axis, shared by every facet: over all its values, the spreads, the counted values
  // and the reference line; logarithmic where the panel may be and the values span decades.
  y_axis axis_of(const panel& p) const {
    double lo = INFINITY, hi = 0;
    auto take = [&](double lower, double upper) {
      lo = std::min(lo, lower);
      hi = std::max(hi, upper);
    };
    for (const variant_result* r : rows_) {
      if (auto v = p.value(*r)) take(v->lo, v->hi);
      if (auto m = p.measured ? p.measured(*r) : std::nullopt) take(*m, *m);
    }
    if (p.reference) take(*p.reference, *p.reference);
    if (p.may_log && spans_decades(lo, hi)) return fit_log_y_axis(lo, hi);
    return fit_y_axis(lo, hi, p.from_zero);
  }

  double x_at(const std::string& value, double left, double width) const {
    return left + (x_inset + (1 - 2 * x_inset) * x_.fraction(value)) * width;
  }

  void draw_panel(svg_document& svg, const panel& p, const y_axis& y, const facet_rows& f, const place& at) const {
    const double bottom = at.top + at.height, right = at.left + at.width;
    auto y_at = [&](double v) { return bottom - y.fraction(v) * at.height; };
    auto x_of = [&](const variant_result& r) { return x_at(point_value(r, xname_), at.left, at.width); };

    svg.open_group(f.name.empty() ? p.id : p.id + " " + f.name);
    if (at.first_column)
      svg.text(margin_left, at.top - 6,
               p.heading + (y.log         ? "; log scale"
                            : y.from_zero ? ""
                                          : "; the axis does not start at 0"));
    const double step = y.ticks.size() > 1 ? y.ticks[1] - y.ticks[0] : 1;
    for (double t : y.ticks) {
      svg.line(at.left, y_at(t), right, y_at(t), grid_colour);
      if (at.first_column) svg.text(at.left - 6, y_at(t) + 4, tick_text(t, y.log ? t : step), text_anchor::end);
    }
    svg.line(at.left, bottom, right, bottom, frame_colour);
    svg.line(at.left, at.top, at.left, bottom, frame_colour);
    if (at.first_column) svg.text(18, at.top + at.height / 2, p.y_title, text_anchor::middle, 12, -90);
    draw_x_ticks(svg, at.left, at.width, bottom);
    if (p.reference) svg.line(at.left, y_at(*p.reference), right, y_at(*p.reference), frame_colour, 1, "6 4");
    for (std::size_t i = 0; i < series_.size(); ++i) {
      const series& s = series_[i];
      const series_style style = style_for(s.variant);
      const std::string name = s.label +
                               (dashed_name_.empty() ? "" : "@" + dashed_name_ + "=" + dashed_values_[s.dash]) +
                               (f.name.empty() ? "" : "@" + f.name);
      std::vector<std::pair<double, double>> line;
      for (const variant_result* r : f.series_rows[i])
        if (auto v = p.value(*r)) line.emplace_back(x_of(*r), y_at(v->y));
      if (line.size() > 1) svg.polyline(line, style.colour, 1.5, dash_of(s.dash));
      for (const variant_result* r : f.series_rows[i]) {
        auto v = p.value(*r);
        if (!v) continue;
        const double x = x_of(*r);
        if (v->hi > v->lo) {
          svg.line(x, y_at(v->lo), x, y_at(v->hi), style.colour);
          svg.line(x - 3, y_at(v->lo), x + 3, y_at(v->lo), style.colour);
          svg.line(x - 3, y_at(v->hi), x + 3, y_at(v->hi), style.colour);
        }
        svg.marker(style.marker, x, y_at(v->y), style.colour,
                   fmt::format("{} at {}: {}", name, at_text(*r), number_text(v->y)));
      }
      if (p.measured)
        for (const variant_result* r : f.series_rows[i])
          if (auto m = p.measured(*r))
            svg.ring(x_of(*r), y_at(*m), style.colour,
                     fmt::format("{} at {}: {} counted", name, at_text(*r), number_text(*m)));
    }
    svg.close_group();
  }

  // The swept values under the axis, left to right, skipping any that would crowd the one before.
  void draw_x_ticks(svg_document& svg, double left, double width, double bottom) const {
    double last = -1e9;
    for (const std::string& value : x_.values()) {
      const double at = x_at(value, left, width);
      svg.line(at, bottom, at, bottom + 4, frame_colour);
      const std::string label = size_text(value);
      const double room = std::max(36.0, char_width * double(label.size()) + 8);
      if (at - last < room) continue;
      last = at;
      svg.text(at, bottom + 17, label, text_anchor::middle);
    }
  }

  // The legend's entries: each variant, then each value of the dashed parameter.
  std::vector<std::string> legend_texts() const {
    std::vector<std::string> texts;
    for (const shown_variant& v : variants_) texts.push_back(shortened(v.label, 40));
    for (const std::string& value : dashed_values_)
      texts.push_back(shortened(dashed_name_ + "=" + size_text(value), 40));
    return texts;
  }

  double legend_width() const {
    std::size_t longest = 0;
    for (const std::string& t : legend_texts()) longest = std::max(longest, t.size());
    return 30 + char_width * double(longest);
  }

  double legend_height() const { return 18.0 * double(legend_texts().size()) + (dashed_values_.empty() ? 0 : 8); }

  // Beside the panels, one entry a line: a variant's colour and marker, then a dash pattern per value of
  // the dashed parameter, drawn in the frame's grey.
  void draw_legend(svg_document& svg, double x, double top) const {
    const std::vector<std::string> texts = legend_texts();
    svg.open_group("legend");
    double y = top;
    for (std::size_t i = 0; i < variants_.size(); ++i, y += 18) {
      const series_style style = style_for(variants_[i].name);
      svg.line(x, y, x + 24, y, style.colour, 1.5);
      svg.marker(style.marker, x + 12, y, style.colour);
      svg.text(x + 30, y + 4, texts[i]);
    }
    y += 8;
    for (std::size_t k = 0; k < dashed_values_.size(); ++k, y += 18) {
      svg.line(x, y, x + 24, y, frame_colour, 1.5, dash_of(k));
      svg.text(x + 30, y + 4, texts[variants_.size() + k]);
    }
    svg.close_group();
  }

  // The x axis in words: "nx", or "nx (with ny)" for a zipped group's.
  std::string x_title() const {
    std::string with;
    for (const std::string& p : along_.partners) with += (with.empty() ? "" : ", ") + p;
    return xname_ + (with.empty() ? "" : " (with " + with + ")");
  }

  // Where `r` lies on the x axis in words: "nx=1000", "nx=1000 ny=1000" for a zipped group's.
  std::string at_text(const variant_result& r) const {
    std::string text = xname_ + "=" + point_value(r, xname_);
    for (const std::string& p : along_.partners) text += " " + p + "=" + point_value(r, p);
    return text;
  }

  std::vector<const variant_result*> rows_;
  const std::map<std::string, std::size_t>& styles_;
  x_choice along_;
  std::string xname_;
  sweep_x_axis x_;
  bool traffic_ = false;                    // the lab file's lesson is traffic: the model's totals get panels too
  std::string dashed_name_;                 // the parameter drawn as dash patterns, "" for none
  std::vector<std::string> dashed_values_;  // its values, ascending: value k is dash_of(k)
  std::vector<std::string> facet_names_;    // the parameters that make facets, in sweep order
  std::vector<std::string> facet_keys_;     // each facet's name, in the order first seen
  std::vector<shown_variant> variants_;     // in the order first seen
  std::vector<series> series_;
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
std::string counters_chart(const std::vector<const variant_result*>& all_rows,
                           const std::map<std::string, std::size_t>& styles, const std::string& id_prefix) {
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
  svg_document svg(width, height + 10, id_prefix);
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
      const series_style style = style_of(styles.at(r.variant));
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
std::string bar_chart(const std::vector<const variant_result*>& all_rows,
                      const std::map<std::string, std::size_t>& styles, const std::string& id_prefix) {
  std::vector<const variant_result*> rows;
  for (const variant_result* r : all_rows)
    if (r->gbps > 0) rows.push_back(r);
  if (rows.empty()) return counters_chart(all_rows, styles, id_prefix);  // run --profile: counters, nothing timed
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

  svg_document svg(width, height, id_prefix);
  svg.text(12, 22, shortened(rows.front()->title, 100), text_anchor::start, 14);
  svg.text(12, 42,
           rows.front()->lab_file + ": median GB/s of each variant; whiskers: the slowest to the fastest repetition");
  const double bottom = top + row_height * double(rows.size());
  draw_bar_frame(svg, axis, x0, bar_width, top, bottom);
  svg.text(x0 + bar_width / 2, bottom + 36, "GB/s", text_anchor::middle);
  svg.open_group("bars");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const variant_result& r = *rows[i];
    const series_style style = style_of(styles.at(r.variant));
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

}  // namespace

std::map<std::string, std::size_t> variant_styles(const std::vector<variant_result>& results) {
  std::map<std::string, std::size_t> styles;
  for (const std::string& file : lab_files_of(results)) {
    const auto rows = rows_of(results, file);
    std::set<std::size_t> taken;  // by this lab file's variants that have a style already
    for (const variant_result* r : rows)
      if (auto at = styles.find(r->variant); at != styles.end()) taken.insert(at->second);
    for (const variant_result* r : rows) {
      if (styles.count(r->variant)) continue;
      std::size_t k = 0;
      while (taken.count(k)) ++k;
      styles.emplace(r->variant, k);
      taken.insert(k);
    }
  }
  return styles;
}

std::vector<plot_drawing> draw_plots(const std::vector<variant_result>& results,
                                     const std::vector<lab_description>& labs, bool unique_ids) {
  const auto styles = variant_styles(results);
  std::vector<plot_drawing> plots;
  for (const auto& [file, name] : plot_files(results)) {
    const auto rows = rows_of(results, file);
    const auto swept = swept_names(rows);
    const std::string prefix = unique_ids ? fmt::format("plot{}-", plots.size() + 1) : "";
    plots.push_back(
        {file, name,
         swept.empty() ? bar_chart(rows, styles, prefix) : sweep_plot(rows, swept, labs, styles).render(prefix)});
  }
  return plots;
}

std::vector<std::filesystem::path> write_plots(const std::vector<variant_result>& results,
                                               const std::vector<lab_description>& labs,
                                               const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> written;
  for (const plot_drawing& plot : draw_plots(results, labs)) {
    const auto path = dir / plot.file_name;
    create_folder_for(path);
    write_file_atomically(path, plot.svg);
    written.push_back(path);
  }
  return written;
}

}  // namespace cudalab::host
