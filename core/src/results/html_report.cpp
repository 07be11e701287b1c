// report.html (html_report.hpp): the context, then a section per lab file with its plot and a table.
#include "results/html_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "results/columns.hpp"
#include "results/format.hpp"
#include "results/html_page.hpp"
#include "results/html_text.hpp"
#include "results/median_interval.hpp"
#include "results/plot_axis.hpp"
#include "results/plot_style.hpp"
#include "results/plots.hpp"

namespace cudalab::host {

namespace {

// `html` (escaped already) with `code` in backticks made <code>: backticks left unpaired stay as they are.
std::string with_code(const std::string& html) {
  std::string out;
  std::size_t at = 0;
  while (true) {
    const std::size_t open = html.find('`', at);
    const std::size_t close = open == std::string::npos ? open : html.find('`', open + 1);
    if (close == std::string::npos) return out + html.substr(at);
    out += html.substr(at, open - at) + "<code>" + html.substr(open + 1, close - open - 1) + "</code>";
    at = close + 1;
  }
}

std::string rate(double gbps, int precision) { return gbps > 0 ? fmt::format("{:.{}f}", gbps, precision) : "-"; }

// A dd of the facts list: term and text, both escaped here.
std::string fact(const std::string& term, const std::string& text) {
  return "<dt>" + html_escape(term) + "</dt><dd>" + html_escape(text) + "</dd>\n";
}

std::string fact_html(const std::string& term, const std::string& html) {
  return "<dt>" + html_escape(term) + "</dt><dd>" + html + "</dd>\n";
}

bool failed(const variant_result& r) {
  return r.status == result_status::verify_failed || r.status == result_status::error;
}

// "ok", "bad" or "warn": how a status is coloured.
const char* status_class(result_status s) {
  switch (s) {
    case result_status::ok:
      return "ok";
    case result_status::verify_failed:
    case result_status::error:
      return "bad";
    case result_status::skipped:
      break;
  }
  return "warn";
}

// The run's GPUs: with --devices each listed one, else the one it ran on.
std::vector<run_device> gpus_of(const run_context& c) {
  if (!c.devices.empty()) return c.devices;
  run_device d;
  d.ordinal = c.device.ordinal;
  d.device = c.device;
  d.measured = c.measured;
  d.gpu = c.gpu;
  return {d};
}

class report_writer {
 public:
  report_writer(const run_context& c, const std::vector<variant_result>& results)
      : c_(c), results_(results), styles_(variant_styles(results)) {
    for (plot_drawing& p : draw_plots(results, c.labs, true)) plots_.emplace(p.lab_file, std::move(p.svg));
  }

  std::string html() {
    const auto files = lab_files_of(results_);
    const auto failures = std::count_if(results_.begin(), results_.end(), failed);
    std::string body = "<header>\n<h1>cudalab results</h1>\n";
    body += "<p class=\"muted\">" +
            html_escape(fmt::format("{} result{} of {} lab file{}, run {} on {} with cudalab {}", results_.size(),
                                    results_.size() == 1 ? "" : "s", files.size(), files.size() == 1 ? "" : "s",
                                    c_.started_at.empty() ? "-" : c_.started_at,
                                    c_.device.name.empty() ? "no GPU" : c_.device.name, c_.cudalab_version)) +
            "</p>\n</header>\n";
    for (const run_device& d : gpus_of(c_))
      if (d.gpu.throttle.throttled)
        body += "<p class=\"callout\" id=\"throttled\"><strong>Warning:</strong> " +
                html_escape(d.gpu.throttle.warning) + "</p>\n";
    if (failures > 0)
      body += "<p class=\"callout bad\" id=\"failures\">" +
              html_escape(fmt::format("{} of {} results did not verify or could not run: their reasons are under "
                                      "their rows (marked red).",
                                      failures, results_.size())) +
              "</p>\n";
    body += context_section();
    body += contents(files);
    for (std::size_t i = 0; i < files.size(); ++i) body += lab_section(files[i], i + 1);
    return html_document("cudalab results " + c_.started_at, body);
  }

