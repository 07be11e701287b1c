// The comparison as a console table, Markdown, JSON and HTML; every name read from a results file is
// shown escaped (console, HTML) or quoted (Markdown), never written raw.
#include "compare/compare_report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "labfile/values.hpp"
#include "results/console_text.hpp"
#include "results/format.hpp"
#include "results/html_page.hpp"
#include "results/html_text.hpp"
#include "results/json.hpp"

namespace cudalab::host {
namespace {

using json = nlohmann::ordered_json;

const char* const green = "\033[32m";
const char* const red = "\033[31m";
const char* const yellow = "\033[33m";
const char* const bold = "\033[1m";
const char* const reset = "\033[0m";

std::string change_text(const compared_result& r) {
  if (r.outcome == verdict::untimed || !r.base || !r.next) return "-";
  return change_pct_text(r.change_pct);
}

std::string p_text(const compared_result& r) {
  if (!r.test) return "-";
  return r.test->p < 0.001 ? "<0.001" : fmt::format("{:.3f}", r.test->p);
}

double median_of(const std::optional<variant_result>& r) {
  return r && r->status == result_status::ok && r->time.timed ? r->time.median_ms : 0;
}

std::string variant_text(const compared_result& r) {
  return r.is_baseline ? r.key.variant + " (baseline)" : r.key.variant;
}

// The results in groups: a lab file's results together (lab files in the order they first appear),
// and within it a point's (likewise), each in the comparison's order.
std::vector<std::vector<const compared_result*>> groups_of(const comparison& c, bool by_point) {
  std::vector<std::vector<const compared_result*>> groups;
  std::map<std::string, std::size_t> index;
  for (const compared_result& r : c.results) {
    std::string name = lab_file_label(r.key);
    if (by_point) name += '\n' + labels_text(r.key.point);
    const auto [it, added] = index.emplace(name, groups.size());
    if (added) groups.emplace_back();
    groups[it->second].push_back(&r);
  }
  // Lab files first seen in order, their points after one another: stable-sort by the lab file's first group.
  if (by_point) {
    std::map<std::string, std::size_t> first;
    for (std::size_t i = 0; i < groups.size(); ++i) first.emplace(lab_file_label(groups[i].front()->key), i);
    std::stable_sort(groups.begin(), groups.end(), [&](const auto& a, const auto& b) {
      return first.at(lab_file_label(a.front()->key)) < first.at(lab_file_label(b.front()->key));
    });
  }
  return groups;
}

std::string run_line(const std::string& file, const run_context& c) {
  return fmt::format("{}  {}  {}", printable(file), printable(c.started_at), printable(c.device.name));
}

std::string settings_text(const compare_settings& s) {
  return fmt::format("slower/faster: the median changed by more than {:g}% and the Mann-Whitney U test gives p < {:g}",
                     s.threshold_pct, s.alpha);
}

std::string counts_text(const compare_counts& n) {
  return fmt::format("{} slower, {} faster, {} same, {} unsure, {} untimed, {} added, {} removed", n.slower, n.faster,
                     n.same, n.unsure, n.untimed, n.added, n.removed);
}

std::string regression_text(const comparison& c) {
  if (!c.regression()) return "no regression: nothing got slower beyond the threshold and the noise";
  return fmt::format("regression: {} result{} slower beyond {:g}% and the noise", c.counts.slower,
                     c.counts.slower == 1 ? "" : "s", c.settings.threshold_pct);
}

json side_json(const std::optional<variant_result>& r) {
  if (!r) return nullptr;
  return {{"lab_file", r->lab_file},
          {"status", status_name(r->status)},
          {"timed", r->time.timed},
          {"median_ms", r->time.timed ? json(r->time.median_ms) : json(nullptr)},
          {"cv", r->time.timed ? json(r->time.cv) : json(nullptr)},
          {"repetitions", r->time.repetition_ms.size()}};
}

json run_json(const std::string& file, const run_context& c) {
  return {{"file", file},
          {"started_at", c.started_at},
          {"command_line", c.command_line},
          {"cudalab_version", c.cudalab_version},
          {"device", c.device.name}};
}

}  // namespace

std::string duration_text(double ms) {
  if (!(ms > 0) || !std::isfinite(ms)) return "-";
  double v = ms;
  const char* unit = "ms";
  if (ms >= 1000) {
    v = ms / 1000;
    unit = "s";
  } else if (ms < 1e-3) {
    v = ms * 1e6;
    unit = "ns";
  } else if (ms < 1) {
    v = ms * 1e3;
    unit = "us";
  }
  // Four significant digits: 2.700, 17.32, 123.4; past a day, an exponent (1e308 ms has 306 digits).
  if (v >= 1e5) return fmt::format("{:.3e} {}", v, unit);
  const int decimals = v >= 100 ? 1 : v >= 10 ? 2 : 3;
  return fmt::format("{:.{}f} {}", v, decimals, unit);
}

std::string change_pct_text(double pct) {
  if (std::fabs(pct) >= 1e5) return fmt::format("{:+.2e} %", pct);
  return fmt::format("{:+.1f} %", pct);
}

void write_compare_table(std::ostream& out, const comparison& c, bool colour) {
  out << "base  " << run_line(c.base_file, c.base_context) << "\n";
  out << "new   " << run_line(c.new_file, c.new_context) << "\n";
  if (c.base_context.device.name != c.new_context.device.name)
    out << "the runs are on different GPUs: the times may differ for that alone\n";
  out << settings_text(c.settings) << "\n";
  for (const auto& group : groups_of(c, true)) {
    const compared_result& first = *group.front();
    const std::string pt = labels_text(first.point);
    out << "\n"
        << (colour ? bold : "") << printable(lab_file_label(first.key))
        << (first.title.empty() ? "" : " - " + printable(first.title))
        << (pt.empty() ? "" : "  [" + printable(pt) + "]") << (colour ? reset : "") << "\n";
    out << fmt::format("  {:<26} {:>10} {:>10} {:>9} {:>7}  {}\n", "variant", "base", "new", "change", "p", "verdict");
    for (const compared_result* r : group) {
      const char* tint = r->outcome == verdict::slower   ? red
                         : r->outcome == verdict::faster ? green
                         : r->outcome == verdict::unsure ? yellow
                                                         : nullptr;
      out << fmt::format("  {:<26} {:>10} {:>10} {:>9} {:>7}  ", printable(variant_text(*r)),
                         duration_text(median_of(r->base)), duration_text(median_of(r->next)), change_text(*r),
                         p_text(*r))
          << (colour && tint ? tint : "") << verdict_name(r->outcome) << (colour && tint ? reset : "") << "\n";
      if (!r->note.empty()) out << "      " << printable(r->note) << "\n";
    }
  }
  out << "\n" << counts_text(c.counts) << "\n" << regression_text(c) << "\n";
}

void write_compare_markdown(std::ostream& out, const comparison& c) {
  out << "# cudalab compare\n\n";
  out << fmt::format("- base: {} ({}, {})\n", md_code(c.base_file), md_text(c.base_context.started_at),
                     md_text(c.base_context.device.name));
  out << fmt::format("- new: {} ({}, {})\n\n", md_code(c.new_file), md_text(c.new_context.started_at),
                     md_text(c.new_context.device.name));
  if (c.base_context.device.name != c.new_context.device.name)
    out << "The runs are on different GPUs: the times may differ for that alone.\n\n";
  out << settings_text(c.settings)
      << " on the repetition times (without them on both sides: the threshold alone). Times are medians per "
         "launch.\n";
  for (const auto& group : groups_of(c, false)) {
    const compared_result& first = *group.front();
    out << fmt::format("\n## {}{}\n\n", md_code(lab_file_label(first.key)),
                       first.title.empty() ? "" : " — " + md_text(first.title));
    std::vector<std::string> swept;
    for (const compared_result* r : group)
      for (const auto& [name, value] : r->point)
        if (std::find(swept.begin(), swept.end(), name) == swept.end()) swept.push_back(name);
    std::string header = "|", rule = "|";
    for (const std::string& name : swept) {
      header += " " + md_text(name) + " |";
      rule += "---|";
    }
    out << header << " variant | base | new | change | p | verdict | note |\n";
    out << rule << "---|---:|---:|---:|---:|---|---|\n";
    for (const compared_result* r : group) {
      std::string row = "|";
      for (const std::string& name : swept) {
        std::string value;
        for (const auto& [n, v] : r->point)
          if (n == name) value = v;
        row += " " + md_text(value) + " |";
      }
      const bool marked = r->outcome == verdict::slower || r->outcome == verdict::faster;
      out << row
          << fmt::format(" {} | {} | {} | {} | {} | {} | {} |\n", md_text(variant_text(*r)),
                         duration_text(median_of(r->base)), duration_text(median_of(r->next)), change_text(*r),
                         p_text(*r),
                         marked ? "**" + std::string(verdict_name(r->outcome)) + "**" : verdict_name(r->outcome),
                         md_text(r->note));
    }
  }
  out << "\n## Summary\n\n" << counts_text(c.counts) << ".\n\n" << regression_text(c) << ".\n";
}

void write_compare_json(std::ostream& out, const comparison& c) {
  json j = {{"schema_version", compare_schema_version},
            {"threshold_pct", c.settings.threshold_pct},
            {"alpha", c.settings.alpha},
            {"base", run_json(c.base_file, c.base_context)},
            {"new", run_json(c.new_file, c.new_context)}};
  json results = json::array();
  for (const compared_result& r : c.results) {
    json point = json::object();
    for (const auto& [k, v] : r.point) point[k] = v;
    json test = nullptr;
    if (r.test)
      test = {{"method", u_test_method_name(r.test->method)},
              {"u", r.test->u},
              {"z", r.test->z},
              {"p", r.test->p},
              {"base_count", r.test->base_count},
              {"new_count", r.test->new_count}};
    const bool has_change = r.base && r.next && r.outcome != verdict::untimed;
    results.push_back({{"lab_file", r.key.lab_file},
                       {"occurrence", r.key.occurrence},
                       {"title", r.title},
                       {"point", point},
                       {"variant", r.key.variant},
                       {"baseline", r.is_baseline},
                       {"verdict", verdict_name(r.outcome)},
                       {"base", side_json(r.base)},
                       {"new", side_json(r.next)},
                       {"change_pct", has_change ? json(r.change_pct) : json(nullptr)},
                       {"test", test},
                       {"note", r.note}});
  }
  j["results"] = results;
  const compare_counts& n = c.counts;
  j["counts"] = {{"slower", n.slower},   {"faster", n.faster}, {"same", n.same},      {"unsure", n.unsure},
                 {"untimed", n.untimed}, {"added", n.added},   {"removed", n.removed}};
  j["regression"] = c.regression();
  out << json_text(j, 2) << "\n";
}

namespace {

// "bad", "ok", "warn" or "": how a verdict is coloured.
const char* verdict_class(verdict v) {
  return v == verdict::slower ? "bad" : v == verdict::faster ? "ok" : v == verdict::unsure ? "warn" : "";
}

// The change as a bar from the middle of its cell: left for faster, right for slower, full at 100%.
std::string change_bar(const compared_result& r) {
  if (r.outcome == verdict::untimed || !r.base || !r.next || !std::isfinite(r.change_pct)) return "";
  const double width = std::min(50.0, std::abs(r.change_pct) / 2);
  return fmt::format(
      "<svg class=\"change\" width=\"80\" height=\"10\" viewBox=\"0 0 100 10\" aria-hidden=\"true\">"
      "<line x1=\"50\" y1=\"0\" x2=\"50\" y2=\"10\" stroke=\"currentColor\"/>"
      "<rect x=\"{:.1f}\" y=\"2\" width=\"{:.1f}\" height=\"6\" fill=\"{}\"/></svg> ",
      r.change_pct < 0 ? 50 - width : 50.0, width, r.change_pct < 0 ? "#2da44e" : "#cf222e");
}

std::string run_facts(const char* which, const std::string& file, const run_context& c) {
  return fmt::format(
      "<dt>{}</dt><dd><code>{}</code> {}</dd>\n", which, html_escape(file),
      html_escape(fmt::format("run {} on {} with cudalab {}: {}", c.started_at,
                              c.device.name.empty() ? "-" : c.device.name, c.cudalab_version, c.command_line)));
}

}  // namespace

void write_compare_html(std::ostream& out, const comparison& c) {
  std::string body = "<header>\n<h1>cudalab compare</h1>\n<dl class=\"facts\">\n" +
                     run_facts("base", c.base_file, c.base_context) + run_facts("new", c.new_file, c.new_context) +
                     "</dl>\n</header>\n";
  body += fmt::format("<p class=\"callout{}\" id=\"verdict\"><strong>{}</strong></p>\n", c.regression() ? " bad" : "",
                      html_escape(regression_text(c)));
  if (c.base_context.device.name != c.new_context.device.name)
    body += "<p class=\"callout\">The runs are on different GPUs: the times may differ for that alone.</p>\n";
  body += "<p>" + html_escape(counts_text(c.counts)) + ".</p>\n<p class=\"muted\">" +
          html_escape(settings_text(c.settings) +
                      " on the repetition times (without them on both sides: the threshold alone). Times are medians "
                      "per launch; the bar shows the change, faster to the left, slower to the right (full at 100%).") +
          "</p>\n";
  const auto groups = groups_of(c, false);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto& group = groups[g];
    const compared_result& first = *group.front();
    body += fmt::format("<section class=\"lab\" id=\"lab-{}\">\n<h2><code>{}</code>{}</h2>\n", g + 1,
                        html_escape(lab_file_label(first.key)),
                        first.title.empty() ? "" : " &mdash; " + html_escape(first.title));
    std::vector<std::string> swept;
    for (const compared_result* r : group)
      for (const auto& [name, value] : r->point)
        if (std::find(swept.begin(), swept.end(), name) == swept.end()) swept.push_back(name);
    std::vector<html_column> columns;
    for (const std::string& name : swept)
      columns.push_back({name, std::all_of(group.begin(), group.end(), [&](const compared_result* r) {
                           for (const auto& [n, v] : r->point)
                             if (n == name) return number_in(v).has_value();
                           return false;
                         })});
    for (const html_column& column :
         std::vector<html_column>{{"variant"},
                                  {"base", true, "the base run's median time per launch"},
                                  {"new", true, "the new run's median time per launch"},
                                  {"change", true, "(new - base) / base"},
                                  {"p", true, "Mann-Whitney U test on the repetition times"},
                                  {"verdict"}})
      columns.push_back(column);
    html_table table(fmt::format("compare-{}", g + 1), std::move(columns), true, true);
    for (const compared_result* r : group) {
      std::vector<html_cell> cells;
      for (const std::string& name : swept) {
        std::string value;
        for (const auto& [n, v] : r->point)
          if (n == name) value = v;
        cells.push_back(text_cell(value, number_in(value)));
      }
      const double base = median_of(r->base), next = median_of(r->next);
      cells.push_back(text_cell(variant_text(*r)));
      cells.push_back(text_cell(duration_text(base), base > 0 ? std::optional(base) : std::nullopt));
      cells.push_back(text_cell(duration_text(next), next > 0 ? std::optional(next) : std::nullopt));
      html_cell change = text_cell(change_text(*r));
      if (change.html != "-") {
        change.number = r->change_pct;
        change.html = change_bar(*r) + change.html;
      }
      cells.push_back(change);
      cells.push_back(text_cell(p_text(*r), r->test ? std::optional(r->test->p) : std::nullopt));
      html_cell v = text_cell(verdict_name(r->outcome));
      v.css_class = verdict_class(r->outcome);
      cells.push_back(v);
      table.add_row(cells, r->key.variant, r->outcome == verdict::slower ? "bad" : "", html_escape(r->note));
    }
    body += table.str() + "</section>\n";
  }
  out << html_document("cudalab compare " + c.base_file + " " + c.new_file, body);
}

}  // namespace cudalab::host
