// The `explain` use case: the access model's predictions for every variant, without a GPU.
#include "explain.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <ostream>

#include "labfile/spec_lookup.hpp"
#include "labfile/values.hpp"
#include "model/access_model.hpp"
#include "plugin/plugin_call.hpp"
#include "results/console_text.hpp"
#include "results/json.hpp"

namespace cudalab::host {

std::vector<explain_row> explain_plan(const planned_lab& pl, const std::vector<std::string>& variant_filter,
                                      const device_info& device) {
  std::vector<explain_row> rows;
  const auto names = variants_to_run(pl.plan, variant_filter);
  lab_context context;
  context.seed = pl.plan.measure.seed;
  context.device = device;
  for (std::uint64_t i = 0; i < pl.plan.point_count(); ++i) {
    const params p = pl.plan.point(i);
    const auto labels = pl.plan.point_labels(i);
    for (const auto& name : names) {
      if (slot_of(pl.plugin->spec, name)) {  // a student's code: nothing the model has seen
        rows.push_back(explain_row{pl.file_arg, labels, name, false, {}});
        continue;
      }
      access_model model;
      const plugin_call call{pl.plugin->spec.name, "trace", name, labels_text(labels)};
      call_plugin(call, [&] { pl.plugin->instance->trace(p, variant_of(pl.plugin->spec, name), context, model); });
      explain_row row{pl.file_arg, labels, name, false, model.stats()};
      row.traced = !row.stats.empty();
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

namespace {

// One column of the per-point tables. `rank` is its importance, 1 the most: a narrow terminal drops
// the highest first - the request counts and wavefronts before the per-request sectors (atomics'
// among them), efficiencies and conflicts that the labs are about. A column no variant of the lab file has anything in
// (every cell "-": no store, no shared memory, no atomic) is not shown, so it never crowds out one that has.
struct model_column {
  const char* header;
  int rank;
  std::string (*cell)(const access_stats& s);
};

std::string requests_cell(const global_totals& g) { return g.requests ? std::to_string(g.requests) : "-"; }
std::string sectors_cell(const global_totals& g) {
  return g.requests ? fmt::format("{:.2f}", g.sectors_per_request()) : "-";
}
std::string efficiency_cell(const global_totals& g) {
  return g.requests ? fmt::format("{:.0f}%", 100.0 * g.efficiency()) : "-";
}
std::string wavefronts_cell(const shared_totals& s) {
  return s.requests ? fmt::format("{:.2f}", s.wavefronts_per_request()) : "-";
}
std::string conflicts_cell(const shared_totals& s) {
  return s.requests ? fmt::format("{:.2f}", s.conflicts_per_request()) : "-";
}

const std::vector<model_column>& model_columns() {
  using s_t = const access_stats&;
  static const std::vector<model_column> columns = {
      {"ld req", 12, [](s_t s) { return requests_cell(s.global_load); }},
      {"ld s/r", 1, [](s_t s) { return sectors_cell(s.global_load); }},
      {"ld eff", 4, [](s_t s) { return efficiency_cell(s.global_load); }},
      {"st req", 13, [](s_t s) { return requests_cell(s.global_store); }},
      {"st s/r", 2, [](s_t s) { return sectors_cell(s.global_store); }},
      {"st eff", 5, [](s_t s) { return efficiency_cell(s.global_store); }},
      {"shld wf/r", 9, [](s_t s) { return wavefronts_cell(s.shared_load); }},
      {"shld cf/r", 6, [](s_t s) { return conflicts_cell(s.shared_load); }},
      {"shst wf/r", 10, [](s_t s) { return wavefronts_cell(s.shared_store); }},
      {"shst cf/r", 7, [](s_t s) { return conflicts_cell(s.shared_store); }},
      {"atom req", 14, [](s_t s) { return requests_cell(s.global_atomic); }},
      {"atom s/r", 3, [](s_t s) { return sectors_cell(s.global_atomic); }},
      {"shat wf/r", 11, [](s_t s) { return wavefronts_cell(s.shared_atomic); }},
      {"shat cf/r", 8, [](s_t s) { return conflicts_cell(s.shared_atomic); }},
  };
  return columns;
}

// One line of the one-axis summary: a quantity per warp-wide request, for the variants that have it.
struct summary_quantity {
  const char* label;
  bool (*has)(const access_stats& s);
  double (*value)(const access_stats& s);
};

const std::vector<summary_quantity>& summary_quantities() {
  using s_t = const access_stats&;
  static const std::vector<summary_quantity> quantities = {
      {"ld sectors", [](s_t s) { return s.global_load.requests > 0; },
       [](s_t s) { return s.global_load.sectors_per_request(); }},
      {"st sectors", [](s_t s) { return s.global_store.requests > 0; },
       [](s_t s) { return s.global_store.sectors_per_request(); }},
      {"atomic sectors", [](s_t s) { return s.global_atomic.requests > 0; },
       [](s_t s) { return s.global_atomic.sectors_per_request(); }},
      {"sh ld conflicts", [](s_t s) { return s.shared_load.requests > 0; },
       [](s_t s) { return s.shared_load.conflicts_per_request(); }},
      {"sh st conflicts", [](s_t s) { return s.shared_store.requests > 0; },
       [](s_t s) { return s.shared_store.conflicts_per_request(); }},
      {"sh atomic conflicts", [](s_t s) { return s.shared_atomic.requests > 0; },
       [](s_t s) { return s.shared_atomic.conflicts_per_request(); }},
  };
  return quantities;
}

const char* const not_modelled = "(not modelled: a library call or host work)";
constexpr std::size_t note_indent = 6;  // a row's note, under its variant's name
constexpr std::size_t gap = 2;          // between two columns

template <typename T>
void append_once(std::vector<T>& list, const T& value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
}

void print_lines(std::ostream& out, const std::vector<std::string>& lines) {
  for (const std::string& line : lines) out << line << "\n";
}

// A lab file's rows as one block per point: a row per variant, the columns that fit in `width`.
void print_point_blocks(std::ostream& out, const std::vector<const explain_row*>& rows, std::size_t width) {
  std::size_t variant_columns = text_columns("variant");
  for (const explain_row* r : rows) variant_columns = std::max(variant_columns, text_columns(r->variant));
  // Columns as wide as their widest cell in the whole lab file, so that its blocks line up.
  std::vector<const model_column*> candidates;
  std::vector<column_fit> fits;
  std::vector<std::size_t> widths;
  for (const model_column& c : model_columns()) {
    std::size_t w = text_columns(c.header);
    bool any = false;
    for (const explain_row* r : rows)
      if (r->traced) {
        const std::string cell = c.cell(r->stats);
        any = any || cell != "-";
        w = std::max(w, text_columns(cell));
      }
    if (!any) continue;
    candidates.push_back(&c);
    widths.push_back(w);
    fits.push_back({gap + w, c.rank});
  }
  const auto shown = fit_columns(2 + variant_columns, fits, width);
  std::string heading;
  for (const explain_row* r : rows) {
    const std::string h = r->lab_file + (r->point.empty() ? "" : "  [" + labels_text(r->point) + "]");
    if (h != heading) {
      heading = h;
      out << "\n";
      print_lines(out, wrap_lines(h, width, 0, 4));
      std::string header = "  " + pad_right("variant", variant_columns);
      for (std::size_t i = 0; i < candidates.size(); ++i)
        if (shown[i]) header += std::string(gap, ' ') + pad_left(candidates[i]->header, widths[i]);
      out << header << "\n";
    }
    if (!r->traced) {
      out << "  " << pad_right(r->variant, variant_columns) << std::string(gap, ' ') << not_modelled << "\n";
      continue;
    }
    std::string line = "  " + pad_right(r->variant, variant_columns);
    for (std::size_t i = 0; i < candidates.size(); ++i)
      if (shown[i]) line += std::string(gap, ' ') + pad_left(candidates[i]->cell(r->stats), widths[i]);
    out << line << "\n";
    if (r->stats.total_warps > 0)
      print_lines(out, wrap_lines(fmt::format("(sampled {} of {} warps)", r->stats.traced_warps, r->stats.total_warps),
                                  width, note_indent, note_indent));
  }
}

// A lab file swept over one axis as one table: a line per variant and quantity it has (sectors per
// request, bank conflicts per request), a column per swept value; in panels of the values that fit
// in `width`, each repeating the variant and quantity columns.
void print_sweep_summary(std::ostream& out, const std::vector<const explain_row*>& rows, std::size_t width) {
  const std::string axis = rows.front()->point.front().first;
  std::vector<std::string> values, variants;
  for (const explain_row* r : rows) {
    append_once(values, r->point.front().second);
    append_once(variants, r->variant);
  }
  const auto row_at = [&](const std::string& variant, const std::string& value) -> const explain_row* {
    for (const explain_row* r : rows)
      if (r->variant == variant && r->point.front().second == value) return r;
    return nullptr;
  };
  // The lines: a variant and a quantity each (none: the variant was not modelled), a cell per value.
  struct line {
    std::string variant;
    const summary_quantity* quantity;
    std::vector<std::string> cells;
  };
  std::vector<line> lines;
  for (const std::string& v : variants) {
    bool any = false;
    for (const summary_quantity& q : summary_quantities()) {
      line l{any ? "" : v, &q, {}};
      bool has = false;
      for (const std::string& value : values) {
        const explain_row* r = row_at(v, value);
        const bool here = r && r->traced && q.has(r->stats);
        has = has || here;
        l.cells.push_back(here ? fmt::format("{:.2f}", q.value(r->stats)) : "-");
      }
      if (!has) continue;
      any = true;
      lines.push_back(std::move(l));
    }
    if (!any) lines.push_back(line{v, nullptr, {}});
  }
  std::size_t variant_columns = text_columns("variant"), quantity_columns = text_columns(axis + " =");
  for (const std::string& v : variants) variant_columns = std::max(variant_columns, text_columns(v));
  for (const line& l : lines)
    if (l.quantity) quantity_columns = std::max(quantity_columns, text_columns(l.quantity->label));
  std::vector<std::size_t> widths;
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::size_t w = text_columns(values[i]);
    for (const line& l : lines)
      if (l.quantity) w = std::max(w, text_columns(l.cells[i]));
    widths.push_back(w);
  }
  const std::size_t fixed = 2 + variant_columns + gap + quantity_columns;

  out << "\n";
  print_lines(out, wrap_lines(rows.front()->lab_file + "  by " + axis + ", per warp-wide request", width, 0, 4));
  for (std::size_t first = 0; first < values.size();) {
    std::size_t last = first + 1, used = fixed + gap + widths[first];  // a panel has one value at least
    while (last < values.size() && (width == unlimited_width || used + gap + widths[last] <= width))
      used += gap + widths[last++];
    if (first > 0) out << "\n";
    std::string header =
        "  " + pad_right("variant", variant_columns) + std::string(gap, ' ') + pad_right(axis + " =", quantity_columns);
    for (std::size_t i = first; i < last; ++i) header += std::string(gap, ' ') + pad_left(values[i], widths[i]);
    out << header << "\n";
    for (const line& l : lines) {
      std::string text = "  " + pad_right(l.variant, variant_columns) + std::string(gap, ' ');
      if (!l.quantity) {
        out << text << not_modelled << "\n";
        continue;
      }
      text += pad_right(l.quantity->label, quantity_columns);
      for (std::size_t i = first; i < last; ++i) text += std::string(gap, ' ') + pad_left(l.cells[i], widths[i]);
      out << text << "\n";
    }
    first = last;
  }
  const auto sampled =
      std::count_if(rows.begin(), rows.end(), [](const explain_row* r) { return r->stats.total_warps > 0; });
  if (sampled > 0)
    print_lines(out,
                wrap_lines(fmt::format("(sampled: for {} of these {} predictions the model traced a uniform sample "
                                       "of the warps; --format json gives the counts)",
                                       sampled, rows.size()),
                           width, 2, 3));
}

}  // namespace

void print_explain_table(std::ostream& out, const std::vector<explain_row>& rows, std::size_t width) {
  std::vector<std::string> files;
  for (const explain_row& r : rows) append_once(files, r.lab_file);
  for (const std::string& file : files) {
    std::vector<const explain_row*> of_file;
    for (const explain_row& r : rows)
      if (r.lab_file == file) of_file.push_back(&r);
    const bool one_axis =
        std::all_of(of_file.begin(), of_file.end(), [](const explain_row* r) { return r->point.size() == 1; });
    if (one_axis)
      print_sweep_summary(out, of_file, width);
    else
      print_point_blocks(out, of_file, width);
  }
}

void print_explain_json(std::ostream& out, const std::vector<explain_row>& rows) {
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  for (const auto& r : rows) {
    nlohmann::ordered_json point = nlohmann::ordered_json::object();
    for (const auto& [k, v] : r.point) point[k] = v;
    nlohmann::ordered_json j = {
        {"lab_file", r.lab_file}, {"point", point}, {"variant", r.variant}, {"traced", r.traced}};
    if (r.traced) j["model"] = r.stats;
    all.push_back(std::move(j));
  }
  out << json_text(all, 2) << "\n";
}

}  // namespace cudalab::host