 private:
  std::string context_section() const {
    std::string s = "<section id=\"context\">\n<h2>Context</h2>\n<dl class=\"facts\">\n";
    s += fact_html("command", "<code>" + html_escape(c_.command_line) + "</code>");
    s += fact("profile", c_.profile.empty() ? "built-in defaults" : c_.profile);
    s += fact("started", c_.started_at);
    if (!c_.hostname.empty()) s += fact("host", c_.hostname);
    s += fact("build", fmt::format("cudalab {} ({}), CUDA toolkit {} for sm_{}", c_.cudalab_version,
                                   c_.git_revision.empty() ? "unknown revision" : c_.git_revision,
                                   c_.cuda_toolkit.empty() ? "-" : c_.cuda_toolkit,
                                   c_.cuda_architectures.empty() ? "-" : c_.cuda_architectures));
    s += fact("CUDA",
              fmt::format("runtime {}, the driver supports up to {}{}", c_.cuda_runtime.empty() ? "-" : c_.cuda_runtime,
                          c_.cuda_driver.empty() ? "-" : c_.cuda_driver,
                          c_.nvml.driver_version.empty() ? "" : "; NVIDIA driver " + c_.nvml.driver_version));
    if (!c_.nvml.available && !c_.nvml.reason.empty()) s += fact("NVML", "unavailable: " + c_.nvml.reason);
    if (!c_.counters.empty()) s += fact("counters", c_.counters);
    if (c_.schedule)
      s += fact("schedule", fmt::format("isolated: {} job{}, GPUs ready after {:.1f} s, the last job ended at {:.1f} s",
                                        c_.schedule->jobs.size(), c_.schedule->jobs.size() == 1 ? "" : "s",
                                        c_.schedule->probe_s, c_.schedule->end_s));
    s += "</dl>\n";
    html_table gpus("gpus",
                    {{"GPU"},
                     {"SMs", true},
                     {"memory GiB", true},
                     {"L2 MiB", true},
                     {"top SM clock MHz", true},
                     {"DRAM peak GB/s", true, "2 x memory clock x bus width"},
                     {"copy GB/s", true, "measured device-to-device cudaMemcpy, read + written"},
                     {"L2 copy GB/s", true, "measured copy of a working set that fits in L2"},
                     {"H2D GB/s", true},
                     {"D2H GB/s", true},
                     {"both GB/s", true}},
                    false, false);
    for (const run_device& d : gpus_of(c_)) {
      const device_info& g = d.device;
      gpus.add_row({text_cell(fmt::format("{}{} (sm_{}{})", c_.devices.empty() ? "" : fmt::format("{}: ", d.ordinal),
                                          g.name.empty() ? "-" : g.name, g.cc_major, g.cc_minor)),
                    text_cell(std::to_string(g.sm_count)),
                    text_cell(fmt::format("{:.1f}", double(g.global_memory_bytes) / double(1ull << 30))),
                    text_cell(fmt::format("{:.0f}", double(g.l2_cache_bytes) / double(1 << 20))),
                    text_cell(c_.sm_clock_mhz > 0 ? std::to_string(c_.sm_clock_mhz) : "-"),
                    text_cell(rate(g.peak_dram_gbps(), 0)), text_cell(rate(d.measured.d2d_copy_gbps, 1)),
                    text_cell(rate(d.measured.l2_copy_gbps, 1)), text_cell(rate(d.measured.h2d_gbps, 1)),
                    text_cell(rate(d.measured.d2h_gbps, 1)), text_cell(rate(d.measured.bidir_gbps, 1))});
    }
    s += gpus.str();
    s += "<ul class=\"clocks\">\n";
    for (const run_device& d : gpus_of(c_)) {
      const std::string who = c_.devices.empty() ? "" : fmt::format("GPU {}: ", d.ordinal);
      const gpu_state& g = d.gpu;
      if (g.start || g.end)
        s += "<li>" +
             html_escape(fmt::format("{}clocks (NVML) at the start: {}; at the end: {}", who,
                                     g.start ? sample_text(*g.start) : "-", g.end ? sample_text(*g.end) : "-")) +
             "</li>\n";
      if (!g.unavailable.empty())
        s += "<li class=\"muted\">" + html_escape(who + "clocks not recorded: " + g.unavailable) + "</li>\n";
      if (g.start && g.end)
        s += g.throttle.throttled ? "<li class=\"bad\">" + html_escape(who + g.throttle.warning) + "</li>\n"
                                  : "<li class=\"ok\">" + html_escape(who + "not throttled during the run") + "</li>\n";
    }
    s += "</ul>\n<p class=\"muted\">GB/s counts the least bytes a correct kernel moves (read + written) over the "
         "median time per launch; the median's ± is its 95% interval from the repetitions (their range when there "
         "are fewer than 6). % base is of the baseline variant at the same point, % ceil of the measured ceiling "
         "for its path; ld/st s/r are the model's predicted global sectors per request.</p>\n</section>\n";
    return s;
  }

