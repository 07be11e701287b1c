// Small formatting pieces the reporters share: times, point labels, grouping, the one-line failure reason.
#include "results/format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <set>

#include "labfile/values.hpp"
#include "results/console_text.hpp"

namespace cudalab::host {

std::string utc_text(std::time_t t, const char* format) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

namespace {

// `s` on one line: line breaks become spaces (a newline would end a Markdown heading, list item or row), and
// other control characters are escaped (a child's output in a failure's text is shown, never obeyed).
std::string one_line(const std::string& s) {
  std::string out = s;
  std::replace_if(
      out.begin(), out.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return printable(out, text_lines::kept);
}

}  // namespace

std::string md_text(const std::string& s) {
  std::string out;
  for (char c : one_line(s)) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string md_code(const std::string& s) {
  // Fenced by one more backtick than its longest run of them, with spaces inside the fence when it holds any.
  std::size_t longest = 0, run = 0;
  for (char c : s) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`'), pad = longest > 0 ? " " : "";
  return fence + pad + one_line(s) + pad + fence;
}

std::string time_text(double ms) {
  if (!std::isfinite(ms) || ms < 0) return "-";
  struct unit {
    const char* name;
    double per_ms;
  };
  static const unit units[] = {{"ns", 1e6}, {"us", 1e3}, {"ms", 1}, {"s", 1e-3}};
  // The smallest unit in which the value stays below 1000 once rounded to 4 significant digits.
  for (const unit& u : units) {
    const double v = ms * u.per_ms;
    const bool last = &u == &units[std::size(units) - 1];
    if (v >= 999.95 && !last) continue;
    const int decimals = v < 9.9995 ? 3 : v < 99.995 ? 2 : v < 999.95 ? 1 : 0;
    return fmt::format("{:.{}f} {}", v, decimals, u.name);
  }
  return "-";  // not reached: the last unit always answers
}

std::optional<double> number_in(const std::string& text) {
  if (text.empty() || text.find_first_of(" \t\n") != std::string::npos) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::string point_text(const variant_result& r) { return labels_text(r.point); }

std::string variant_label(const variant_result& r) { return r.is_baseline ? r.variant + " (baseline)" : r.variant; }

std::string failure_text(const variant_result& r) {
  if (r.status == result_status::error || r.status == result_status::skipped) return r.error;
  if (r.status != result_status::verify_failed) return "";
  const verification& c = r.verification;
  std::string s = std::to_string(c.mismatches) + " of " + std::to_string(c.checked) + " wrong (" + c.tolerance + ")";
  if (!c.first_mismatches.empty()) s += "; " + c.first_mismatches.front();
  if (!c.note.empty()) s += "; " + c.note;
  return s;
}

std::string per_side_text(std::uint64_t load_requests, double load, std::uint64_t store_requests, double store) {
  if (load_requests + store_requests == 0) return "";
  auto side = [](std::uint64_t requests, double v) { return requests ? fmt::format("{:.2f}", v) : std::string("-"); };
  return side(load_requests, load) + "/" + side(store_requests, store);
}

std::string shared_conflicts_text(const variant_result& r) {
  const auto& ld = r.model.shared_load;
  const auto& st = r.model.shared_store;
  if (!r.has_model) return "";
  return per_side_text(ld.requests, ld.conflicts_per_request(), st.requests, st.conflicts_per_request());
}

std::string measured_shared_conflicts_text(const variant_result& r) {
  const auto& ld = r.measured.shared_load;
  const auto& st = r.measured.shared_store;
  if (!r.has_measured) return "";
  return per_side_text(ld.requests, ld.address_conflicts_per_request(), st.requests,
                       st.address_conflicts_per_request());
}

std::string measured_sectors_text(const variant_result& r) {
  const auto& ld = r.measured.global_load;
  const auto& st = r.measured.global_store;
  if (!r.has_measured) return "";
  return per_side_text(ld.requests, ld.sectors_per_request(), st.requests, st.sectors_per_request());
}

std::string launch_bound_note(const variant_result& r) {
  if (!r.time.timed || !r.time.launch_bound) return "";
  return "launch-bound: each launch ran " + time_text(r.time.median_ms) +
         " on the GPU, shorter than the host's launch interval; timed " +
         (r.time.graph ? "as a CUDA graph" : "behind a blocking kernel") + " (host-inclusive " +
         time_text(r.time.host_inclusive_ms) + " per launch)";
}

std::string measured_text(const variant_result& r) {
  if (!r.has_measured) return "";
  const measured_counters& m = r.measured;
  if (m.kernels == 0) return "no kernel";
  std::vector<std::string> parts;
  for (const auto& [name, g] :
       {std::pair{"ld", &m.global_load}, std::pair{"st", &m.global_store}, std::pair{"atomic", &m.global_atomic}})
    if (g->requests > 0) parts.push_back(fmt::format("{} s/r {:.2f}", name, g->sectors_per_request()));
  if (const std::string shared = measured_shared_conflicts_text(r); !shared.empty())
    parts.push_back("sh cf ld/st " + shared);
  if (m.shared_atomic.requests > 0)
    parts.push_back(fmt::format("sh atomic cf/r {:.2f}", m.shared_atomic.address_conflicts_per_request()));
  if (parts.empty()) parts.push_back("no global or shared access");
  std::string text;
  for (const std::string& p : parts) text += (text.empty() ? "" : ", ") + p;
  return text;
}

std::vector<std::string> swept_names(const std::vector<const variant_result*>& rows) {
  std::vector<std::string> names;
  for (const variant_result* r : rows)
    for (const auto& kv : r->point)
      if (std::find(names.begin(), names.end(), kv.first) == names.end()) names.push_back(kv.first);
  return names;
}

std::vector<std::string> swept_names(const std::vector<variant_result>& results) {
  std::vector<const variant_result*> rows;
  for (const auto& r : results) rows.push_back(&r);
  return swept_names(rows);
}

std::string point_value(const variant_result& r, const std::string& name) {
  for (const auto& [k, v] : r.point)
    if (k == name) return v;
  return "";
}

std::vector<std::string> lab_files_of(const std::vector<variant_result>& results) {
  std::vector<std::string> files;
  for (const auto& r : results)
    if (std::find(files.begin(), files.end(), r.lab_file) == files.end()) files.push_back(r.lab_file);
  return files;
}

std::vector<const variant_result*> rows_of(const std::vector<variant_result>& results, const std::string& lab_file) {
  std::vector<const variant_result*> rows;
  for (const auto& r : results)
    if (r.lab_file == lab_file) rows.push_back(&r);
  return rows;
}

namespace {

// Whether a lab file's rows get a plot: at least one of them was timed or has counters (run --profile).
bool gets_plot(const std::vector<const variant_result*>& rows) {
  return std::any_of(rows.begin(), rows.end(), [](const variant_result* r) { return r->gbps > 0 || r->has_measured; });
}

// A lab file's stem as a plain file name: "my lab (1).toml" -> "my_lab__1_".
std::string plain_stem(const std::string& lab_file) {
  std::string stem = std::filesystem::path(lab_file).stem().string();
  if (stem.empty()) stem = "lab";
  for (char& c : stem) {
    const auto byte = static_cast<unsigned char>(c);
    if (!std::isalnum(byte) && c != '-' && c != '_' && c != '.' && byte < 0x80) c = '_';
  }
  if (stem[0] == '.') stem[0] = '_';
  return stem;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> plot_files(const std::vector<variant_result>& results) {
  std::vector<std::pair<std::string, std::string>> plots;
  std::set<std::string> taken;  // lower case: "Lab.svg" and "lab.svg" are one file on some file systems
  for (const std::string& file : lab_files_of(results)) {
    if (!gets_plot(rows_of(results, file))) continue;
    const std::string stem = plain_stem(file);
    std::string name = stem + ".svg";
    for (int n = 2; taken.count(lower(name)); ++n) name = stem + "-" + std::to_string(n) + ".svg";
    taken.insert(lower(name));
    plots.emplace_back(file, name);
  }
  return plots;
}

}  // namespace cudalab::host
