// results.csv: a header row, then one row per result; swept parameters become columns param.<name>.
#include <fmt/format.h>

#include <ostream>

#include "results/format.hpp"
#include "results/reporter.hpp"

namespace cudalab::host {

namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

std::string num(double v) { return fmt::format("{:.6g}", v); }

class csv_reporter final : public reporter {
 public:
  explicit csv_reporter(std::ostream& out) : out_(out) {}
  void begin(const run_context&) override {}
  void add(const variant_result& r) override { results_.push_back(r); }
  void end() override {
    const auto params = swept_names(results_);
    std::vector<std::string> header = {"lab_file", "plugin", "point_index"};
    for (const auto& p : params) header.push_back("param." + p);
    for (const char* h : {"variant", "baseline", "status", "median_ms", "min_ms", "max_ms", "cv", "samples", "batch",
                          "bytes_read", "bytes_written", "path", "gbps", "pct_of_baseline", "pct_of_ceiling",
                          "pct_of_peak", "ld_sectors_per_request", "st_sectors_per_request", "ld_efficiency",
                          "st_efficiency", "shared_ld_conflicts_per_request", "shared_st_conflicts_per_request", "mismatches", "max_abs_error", "error"})
      header.push_back(h);
    write_row(header);
    for (const auto& r : results_) {
      std::vector<std::string> row = {r.lab_file, r.plugin, std::to_string(r.point_index)};
      for (const auto& p : params) row.push_back(point_value(r, p));
      const auto& m = r.model;
      auto model = [&](bool any, double v) { return r.has_model && any ? num(v) : std::string(); };
      const std::vector<std::string> rest = {
          r.variant, r.is_baseline ? "true" : "false", status_name(r.status),
          r.time.timed ? num(r.time.median_ms) : "", r.time.timed ? num(r.time.min_ms) : "",
          r.time.timed ? num(r.time.max_ms) : "", r.time.timed ? num(r.time.cv) : "", std::to_string(r.time.samples),
          std::to_string(r.time.batch), std::to_string(r.bytes.bytes_read), std::to_string(r.bytes.bytes_written),
          r.bytes.path == memory_path::device ? "device" : "host_bus", num(r.gbps), num(r.pct_of_baseline),
          num(r.pct_of_ceiling), num(r.pct_of_peak), model(m.global_load.requests > 0, m.global_load.sectors_per_request()),
          model(m.global_store.requests > 0, m.global_store.sectors_per_request()),
          model(m.global_load.requests > 0, m.global_load.efficiency()),
          model(m.global_store.requests > 0, m.global_store.efficiency()),
          model(m.shared_load.requests > 0, m.shared_load.conflicts_per_request()),
          model(m.shared_store.requests > 0, m.shared_store.conflicts_per_request()),
          std::to_string(r.verification.mismatches), num(r.verification.max_abs_error), failure_text(r)};
      row.insert(row.end(), rest.begin(), rest.end());
      write_row(row);
    }
    out_.flush();
  }

 private:
  void write_row(const std::vector<std::string>& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) out_ << (i ? "," : "") << csv_field(fields[i]);
    out_ << "\n";
  }
  std::ostream& out_;
  std::vector<variant_result> results_;
};

}  // namespace

std::unique_ptr<reporter> make_csv_reporter(std::ostream& out) { return std::make_unique<csv_reporter>(out); }

}  // namespace cudalab::host
