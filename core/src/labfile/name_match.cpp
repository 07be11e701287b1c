// Typo suggestions: the valid name nearest to an unknown one, by edit distance.
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "labfile/values.hpp"

namespace cudalab::host {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Names longer than this get no suggestion: no valid name is that long, and the work stays bounded.
constexpr std::size_t max_typo_length = 256;

// Edit distance counting insertions, deletions, substitutions and swaps of neighbours as one each,
// with three rows of the table (the swap looks two rows back): memory grows with b only.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], before[j - 2] + 1);
    }
    std::swap(before, previous);
    std::swap(previous, row);
  }
  return previous[b.size()];
}

}  // namespace

std::optional<std::string> nearest_name(const std::string& word, const std::vector<std::string>& candidates) {
  if (word.size() > max_typo_length) return std::nullopt;
  // A plausible typo changes at most a third of the word (at least one character).
  const std::size_t allowed = std::max<std::size_t>(1, (word.size() + 2) / 3);
  std::optional<std::string> best;
  std::size_t best_distance = allowed + 1;
  const std::string w = lower(word);
  for (const std::string& candidate : candidates) {
    // The lengths alone put a candidate out of reach: the distance is at least their difference.
    const std::size_t length_gap = std::max(w.size(), candidate.size()) - std::min(w.size(), candidate.size());
    if (length_gap > allowed) continue;
    const std::size_t d = edit_distance(w, lower(candidate));
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  return best;
}

std::string suggestion(const std::string& word, const std::vector<std::string>& candidates,
                       const std::string& quote_open, const std::string& quote_close) {
  const auto near = nearest_name(word, candidates);
  return near ? "; did you mean " + quote_open + *near + quote_close + "?" : "";
}

}  // namespace cudalab::host
