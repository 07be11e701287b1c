// results.csv: a header row, then one row per result; the run (its start time) and the lab file first,
// swept parameters as columns param.<name>, then result_columns(), the GPU's ordinal among them. A
// figure that was not measured (not timed, not modelled) is an empty cell, never a 0.
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <string_view>

#include "results/columns.hpp"
#include "results/csv_field.hpp"
#include "results/format.hpp"
#include "results/reporter.hpp"

namespace cudalab::host {

namespace {

// Whether a spreadsheet would take `s` as a formula: it starts with =, +, -, @, a tab or a carriage
// return, and is not a number ("-1" stays as it is).
bool starts_a_formula(const std::string& s) {
  if (s.empty() || std::strchr("=+-@\t\r", s[0]) == nullptr) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return *end != '\0';
}

}  // namespace

// A field as RFC 4180 quotes it, text that would start a formula behind a ' (OWASP's advice on CSV
// injection: a lab file name or an error text is never run as a formula by a spreadsheet).
std::string csv_field(const std::string& text) {
  std::string s = starts_a_formula(text) ? "'" + text : text;
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

namespace {

class csv_reporter final : public reporter {
 public:
  explicit csv_reporter(std::ostream& out) : out_(out) {}
  void begin(const run_context& c) override {
    run_ = c.started_at;
    ordinal_ = c.device.ordinal;
  }
  void add(const variant_result& r) override { results_.push_back(r); }
  void end(const run_context&) override {
    const auto params = swept_names(results_);
    std::vector<std::string> header = {"run", "lab_file", "plugin", "point_index"};
    for (const auto& p : params) header.push_back("param." + p);
    header.push_back("variant");
    for (const column& c : result_columns())
      if (c.csv) header.push_back(c.csv);
    write_row(header);
    for (const auto& r : results_) {
      std::vector<std::string> row = {run_, r.lab_file, r.plugin, std::to_string(r.point_index)};
      for (const auto& p : params) row.push_back(point_value(r, p));
      row.push_back(r.variant);
      for (const column& c : result_columns()) {
        if (!c.csv) continue;
        // The GPU: the result's own (--devices, --device), else the one the run used.
        const bool device = std::string_view(c.csv) == "device";
        row.push_back(device && r.device < 0 ? std::to_string(ordinal_) : csv_text(c, r));
      }
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
  std::string run_;  ///< the run's start (run_context::started_at): which run a row of merged CSVs came from
  int ordinal_ = 0;  ///< the GPU of a run on one
  std::vector<variant_result> results_;
};

}  // namespace

std::unique_ptr<reporter> make_csv_reporter(std::ostream& out) { return std::make_unique<csv_reporter>(out); }

}  // namespace cudalab::host
