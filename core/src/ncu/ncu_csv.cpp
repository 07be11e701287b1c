// Nsight Compute's raw-page CSV read back: kernels and their metrics.
#include "ncu/ncu_csv.hpp"

#include <cmath>
#include <cstdlib>

namespace cudalab::host {
namespace {

// The records of CSV `text` from `at`: fields split at commas outside quotes, records at line ends
// outside quotes ("\r\n" too).
std::vector<std::vector<std::string>> csv_records(const std::string& text, std::size_t at) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false, any = false;
  auto end_field = [&] {
    record.push_back(std::move(field));
    field.clear();
  };
  auto end_record = [&] {
    if (any) {
      end_field();
      records.push_back(std::move(record));
    }
    record.clear();
    field.clear();
    any = false;
  };
  for (std::size_t i = at; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
      continue;
    }
    if (c == '"') {
      quoted = true;
      any = true;
    } else if (c == ',') {
      end_field();
      any = true;
    } else if (c == '\n') {
      end_record();
    } else if (c != '\r') {
      field += c;
      any = true;
    }
  }
  end_record();
  return records;
}

// The offset of the header line: the first line that starts with "ID" in quotes.
std::size_t header_at(const std::string& text) {
  const std::string header = "\"ID\",";
  for (std::size_t at = 0; at < text.size();) {
    if (text.compare(at, header.size(), header) == 0) return at;
    const std::size_t next = text.find('\n', at);
    if (next == std::string::npos) break;
    at = next + 1;
  }
  return std::string::npos;
}

// A metric column: ncu's metric names hold a double underscore ("l1tex__t_sectors..."); the others are
// the launch's identity ("Kernel Name", "Block Size", ...).
bool metric_column(const std::string& name) { return name.find("__") != std::string::npos; }

// An NVTX column: "thread Domain:Push/Pop_Range:..." and "Id:Domain:Start/Stop_Range:...".
bool nvtx_column(const std::string& name) { return name.find("_Range:") != std::string::npos; }

}  // namespace

std::optional<double> ncu_number(std::string_view text) {
  std::string digits;
  for (const char c : text)
    if (c != ',') digits += c;
  if (digits.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(digits.c_str(), &end);
  if (end != digits.c_str() + digits.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::vector<ncu_kernel> parse_ncu_csv(const std::string& text) {
  std::vector<ncu_kernel> kernels;
  const std::size_t at = header_at(text);
  if (at == std::string::npos) return kernels;
  const auto records = csv_records(text, at);
  const std::vector<std::string>& header = records.front();
  for (std::size_t r = 1; r < records.size(); ++r) {
    const std::vector<std::string>& row = records[r];
    if (row.size() != header.size() || row.front().empty() || row == header) continue;
    ncu_kernel k;
    for (std::size_t c = 0; c < header.size(); ++c) {
      const std::string& name = header[c];
      if (name == "ID") {
        k.id = row[c];
      } else if (name == "Kernel Name") {
        k.name = row[c];
      } else if (nvtx_column(name)) {
        if (!row[c].empty()) k.nvtx += (k.nvtx.empty() ? "" : "\n") + row[c];
      } else if (metric_column(name)) {
        if (const auto v = ncu_number(row[c])) k.metrics[name] = *v;
      }
    }
    kernels.push_back(std::move(k));
  }
  return kernels;
}

}  // namespace cudalab::host
