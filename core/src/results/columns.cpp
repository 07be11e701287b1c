// The columns of the results tables: each quantity of a result said once, with its header and format
// in results.csv, the console table and report.md's tables.
#include "results/columns.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "results/counter_verdict.hpp"
#include "results/format.hpp"

namespace cudalab::host {
namespace {

// A timing figure, none when the result was not timed.
cell timed(const variant_result& r, double v) { return r.time.timed ? cell(v) : cell(); }
cell timed_count(const variant_result& r, std::uint64_t v) { return r.time.timed ? cell(v) : cell(); }

// A model figure of one side (load or store), none without a model or without accesses on that side.
cell modelled(const variant_result& r, std::uint64_t requests, double v) {
  return r.has_model && requests > 0 ? cell(v) : cell();
}

// The median's interval as the fraction its farther end lies from the median; none without an interval.
cell interval_reach(const variant_result& r) {
  if (!r.time.timed || !r.time.has_interval() || !(r.time.median_ms > 0)) return cell();
  const double reach = std::max(r.time.median_ms - r.time.interval_lo_ms, r.time.interval_hi_ms - r.time.median_ms);
  return cell(reach / r.time.median_ms);
}

// Text that is "" when there is none.
cell text(std::string s) { return s.empty() ? cell() : cell(std::move(s)); }

// A counter of one side (load or store) that Nsight Compute counted, none without counters or without
// accesses on that side.
cell counted(const variant_result& r, std::uint64_t requests, double v) {
  return r.has_measured && requests > 0 ? cell(v) : cell();
}
cell counted_count(const variant_result& r, std::uint64_t v) { return r.has_measured ? cell(v) : cell(); }

}  // namespace

const std::vector<column>& result_columns() {
  using r_t = const variant_result&;
  // The console's ranks say what a narrow terminal keeps (console_table.cpp): the time, the rate and
  // the comparison with the baseline first, then the model's sectors and conflicts per request (the
  // lab's lesson), then the median's precision (+-%) and the other percentages. 80 columns keep ranks
  // 1-5, 120 all.
  // csv, console, markdown, width, rank, precision, scale, positive, time, value
  static const std::vector<column> columns = {
      {"baseline", nullptr, nullptr, 0, 0, 0, 1, false, false,
       [](r_t r) { return cell(std::string(r.is_baseline ? "true" : "false")); }},
      {"device", nullptr, nullptr, 0, 0, 0, 1, false, false,
       [](r_t r) { return r.device >= 0 ? cell(std::uint64_t(r.device)) : cell(); }},
      {"status", nullptr, "status", 0, 0, 0, 1, false, false,
       [](r_t r) { return cell(std::string(status_name(r.status))); }},
      {"median_ms", "median", "median", 8, 1, 0, 1, false, true, [](r_t r) { return timed(r, r.time.median_ms); }},
      // How precise the median is: the farther end of its 95% interval from it, as a % of it. In the console
      // it stands where the repetitions' CV stood (results.csv and report.md keep the CV).
      {nullptr, "+-%", nullptr, 5, 7, 2, 100, false, false, [](r_t r) { return interval_reach(r); }},
      {"interval_lo_ms", nullptr, nullptr, 0, 0, 0, 1, false, true,
       [](r_t r) { return r.time.has_interval() ? cell(r.time.interval_lo_ms) : cell(); }},
      {"interval_hi_ms", nullptr, nullptr, 0, 0, 0, 1, false, true,
       [](r_t r) { return r.time.has_interval() ? cell(r.time.interval_hi_ms) : cell(); }},
      {"stopped_by", nullptr, nullptr, 0, 0, 0, 1, false, false,
       [](r_t r) { return r.time.stopped_by ? cell(std::string(stop_reason_name(*r.time.stopped_by))) : cell(); }},
      {"launch_bound", nullptr, nullptr, 0, 0, 0, 1, false, false,
       [](r_t r) { return r.time.timed ? cell(std::string(r.time.launch_bound ? "true" : "false")) : cell(); }},
      {"host_inclusive_ms", nullptr, nullptr, 0, 0, 0, 1, false, true,
       [](r_t r) { return r.time.launch_bound ? cell(r.time.host_inclusive_ms) : cell(); }},
      {"min_ms", nullptr, nullptr, 0, 0, 0, 1, false, true, [](r_t r) { return timed(r, r.time.min_ms); }},
      {"max_ms", nullptr, nullptr, 0, 0, 0, 1, false, true, [](r_t r) { return timed(r, r.time.max_ms); }},
      {"cv", nullptr, "CV %", 0, 0, 2, 100, false, false, [](r_t r) { return timed(r, r.time.cv); }},
      {"samples", nullptr, nullptr, 0, 0, 0, 1, false, false, [](r_t r) { return timed_count(r, r.time.samples); }},
      {"batch", nullptr, nullptr, 0, 0, 0, 1, false, false, [](r_t r) { return timed_count(r, r.time.batch); }},
      {"bytes_read", nullptr, nullptr, 0, 0, 0, 1, false, false, [](r_t r) { return cell(r.bytes.bytes_read); }},
      {"bytes_written", nullptr, nullptr, 0, 0, 0, 1, false, false, [](r_t r) { return cell(r.bytes.bytes_written); }},
      {"path", nullptr, nullptr, 0, 0, 0, 1, false, false,
       [](r_t r) { return cell(std::string(r.bytes.path == memory_path::device ? "device" : "host_bus")); }},
      {"gbps", "GB/s", "GB/s", 7, 2, 1, 1, true, false, [](r_t r) { return timed(r, r.gbps); }},
      {"pct_of_baseline", "% base", "% base", 6, 3, 1, 1, true, false,
       [](r_t r) { return timed(r, r.pct_of_baseline); }},
      {"pct_of_ceiling", "% ceil", "% ceil", 6, 8, 1, 1, true, false, [](r_t r) { return timed(r, r.pct_of_ceiling); }},
      {"pct_of_peak", "% peak", nullptr, 6, 9, 1, 1, true, false, [](r_t r) { return timed(r, r.pct_of_peak); }},
      {"ld_sectors_per_request", "ld s/r", "ld s/r", 6, 4, 2, 1, false, false,
       [](r_t r) { return modelled(r, r.model.global_load.requests, r.model.global_load.sectors_per_request()); }},
      {"st_sectors_per_request", "st s/r", "st s/r", 6, 5, 2, 1, false, false,
       [](r_t r) { return modelled(r, r.model.global_store.requests, r.model.global_store.sectors_per_request()); }},
      {"ld_efficiency", nullptr, nullptr, 0, 0, 0, 1, false, false,
       [](r_t r) { return modelled(r, r.model.global_load.requests, r.model.global_load.efficiency()); }},
      {"st_efficiency", nullptr, nullptr, 0, 0, 0, 1, false, false,
       [](r_t r) { return modelled(r, r.model.global_store.requests, r.model.global_store.efficiency()); }},
      {"shared_ld_conflicts_per_request", nullptr, nullptr, 0, 0, 0, 1, false, false,
       [](r_t r) { return modelled(r, r.model.shared_load.requests, r.model.shared_load.conflicts_per_request()); }},
      {"shared_st_conflicts_per_request", nullptr, nullptr, 0, 0, 0, 1, false, false,
       [](r_t r) { return modelled(r, r.model.shared_store.requests, r.model.shared_store.conflicts_per_request()); }},
      // The two above side by side, "31.00/0.00", where a table has room for one column.
      {nullptr, "sh cf ld/st", "sh conflicts/r ld/st", 11, 6, 0, 1, false, false,
       [](r_t r) { return text(shared_conflicts_text(r)); }},
      // What Nsight Compute counted (run --profile), beside the model's, and the verdict on the two.
      {"measured_ld_sectors_per_request", nullptr, nullptr, 0, 0, 0, 1, false, false,
       [](r_t r) { return counted(r, r.measured.global_load.requests, r.measured.global_load.sectors_per_request()); }},
      {"measured_st_sectors_per_request", nullptr, nullptr, 0, 0, 0, 1, false, false,
       [](r_t r) { return counted(r, r.measured.global_store.requests, r.measured.global_store.sectors_per_request()); }},
      {nullptr, nullptr, "measured s/r ld/st", 0, 0, 0, 1, false, false,
       [](r_t r) { return text(measured_sectors_text(r)); }, true},
      {"measured_shared_ld_conflicts_per_request", nullptr, nullptr, 0, 0, 0, 1, false, false,
       [](r_t r) {
         return counted(r, r.measured.shared_load.requests, r.measured.shared_load.address_conflicts_per_request());
       }},
      {"measured_shared_st_conflicts_per_request", nullptr, nullptr, 0, 0, 0, 1, false, false,
       [](r_t r) {
         return counted(r, r.measured.shared_store.requests, r.measured.shared_store.address_conflicts_per_request());
       }},
      {nullptr, nullptr, "measured sh conflicts/r ld/st", 0, 0, 0, 1, false, false,
       [](r_t r) { return text(measured_shared_conflicts_text(r)); }, true},
      {"measured_dram_bytes_read", nullptr, nullptr, 0, 0, 0, 1, false, false,
       [](r_t r) { return counted_count(r, r.measured.dram_bytes_read); }},
      {"measured_dram_bytes_written", nullptr, nullptr, 0, 0, 0, 1, false, false,
       [](r_t r) { return counted_count(r, r.measured.dram_bytes_written); }},
      {nullptr, nullptr, "DRAM MB read/written", 0, 0, 0, 1, false, false,
       [](r_t r) {
         return r.has_measured ? cell(fmt::format("{:.2f}/{:.2f}", r.measured.dram_bytes_read / 1e6,
                                                  r.measured.dram_bytes_written / 1e6))
                               : cell();
       },
       true},
      {"counters", nullptr, "counters", 0, 0, 0, 1, false, false, [](r_t r) { return text(judge_counters(r).text()); },
       true},
      {"mismatches", nullptr, nullptr, 0, 0, 0, 1, false, false, [](r_t r) { return cell(r.verification.mismatches); }},
      {"max_abs_error", nullptr, nullptr, 0, 0, 0, 1, false, false,
       [](r_t r) { return cell(r.verification.max_abs_error); }},
      {"error", nullptr, nullptr, 0, 0, 0, 1, false, false, [](r_t r) { return cell(failure_text(r)); }},
  };
  return columns;
}

std::string csv_text(const column& c, const variant_result& r) {
  struct visitor {
    std::string operator()(std::monostate) const { return ""; }
    std::string operator()(std::uint64_t v) const { return std::to_string(v); }
    std::string operator()(double v) const { return std::isfinite(v) ? fmt::format("{:.6g}", v) : ""; }
    std::string operator()(const std::string& v) const { return v; }
  };
  return std::visit(visitor{}, c.value(r));
}

std::string shown_text(const column& c, const variant_result& r) {
  struct visitor {
    const column& c;
    std::string operator()(std::monostate) const { return "-"; }
    std::string operator()(std::uint64_t v) const { return std::to_string(v); }
    std::string operator()(double v) const {
      if (c.positive && !(v > 0)) return "-";
      return c.time ? time_text(v) : fmt::format("{:.{}f}", c.scale * v, c.precision);
    }
    std::string operator()(const std::string& v) const { return v.empty() ? "-" : v; }
  };
  return std::visit(visitor{c}, c.value(r));
}

}  // namespace cudalab::host
