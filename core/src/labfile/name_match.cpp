// Typo suggestions: the valid name nearest to an unknown one, by edit distance.
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "labfile/toml_tree.hpp"

namespace cudalab::host {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Edit distance counting insertions, deletions, substitutions and swaps of neighbours as one each.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

std::optional<std::string> nearest_name(const std::string& word, const std::vector<std::string>& candidates) {
  // A plausible typo changes at most a third of the word (at least one character).
  const std::size_t allowed = std::max<std::size_t>(1, (word.size() + 2) / 3);
  std::optional<std::string> best;
  std::size_t best_distance = allowed + 1;
  const std::string w = lower(word);
  for (const std::string& candidate : candidates) {
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
