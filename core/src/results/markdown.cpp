// report.md: the device and its ceilings, its clocks at the start and end and whether it ran throttled,
// then a table per lab file (sweeps as leading columns), links to the plots, and a section listing
// every failure.
#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "results/columns.hpp"
#include "results/format.hpp"
#include "results/reporter.hpp"

namespace cudalab::host {

namespace {

std::string rate(double v, int precision) { return v > 0 ? fmt::format("{:.{}f}", v, precision) : "-"; }

class markdown_reporter final : public reporter {
 public:
  markdown_reporter(std::ostream& out, std::string plot_prefix) : out_(out), plot_prefix_(std::move(plot_prefix)) {}

  void begin(const run_context&) override {}
  void add(const variant_result& r) override { results_.push_back(r); }

  void end(const run_context& c) override {
    context_ = c;
    out_ << "# cudalab results\n\n";
    out_ << fmt::format("Run {} with cudalab {}: {}\n\n", context_.started_at, context_.cudalab_version,
                        md_code(context_.command_line));
    out_
        << "| device | SMs | memory | L2 | DRAM peak GB/s | copy GB/s | L2 copy GB/s | H2D GB/s | D2H GB/s | both GB/s "
           "|\n";
    out_ << "|---|---|---|---|---|---|---|---|---|---|\n";
    if (context_.devices.empty()) device_row("", context_.device, context_.measured);
    for (const run_device& d : context_.devices)
      device_row("GPU " + std::to_string(d.ordinal) + ": ", d.device, d.measured);
    out_ << "\n";
    if (context_.devices.empty()) gpu_state_lines("", context_.gpu);
    for (const run_device& d : context_.devices) gpu_state_lines("GPU " + std::to_string(d.ordinal) + ": ", d.gpu);
    out_ << "\n";
    out_ << "GB/s counts the least bytes a correct kernel moves (read + written) over the median time per launch; "
            "% base is of the baseline variant at the same point, % ceil of the measured ceiling for the path "
            "(device copy, or pinned transfers for bus traffic). ld/st s/r: predicted sectors per request.\n";
    if (!context_.counters.empty())
      out_ << "\nCounters (`run --profile`): " << md_text(context_.counters)
           << ". Measured: what it counted for each variant's own kernels, summed over its launches; the verdict "
              "is \"matches\" when global sectors per request agree with the model's within 2% and shared-memory "
              "wavefront and conflict totals within 5% (docs/model.md).\n";

    const auto plots = plot_files(results_);
    for (const auto& file : lab_files_of(results_)) {
      const auto plot = std::find_if(plots.begin(), plots.end(), [&](const auto& p) { return p.first == file; });
      write_file_section(file, plot == plots.end() ? "" : plot->second);
    }

    out_ << "\n## Verification\n\n";
    bool any = false;
    for (const auto& r : results_) {
      if (r.status == result_status::ok) continue;
      any = true;
      const std::string pt = point_text(r);
      out_ << fmt::format("- {} {}{}: **{}** — {}\n", md_code(r.lab_file), md_text(r.variant),
                          pt.empty() ? "" : " [" + md_text(pt) + "]", status_name(r.status), md_text(failure_text(r)));
      for (std::size_t i = 1; i < r.verification.first_mismatches.size(); ++i)
        out_ << "  - " << md_text(r.verification.first_mismatches[i]) << "\n";
    }
    if (!any) out_ << fmt::format("All {} results verified against their CPU references.\n", results_.size());
    out_.flush();
  }

 private:
  // The GPU's clocks at the start and end of the run, as NVML read them, and its throttling warning.
  void gpu_state_lines(const std::string& label, const gpu_state& g) {
    const std::string driver =
        context_.nvml.driver_version.empty() ? "" : ", driver " + md_text(context_.nvml.driver_version);
    const auto sampled = [](const std::optional<gpu_sample>& s) { return s ? md_text(sample_text(*s)) : "-"; };
    const std::string what = label.empty() ? "GPU state" : label + "state";
    if (g.start || g.end)
      out_ << fmt::format("- {} (NVML{}) at the start: {}; at the end: {}\n", what, driver, sampled(g.start),
                          sampled(g.end));
    if (!g.unavailable.empty())
      out_ << fmt::format("- {} {}: {}\n", what, g.start ? "incomplete" : "not recorded", md_text(g.unavailable));
    if (g.throttle.throttled) out_ << fmt::format("- **Warning:** {}\n", md_text(g.throttle.warning));
  }

  void device_row(const std::string& label, const device_info& d, const ceilings& measured) {
    out_ << fmt::format("| {}{} (sm_{}{}) | {} | {:.1f} GiB | {:.0f} MiB | {} | {} | {} | {} | {} | {} |\n", label,
                        d.name, d.cc_major, d.cc_minor, d.sm_count, d.global_memory_bytes / double(1ull << 30),
                        d.l2_cache_bytes / double(1 << 20), rate(d.peak_dram_gbps(), 0),
                        rate(measured.d2d_copy_gbps, 1), rate(measured.l2_copy_gbps, 1), rate(measured.h2d_gbps, 1),
                        rate(measured.d2h_gbps, 1), rate(measured.bidir_gbps, 1));
  }

  // The section of one lab file, linking its plot `plot` ("": none).
  void write_file_section(const std::string& file, const std::string& plot) {
    const auto rows = rows_of(results_, file);
    const std::vector<std::string> params = swept_names(rows);
    const std::string& title = rows.front()->title;
    out_ << fmt::format("\n## {}{}\n\n", md_code(file), title.empty() ? "" : " — " + md_text(title));
    const bool timed = std::any_of(rows.begin(), rows.end(), [](const variant_result* r) { return r->gbps > 0; });
    const std::string what = timed ? "GB/s" : "sectors and wavefronts per request";
    if (!plot_prefix_.empty() && !plot.empty())
      out_ << fmt::format("![{}]({}{})\n\n",
                          params.empty() ? what + " of each variant" : what + " against " + params.back(), plot_prefix_,
                          plot);
    std::string head = "|", rule = "|";
    for (const auto& p : params) {
      head += " " + p + " |";
      rule += "---|";
    }
    head += " variant |";
    rule += "---|";
    const bool counted = std::any_of(rows.begin(), rows.end(), [](const variant_result* r) { return r->has_measured; });
    auto shown = [&](const column& c) { return c.markdown && (counted || !c.counters); };
    for (const column& c : result_columns()) {
      if (!shown(c)) continue;
      head += std::string(" ") + c.markdown + " |";
      rule += "---|";
    }
    out_ << head << "\n" << rule << "\n";
    for (const auto* r : rows) {
      std::string line = "|";
      for (const auto& p : params) line += " " + md_text(point_value(*r, p)) + " |";
      line += " " + md_text(variant_label(*r)) + " |";
      for (const column& c : result_columns())
        if (shown(c)) line += " " + md_text(shown_text(c, *r)) + " |";
      out_ << line << "\n";
    }
  }

  std::ostream& out_;
  std::string plot_prefix_;
  run_context context_;
  std::vector<variant_result> results_;
};

}  // namespace

std::unique_ptr<reporter> make_markdown_reporter(std::ostream& out, std::string plot_prefix) {
  return std::make_unique<markdown_reporter>(out, std::move(plot_prefix));
}

}  // namespace cudalab::host
