// Matching the results of two runs by lab file name, sweep point and variant.
#include "compare/result_match.hpp"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <map>
#include <tuple>

namespace cudalab::host {

bool result_key::operator==(const result_key& o) const {
  return std::tie(lab_file, occurrence, point, variant) == std::tie(o.lab_file, o.occurrence, o.point, o.variant);
}

bool result_key::operator<(const result_key& o) const {
  return std::tie(lab_file, occurrence, point, variant) < std::tie(o.lab_file, o.occurrence, o.point, o.variant);
}

std::string lab_file_label(const result_key& key) {
  return key.occurrence > 1 ? key.lab_file + " (" + std::to_string(key.occurrence) + ")" : key.lab_file;
}

std::vector<result_key> keys_of(const std::vector<variant_result>& results) {
  // Each lab file path gets its name's next number when it first appears.
  std::map<std::string, int> number_of_path, count_of_name;
  std::vector<result_key> keys;
  keys.reserve(results.size());
  for (const variant_result& r : results) {
    result_key k;
    k.lab_file = std::filesystem::path(r.lab_file).filename().string();
    if (k.lab_file.empty()) k.lab_file = r.lab_file;  // "dir/" has no file name: keep what was written
    const auto [it, added] = number_of_path.emplace(r.lab_file, 0);
    if (added) it->second = ++count_of_name[k.lab_file];
    k.occurrence = it->second;
    k.point = r.point;
    std::sort(k.point.begin(), k.point.end());  // the same point, whatever order the lab file lists its sweeps in
    k.variant = r.variant;
    keys.push_back(std::move(k));
  }
  return keys;
}

std::vector<matched_result> match_results(const std::vector<variant_result>& base,
                                          const std::vector<variant_result>& next) {
  const std::vector<result_key> base_keys = keys_of(base), next_keys = keys_of(next);
  std::map<result_key, std::deque<std::size_t>> unmatched;
  for (std::size_t i = 0; i < base.size(); ++i) unmatched[base_keys[i]].push_back(i);

  std::vector<matched_result> out;
  std::vector<bool> used(base.size(), false);
  for (std::size_t i = 0; i < next.size(); ++i) {
    matched_result m;
    m.next = i;
    const auto found = unmatched.find(next_keys[i]);
    if (found != unmatched.end() && !found->second.empty()) {
      m.base = found->second.front();
      used[*m.base] = true;
      found->second.pop_front();
    }
    out.push_back(m);
  }
  for (std::size_t i = 0; i < base.size(); ++i)
    if (!used[i]) out.push_back(matched_result{i, std::nullopt});
  return out;
}

}  // namespace cudalab::host
