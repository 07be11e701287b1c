// The integrity checks on a result's kernel census (census_checks.hpp).
#include "assignment/census_checks.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace cudalab::host {

namespace {

// How many items a message names before "and N more".
constexpr std::size_t named_at_most = 3;

// "N thing(s): a, b, c and K more".
template <typename Item, typename Text>
std::string listing(const std::vector<const Item*>& items, Text text) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < named_at_most; ++i) out += (i ? "; " : "") + text(*items[i]);
  if (items.size() > named_at_most) out += fmt::format("; and {} more", items.size() - named_at_most);
  return out;
}

std::string kernel_text(const census_kernel& k) { return fmt::format("{} on stream {}", k.name, k.stream); }

std::string copy_text(const census_copy& c) {
  return fmt::format("{} of {} bytes on stream {}", c.kind, c.bytes, c.stream);
}

std::string count_of(std::size_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

bool host_copy(const census_copy& c) {
  return c.kind == "H2D" || c.kind == "D2H" || c.kind == "H2A" || c.kind == "A2H" || c.kind == "H2H";
}

// "2 kernels (a on stream 21; b on stream 21) and 1 copy (...)".
std::string work_text(const std::vector<const census_kernel*>& kernels, const std::vector<const census_copy*>& copies) {
  std::string what;
  if (!kernels.empty())
    what += count_of(kernels.size(), "kernel", "kernels") + " (" + listing(kernels, kernel_text) + ")";
  if (!copies.empty())
    what += (what.empty() ? "" : " and ") + count_of(copies.size(), "copy", "copies") + " (" +
            listing(copies, copy_text) + ")";
  return what;
}

void stream_flags(const kernel_census& c, const census_policy& policy, std::vector<grade_flag>& out) {
  if (policy.stream == "any") return;
  std::vector<const census_kernel*> off_kernels, late_kernels;
  std::vector<const census_copy*> off_copies, late_copies;
  for (const census_kernel& k : c.kernels) {
    if (k.after_session) late_kernels.push_back(&k);
    if (policy.stream == "session" && k.stream != c.session_stream) off_kernels.push_back(&k);
  }
  for (const census_copy& x : c.copies) {
    if (x.after_session) late_copies.push_back(&x);
    if (policy.stream == "session" && x.stream != c.session_stream) off_copies.push_back(&x);
  }
  if (!off_kernels.empty() || !off_copies.empty())
    out.push_back({"census.stream", "blocking",
                   fmt::format("{} ran on a stream other than the session stream ({}): all work must go to the "
                               "stream the run is given",
                               work_text(off_kernels, off_copies), c.session_stream)});
  if (!late_kernels.empty() || !late_copies.empty())
    out.push_back({"census.stream", "blocking",
                   fmt::format("{} still ran after the session stream had finished its work: work the session "
                               "stream does not wait for escapes the timing",
                               work_text(late_kernels, late_copies))});
}

}  // namespace

bool glob_match(const std::string& pattern, const std::string& text) {
  // Iterative matching with one backtrack point: the last '*' and where its run last ended.
  std::size_t p = 0, t = 0, star = std::string::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (star != std::string::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::vector<grade_flag> census_flags(const variant_result& r, const census_policy& policy) {
  std::vector<grade_flag> out;
  const kernel_census& c = r.census;
  if (!c.taken) return out;
  if (!c.available()) {
    out.push_back({"census", "info", "the kernel census could not be taken: " + c.unavailable});
    return out;
  }
  stream_flags(c, policy, out);

  if (policy.host_copies == "deny" && r.bytes.path == memory_path::device) {
    std::vector<const census_copy*> host;
    for (const census_copy& x : c.copies)
      if (host_copy(x)) host.push_back(&x);
    if (!host.empty())
      out.push_back({"census.host_copies", "blocking",
                     fmt::format("{} between host and device while the submission ran ({}): this lab's bytes stay "
                                 "in device memory, and the work must be done on the GPU",
                                 count_of(host.size(), "copy", "copies"), listing(host, copy_text))});
  }

  std::vector<const census_kernel*> denied;
  std::vector<std::string> matched;
  for (const census_kernel& k : c.kernels)
    for (const std::string& pattern : policy.deny)
      if (glob_match(pattern, k.name)) {
        denied.push_back(&k);
        if (std::find(matched.begin(), matched.end(), pattern) == matched.end()) matched.push_back(pattern);
        break;
      }
  if (!denied.empty())
    out.push_back(
        {"census.deny", "blocking",
         fmt::format("{} whose name a denied pattern ({}) matches: {}", count_of(denied.size(), "kernel", "kernels"),
                     fmt::join(matched, ", "), listing(denied, [](const census_kernel& k) { return k.name; }))});

  if (c.kernel_count < policy.min_kernels)
    out.push_back({"census.kernels", "blocking",
                   c.kernel_count == 0
                       ? fmt::format("no kernel ran (at least {} must): the GPU computed nothing", policy.min_kernels)
                       : fmt::format("{} ran, fewer than the {} the assignment requires",
                                     count_of(c.kernel_count, "kernel", "kernels"), policy.min_kernels)});
  if (policy.max_kernels && c.kernel_count > *policy.max_kernels)
    out.push_back({"census.kernels", "blocking",
                   fmt::format("{} ran, more than the {} the assignment allows",
                               count_of(c.kernel_count, "kernel", "kernels"), *policy.max_kernels)});

  if (c.dropped_records > 0)
    out.push_back({"census", "warning",
                   fmt::format("CUPTI dropped {} activity records: the census is short, and its checks saw only "
                               "what it kept",
                               c.dropped_records)});
  return out;
}

}  // namespace cudalab::host