  std::string contents(const std::vector<std::string>& files) const {
    std::string s = "<nav class=\"toc\" id=\"contents\">\n<h2>Lab files</h2>\n<ul>\n";
    for (std::size_t i = 0; i < files.size(); ++i) {
      const auto rows = rows_of(results_, files[i]);
      const auto bad = std::count_if(rows.begin(), rows.end(), [](const variant_result* r) { return failed(*r); });
      s += fmt::format("<li><a href=\"#lab-{}\"><code>{}</code></a> {}<span class=\"muted\">{}</span>{}</li>\n", i + 1,
                       html_escape(files[i]), rows.front()->title.empty() ? "" : html_escape(rows.front()->title) + " ",
                       html_escape(fmt::format("({} result{})", rows.size(), rows.size() == 1 ? "" : "s")),
                       bad > 0 ? " <span class=\"bad\">" + html_escape(fmt::format("{} failed", bad)) + "</span>" : "");
    }
    return s + "</ul>\n</nav>\n";
  }

  const lab_description* description_of(const std::string& file) const {
    for (const lab_description& l : c_.labs)
      if (l.file == file) return &l;
    return nullptr;
  }

  std::string settings(const lab_description& l) const {
    std::string s = "<details><summary>Parameters and measurement</summary>\n<dl class=\"facts\">\n";
    s += fact("plugin", l.plugin);
    std::string params, measure;
    for (const auto& [k, v] : l.params) params += (params.empty() ? "" : ", ") + k + " = " + v;
    s += fact("parameters", params.empty() ? "-" : params);
    for (const auto& [axis, values] : l.sweep) {
      std::string list;
      for (const std::string& v : values) list += (list.empty() ? "" : ", ") + v;
      s += fact("swept " + axis, list);
    }
    for (const auto& [k, v] : l.measure) measure += (measure.empty() ? "" : ", ") + k + " = " + v;
    s += fact("measure", measure.empty() ? "-" : measure);
    std::string variants;
    for (const std::string& v : l.variants) variants += (variants.empty() ? "" : ", ") + v;
    s += fact("variants", variants);
    return s + "</dl>\n</details>\n";
  }

  std::string swatch(const std::string& variant) const {
    const auto at = styles_.find(variant);
    return fmt::format("<span class=\"swatch\" style=\"background:{}\"></span>",
                       style_of(at == styles_.end() ? 0 : at->second).colour);
  }

