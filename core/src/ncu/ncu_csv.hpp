// Nsight Compute's raw page as CSV (`ncu --csv --page raw --print-units base`): a kernel launch per
// row, its metrics by name. What ncu prints may hold other lines before the CSV (the program's own
// output, ==PROF== notes) and after it (==WARNING== notes).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudalab::host {

/// One kernel launch of the raw page.
struct ncu_kernel {
  std::string id;    ///< the "ID" column: ncu's running number of the launch
  std::string name;  ///< "Kernel Name", demangled
  std::string nvtx;  ///< the NVTX columns (push/pop and start/end ranges) as ncu wrote them, joined by a newline
  std::map<std::string, double> metrics;  ///< each metric column ("dram__bytes_read.sum") whose value is a number
};

/// A number as the raw page writes it: "1,980,000" (thousands separators), "83.20", "0"; nullopt for
/// anything else ("", "n/a", "PolicySpread").
std::optional<double> ncu_number(std::string_view text);

/// The kernels of ncu's raw-page CSV in `text`, in order: the table starts at the first line that
/// begins with "ID" in quotes; the units row under the header (no ID), a repeated header, and lines
/// that are not rows of the table (another number of fields, ncu's ==WARNING== notes) are skipped.
/// Fields are RFC 4180 (quoted, "" for a quote). Empty when `text` holds no table.
std::vector<ncu_kernel> parse_ncu_csv(const std::string& text);

}  // namespace cudalab::host
