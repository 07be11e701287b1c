// Sizes in lab files: "64Ki", "256Mi", "1G", "2^28" and plain integers, with overflow checks.
#include <cctype>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "labfile/lab_file.hpp"

namespace cudalab::host {
namespace {

constexpr std::int64_t max_int = std::numeric_limits<std::int64_t>::max();

// A run of decimal digits (no sign, no separators); nullopt when empty, not digits, or too large.
std::optional<std::int64_t> parse_digits(const std::string& text) {
  if (text.empty()) return std::nullopt;
  std::int64_t value = 0;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    const int digit = c - '0';
    if (value > (max_int - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

std::optional<std::int64_t> checked_multiply(std::int64_t a, std::int64_t b) {
  if (a != 0 && b > max_int / a) return std::nullopt;
  return a * b;
}

}  // namespace

std::optional<std::int64_t> parse_size(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return std::nullopt;
  const std::string s = text.substr(first, text.find_last_not_of(" \t") - first + 1);

  // "2^28": a power, both parts decimal digits.
  if (const auto caret = s.find('^'); caret != std::string::npos) {
    const auto base = parse_digits(s.substr(0, caret));
    const auto exponent = parse_digits(s.substr(caret + 1));
    if (!base || !exponent) return std::nullopt;
    std::int64_t value = 1;
    for (std::int64_t i = 0; i < *exponent; ++i) {
      const auto next = checked_multiply(value, *base);
      if (!next) return std::nullopt;
      value = *next;
      if (value == 0 || value == 1) break;  // 0^k and 1^k stay put; no need to loop 2^62 times
    }
    return value;
  }

  // Digits followed by an optional suffix: binary Ki/Mi/Gi/Ti, decimal K/M/G/T.
  std::size_t digits_end = 0;
  while (digits_end < s.size() && std::isdigit(static_cast<unsigned char>(s[digits_end]))) ++digits_end;
  const auto number = parse_digits(s.substr(0, digits_end));
  if (!number) return std::nullopt;
  const std::string suffix = s.substr(digits_end);
  std::int64_t scale = 1;
  if (suffix.empty())
    scale = 1;
  else if (suffix == "Ki")
    scale = std::int64_t(1) << 10;
  else if (suffix == "Mi")
    scale = std::int64_t(1) << 20;
  else if (suffix == "Gi")
    scale = std::int64_t(1) << 30;
  else if (suffix == "Ti")
    scale = std::int64_t(1) << 40;
  else if (suffix == "K")
    scale = 1000;
  else if (suffix == "M")
    scale = 1000 * 1000;
  else if (suffix == "G")
    scale = 1000 * 1000 * 1000;
  else if (suffix == "T")
    scale = std::int64_t(1000) * 1000 * 1000 * 1000;
  else
    return std::nullopt;
  return checked_multiply(*number, scale);
}

}  // namespace cudalab::host