  // The median with its interval as "350.9 us ±0.3%", the bounds in its tooltip.
  static html_cell median_cell(const variant_result& r) {
    const auto interval = interval_of_median(r.time);
    if (!interval || !(r.time.median_ms > 0)) return text_cell("-");
    const double m = r.time.median_ms;
    const double half = std::max(m - interval->lo_ms, interval->hi_ms - m) / m * 100;
    html_cell cell = text_cell(time_text(m) + fmt::format(" ±{:.1f}%", half), m);
    cell.title =
        interval->confidence > 0
            ? fmt::format("{:.0f}% interval of the median: {} to {} ({} repetitions)", interval->confidence * 100,
                          time_text(interval->lo_ms), time_text(interval->hi_ms), interval->repetitions)
            : fmt::format("the repetitions' range: {} to {}", time_text(interval->lo_ms), time_text(interval->hi_ms));
    return cell;
  }

  // A cell of `column` for `r`: shown as the tables show it, sorted by its number when it has one.
  static html_cell column_cell(const column& c, const variant_result& r) {
    const cell value = c.value(r);
    std::optional<double> number;
    if (const double* d = std::get_if<double>(&value)) {
      if (std::isfinite(*d) && (!c.positive || *d > 0)) number = c.scale * *d;
    } else if (const std::uint64_t* n = std::get_if<std::uint64_t>(&value)) {
      number = double(*n);
    }
    return text_cell(shown_text(c, r), number);
  }

  // What goes under a row: why it is not ok (the failure and its further mismatches), or a note its
  // verification left.
  static std::string note_of(const variant_result& r) {
    if (r.status == result_status::ok) return "";
    std::string note = html_escape(failure_text(r));
    for (std::size_t i = 1; i < r.verification.first_mismatches.size(); ++i)
      note += "<br>" + html_escape(r.verification.first_mismatches[i]);
    return note;
  }

  std::string lab_section(const std::string& file, std::size_t index) const {
    const auto rows = rows_of(results_, file);
    const std::vector<std::string> params = swept_names(rows);
    const lab_description* l = description_of(file);
    const std::string& title = rows.front()->title;
    std::string s = fmt::format("<section class=\"lab\" id=\"lab-{}\">\n<h2><code>{}</code>{}</h2>\n", index,
                                html_escape(file), title.empty() ? "" : " &mdash; " + html_escape(title));
    const auto bad = std::count_if(rows.begin(), rows.end(), [](const variant_result* r) { return failed(*r); });
    std::string baseline;
    for (const variant_result* r : rows)
      if (r->is_baseline) baseline = r->variant;
    s += "<p class=\"muted\">" +
         html_escape(fmt::format("plugin {}, {} result{}{}{}", rows.front()->plugin, rows.size(),
                                 rows.size() == 1 ? "" : "s", baseline.empty() ? "" : ", baseline " + baseline,
                                 params.empty() ? "" : ", swept over " + labels(params))) +
         (bad > 0 ? " <span class=\"bad\">" + html_escape(fmt::format("{} failed", bad)) + "</span>" : "") + "</p>\n";
    if (l && !l->about.empty())
      s += "<div class=\"about\">\n<h3>What to look for</h3>\n" + notes_html(l->about) + "</div>\n";
    if (l) s += settings(*l);
    if (const auto plot = plots_.find(file); plot != plots_.end()) {
      const bool timed = std::any_of(rows.begin(), rows.end(), [](const variant_result* r) { return r->gbps > 0; });
      s += fmt::format(
          "<figure class=\"plot\" id=\"plot-{}\" role=\"group\">\n{}<figcaption>{}</figcaption>\n</figure>\n", index,
          plot->second,
          html_escape(timed ? (params.empty() ? "GB/s of each variant" : "The results against the sweep")
                            : "What the model predicts beside what Nsight Compute counted"));
    }
    s += results_table(rows, params, index).str();
    return s + "</section>\n";
  }

  static std::string labels(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
  }

