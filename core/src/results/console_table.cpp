// The console table: one block per lab file and sweep point, a row per variant (its columns from
// result_columns(), as many as the width allows), failures spelled out on lines of their own.
#include <fmt/format.h>

#include <algorithm>

#include <ostream>

#include "results/columns.hpp"
#include "results/console_text.hpp"
#include "results/counter_verdict.hpp"
#include "results/format.hpp"
#include "results/reporter.hpp"

namespace cudalab::host {

namespace {

const char* const green = "\033[32m";
const char* const red = "\033[31m";
const char* const yellow = "\033[33m";
const char* const bold = "\033[1m";
const char* const reset = "\033[0m";

// The columns every row has: an indent, the variant, the status.
constexpr std::size_t indent_columns = 2;
constexpr std::size_t variant_columns = 21;  // every shipped variant's name; a longer one gets a line of its own
constexpr std::size_t status_columns = 13;   // "verify_failed"
// Between the status and each column after it.
constexpr std::size_t gap = 2;
// Where a failure's text starts, under the variant's name.
constexpr std::size_t failure_indent = 6;

class table_reporter final : public reporter {
 public:
  table_reporter(std::ostream& out, bool colour, std::size_t width) : out_(out), colour_(colour), width_(width) {
    std::vector<const column*> console;
    std::vector<column_fit> fits;
    for (const column& c : result_columns())
      if (c.console) {
        console.push_back(&c);
        fits.push_back({gap + std::size_t(c.width), c.rank});
      }
    const auto shown = fit_columns(indent_columns + variant_columns + 1 + status_columns, fits, width);
    for (std::size_t i = 0; i < console.size(); ++i)
      if (shown[i]) columns_.push_back(console[i]);
  }

  void begin(const run_context& c) override {
    if (c.devices.empty()) {
      device_line("", c.device, c.measured);
      return;
    }
    for (const run_device& d : c.devices) device_line("GPU " + std::to_string(d.ordinal) + ": ", d.device, d.measured);
  }

  void add(const variant_result& r) override {
    const std::string group = r.lab_file + "\n" + point_text(r) + "\n" + std::to_string(r.device);
    if (group != group_) {
      group_ = group;
      const std::string pt = point_text(r);
      // "on GPU 1" is one word to the wrapping: joined by a unit separator, a space again once wrapped.
      const char glue = '\x1f';
      const std::string heading =
          printable(r.lab_file + (r.title.empty() ? "" : " - " + r.title) + (pt.empty() ? "" : "  [" + pt + "]"),
                    text_lines::kept) +
          (r.device >= 0 ? std::string("  on") + glue + "GPU" + glue + std::to_string(r.device) : "");
      out_ << "\n";
      for (std::string line : wrap_lines(heading, width_, 0, 4)) {
        std::replace(line.begin(), line.end(), glue, ' ');
        out_ << (colour_ ? bold : "") << line << (colour_ ? reset : "") << "\n";
      }
      std::string header = std::string(indent_columns, ' ') + pad_right("variant", variant_columns) + " " +
                           pad_right("status", status_columns);
      for (const column* c : columns_) header += std::string(gap, ' ') + pad_left(c->console, std::size_t(c->width));
      out_ << header << "\n";
    }
    const bool ok = r.status == result_status::ok;
    // Green ok, red failures (wrong results, errors), yellow for variants deliberately not run.
    const char* const tint = ok ? green : r.status == result_status::skipped ? yellow : red;
    const std::string label = variant_label(r);
    const std::string indent(indent_columns, ' ');
    if (text_columns(label) > variant_columns) out_ << indent << label << "\n";  // the row goes on below it
    out_ << indent << pad_right(text_columns(label) > variant_columns ? "" : label, variant_columns) << " "
         << (colour_ ? tint : "") << pad_right(status_name(r.status), status_columns) << (colour_ ? reset : "");
    for (const column* c : columns_)
      out_ << std::string(gap, ' ') << pad_left(shown_text(*c, r), std::size_t(c->width));
    out_ << "\n";
    // A failure's text may hold what the child printed (a submission's output): shown, never obeyed.
    if (!ok)
      for (const std::string& line :
           wrap_lines(printable(failure_text(r), text_lines::kept), width_, failure_indent, failure_indent))
        out_ << (colour_ ? tint : "") << line << (colour_ ? reset : "") << "\n";
    if (r.has_measured) measured_lines(r);
    if (r.time.launch_bound)
      for (const std::string& line : wrap_lines(launch_bound_note(r), width_, failure_indent, failure_indent + 2))
        out_ << line << "\n";
    out_.flush();
  }

  // Over named GPUs (--devices, --device), how busy each was: a line per GPU.
  void end(const run_context& c) override {
    if (c.schedule && !c.devices.empty()) {
      out_ << "\n";
      for (const run_device& d : c.devices) {
        double busy_s = 0;
        std::size_t jobs = 0;
        for (const scheduled_job& j : c.schedule->jobs)
          if (j.device == d.ordinal) {
            busy_s += j.duration_s;
            jobs++;
          }
        out_ << fmt::format("GPU {}: busy {:.1f} s of {:.1f} s, {} job{}\n", d.ordinal, busy_s, c.schedule->end_s, jobs,
                            jobs == 1 ? "" : "s");
      }
    }
    out_.flush();
  }

 private:
  // The device's name, then its ceilings: a line, or two where one does not fit.
  void device_line(const std::string& label, const device_info& d, const ceilings& measured) {
    std::string text = label + fmt::format("{} (sm_{}{}, {} SMs)", d.name, d.cc_major, d.cc_minor, d.sm_count);
    if (measured.d2d_copy_gbps > 0) {
      const std::string rates = fmt::format(
          "ceilings GB/s: copy {:.0f}, L2 copy {:.0f}, H2D {:.1f}, D2H {:.1f}, both {:.1f}; DRAM peak {:.0f}",
          measured.d2d_copy_gbps, measured.l2_copy_gbps, measured.h2d_gbps, measured.d2h_gbps, measured.bidir_gbps,
          d.peak_dram_gbps());
      text += (text_columns(text) + 2 + text_columns(rates) <= width_ ? "  " : "\n") + rates;
    }
    for (const std::string& line : wrap_lines(text, width_, 0, 2)) out_ << line << "\n";
  }

  // What Nsight Compute counted (run --profile), under the row and the model's columns, then the
  // verdict: green when it matches, yellow when it differs.
  void measured_lines(const variant_result& r) {
    const counter_verdict verdict = judge_counters(r);
    const std::string verdict_text = verdict.text();
    std::string text = "measured: " + measured_text(r);
    if (!verdict_text.empty()) text += " - " + verdict_text;
    const char* tint = verdict.kind == verdict_kind::matches   ? green
                       : verdict.kind == verdict_kind::differs ? yellow
                                                               : "";
    for (const std::string& line : wrap_lines(text, width_, failure_indent, failure_indent + 2))
      out_ << (colour_ && *tint ? tint : "") << line << (colour_ && *tint ? reset : "") << "\n";
  }

  std::ostream& out_;
  bool colour_;
  std::size_t width_;
  std::vector<const column*> columns_;  // the console's columns that fit, in table order
  std::string group_;
};

}  // namespace

std::unique_ptr<reporter> make_table_reporter(std::ostream& out, bool colour, std::size_t width) {
  return std::make_unique<table_reporter>(out, colour, width);
}

}  // namespace cudalab::host
