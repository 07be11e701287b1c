// Values in lab files, TOML-free: a parameter value checked against its spec, sizes ("64Mi") read and
// written, the valid name nearest to a misspelt one, values and point labels as text, and enumerators
// read by name.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cudalab/param.hpp"

namespace cudalab::host {

/// "" when `value` suits the parameter `spec`, else what is wrong, naming the parameter: not a finite
/// number, out of range (with the range and the unit), not among the allowed values, not a multiple,
/// not one of a choice's choices.
/// REQUIRES: value has spec's type (an integer or real for the numeric checks).
std::string value_problem(const param_spec& spec, const param_value& value);

/// Parses a size or integer: 1024, "64Ki", "256Mi", "1Gi", "1K"/"1M"/"1G" (powers of 10), "2^28".
/// Returns nullopt for anything else or on overflow.
std::optional<std::int64_t> parse_size(const std::string& text);

/// True when `text` is written as a size but its value does not fit a signed 64-bit integer
/// ("2^63", "9223372036854775808", "8589934592Gi").
bool size_overflows(const std::string& text);

/// `value` as parse_size reads it back with a binary suffix: "256Mi" for 268435456, "3Ki" for 3072, in
/// the largest of Ki, Mi, Gi, Ti that divides it; "" when it is below 1024 or no multiple of 1024.
std::string size_suffix_text(std::int64_t value);

/// The candidate closest to `word` by edit distance, if close enough to be a plausible typo.
std::optional<std::string> nearest_name(const std::string& word, const std::vector<std::string>& candidates);

/// "; did you mean 'x'?" when `word` is close to one of `candidates` (nearest_name), else "".
std::string suggestion(const std::string& word, const std::vector<std::string>& candidates,
                       const std::string& quote_open = "'", const std::string& quote_close = "'");

/// A parameter value as text ("268435456", "0.5", "true", "random").
std::string value_text(const param_value& value);

/// Point labels as words: "offset=1 n=268435456" ("" for none).
std::string labels_text(const std::vector<std::pair<std::string, std::string>>& labels);

/// The enumerator of `E` called `text`, where `names` names E's enumerators in their order (0, 1, ...);
/// nullopt for a name not in `names`. One list of names then serves reading and writing an enum.
template <typename E>
std::optional<E> enumerator(const std::vector<std::string>& names, const std::string& text) {
  const auto it = std::find(names.begin(), names.end(), text);
  if (it == names.end()) return std::nullopt;
  return static_cast<E>(it - names.begin());
}

}  // namespace cudalab::host
