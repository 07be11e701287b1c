// The console table: one block per lab file and sweep point, a row per variant (its columns from
// result_columns()), failures spelled out.
#include <fmt/format.h>

#include <ostream>

#include "results/columns.hpp"
#include "results/format.hpp"
#include "results/reporter.hpp"

namespace cudalab::host {

namespace {

const char* const green = "\033[32m";
const char* const red = "\033[31m";
const char* const yellow = "\033[33m";
const char* const bold = "\033[1m";
const char* const reset = "\033[0m";

class table_reporter final : public reporter {
 public:
  table_reporter(std::ostream& out, bool colour) : out_(out), colour_(colour) {}

  void begin(const run_context& c) override {
    if (c.devices.empty()) {
      device_line(c.device, c.measured);
      return;
    }
    for (const run_device& d : c.devices) {
      out_ << "GPU " << d.ordinal << ": ";
      device_line(d.device, d.measured);
    }
  }

  void add(const variant_result& r) override {
    const std::string group = r.lab_file + "\n" + point_text(r) + "\n" + std::to_string(r.device);
    if (group != group_) {
      group_ = group;
      const std::string pt = point_text(r);
      out_ << "\n"
           << (colour_ ? bold : "") << r.lab_file << (r.title.empty() ? "" : " - " + r.title)
           << (pt.empty() ? "" : "  [" + pt + "]") << (r.device >= 0 ? "  on GPU " + std::to_string(r.device) : "")
           << (colour_ ? reset : "") << "\n";
      out_ << fmt::format("  {:<26} {:<13}", "variant", "status");
      for (const column& c : result_columns())
        if (c.console) out_ << fmt::format(" {:>{}}", c.console, c.width);
      out_ << "\n";
    }
    const bool ok = r.status == result_status::ok;
    // Green ok, red failures (wrong results, errors), yellow for variants deliberately not run.
    const char* const tint = ok ? green : r.status == result_status::skipped ? yellow : red;
    const std::string status = fmt::format("{:<13}", status_name(r.status));
    out_ << fmt::format("  {:<26} ", variant_label(r)) << (colour_ ? tint : "") << status << (colour_ ? reset : "");
    for (const column& c : result_columns())
      if (c.console && (r.has_model || !c.model)) out_ << fmt::format(" {:>{}}", shown_text(c, r), c.width);
    out_ << "\n";
    if (!ok) out_ << "      " << (colour_ ? tint : "") << failure_text(r) << (colour_ ? reset : "") << "\n";
    out_.flush();
  }

  void end() override { out_.flush(); }

 private:
  void device_line(const device_info& d, const ceilings& measured) {
    out_ << fmt::format("{} (sm_{}{}, {} SMs)", d.name, d.cc_major, d.cc_minor, d.sm_count);
    if (measured.d2d_copy_gbps > 0)
      out_ << fmt::format("  ceilings GB/s: copy {:.0f}, H2D {:.1f}, D2H {:.1f}, both {:.1f}; DRAM peak {:.0f}",
                          measured.d2d_copy_gbps, measured.h2d_gbps, measured.d2h_gbps, measured.bidir_gbps,
                          d.peak_dram_gbps());
    out_ << "\n";
  }

  std::ostream& out_;
  bool colour_;
  std::string group_;
};

}  // namespace

std::unique_ptr<reporter> make_table_reporter(std::ostream& out, bool colour) {
  return std::make_unique<table_reporter>(out, colour);
}

}  // namespace cudalab::host