  html_table results_table(const std::vector<const variant_result*>& rows, const std::vector<std::string>& params,
                           std::size_t index) const {
    const bool counted = std::any_of(rows.begin(), rows.end(), [](const variant_result* r) { return r->has_measured; });
    auto shown = [&](const column& c) {
      return c.markdown && (counted || !c.counters) && std::string(c.markdown) != "status" &&
             std::string(c.markdown) != "median";
    };
    std::vector<html_column> columns;
    std::vector<bool> numeric_param;
    for (const std::string& p : params) {
      const bool numeric = std::all_of(
          rows.begin(), rows.end(), [&](const variant_result* r) { return number_in(point_value(*r, p)).has_value(); });
      numeric_param.push_back(numeric);
      columns.push_back({p, numeric});
    }
    columns.push_back({"variant"});
    columns.push_back({"status"});
    columns.push_back({"median", true, "median time per launch, ± its 95% interval"});
    for (const column& c : result_columns())
      if (shown(c))
        columns.push_back({c.markdown, std::any_of(rows.begin(), rows.end(), [&](const variant_result* r) {
                             const cell v = c.value(*r);
                             return std::holds_alternative<double>(v) || std::holds_alternative<std::uint64_t>(v);
                           })});
    html_table table(fmt::format("results-{}", index), std::move(columns), true, true);
    for (const variant_result* r : rows) {
      std::vector<html_cell> cells;
      for (std::size_t i = 0; i < params.size(); ++i) {
        const std::string v = point_value(*r, params[i]);
        cells.push_back(text_cell(size_text(v), numeric_param[i] ? number_in(v) : std::nullopt));
      }
      html_cell variant = text_cell(variant_label(*r));
      variant.html = swatch(r->variant) + variant.html;
      cells.push_back(variant);
      html_cell status = text_cell(status_name(r->status));
      status.css_class = status_class(r->status);
      cells.push_back(status);
      cells.push_back(median_cell(*r));
      for (const column& c : result_columns())
        if (shown(c)) cells.push_back(column_cell(c, *r));
      table.add_row(cells, r->variant, r->status == result_status::ok ? "" : status_class(r->status), note_of(*r));
    }
    return table;
  }

  const run_context& c_;
  const std::vector<variant_result>& results_;
  std::map<std::string, std::size_t> styles_;
  std::map<std::string, std::string> plots_;  // lab file -> its plot's SVG
};

}  // namespace

std::string notes_html(const std::string& text) {
  // Blocks in order: a paragraph's text, or a list's items.
  struct block {
    bool list = false;
    std::vector<std::string> parts;  // the paragraph's lines, or one text per item
  };
  std::vector<block> blocks;
  std::size_t item_indent = 0;
  bool in_paragraph = false;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string line = text.substr(at, end - at);
    at = end + 1;
    const std::size_t indent = line.find_first_not_of(" \t");
    if (indent == std::string::npos) {
      in_paragraph = false;
      continue;
    }
    const std::string words = line.substr(indent);
    const bool item = words.size() > 1 && (words[0] == '-' || words[0] == '*') && words[1] == ' ';
    if (item) {
      if (!in_paragraph || !blocks.back().list) blocks.push_back({true, {}});
      blocks.back().parts.push_back(words.substr(2));
      item_indent = indent;
    } else if (in_paragraph && (!blocks.back().list || indent > item_indent)) {
      // A paragraph's next line, or a list item's when indented past its dash.
      blocks.back().parts.back() += " " + words;
    } else {
      blocks.push_back({false, {words}});
    }
    in_paragraph = true;
  }
  std::string html;
  for (const block& b : blocks) {
    if (!b.list) {
      html += "<p>" + with_code(html_escape(b.parts.front())) + "</p>\n";
      continue;
    }
    html += "<ul>\n";
    for (const std::string& item : b.parts) html += "<li>" + with_code(html_escape(item)) + "</li>\n";
    html += "</ul>\n";
  }
  return html;
}

std::string run_report_html(const run_context& context, const std::vector<variant_result>& results) {
  return report_writer(context, results).html();
}

}  // namespace cudalab::host
