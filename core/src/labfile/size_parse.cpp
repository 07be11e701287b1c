// Sizes in lab files: "64Ki", "256Mi", "1G", "2^28" and plain integers, with overflow checks; and a
// size written back with a binary suffix.
#include <cctype>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "labfile/values.hpp"

namespace cudalab::host {
namespace {

constexpr std::int64_t max_int = std::numeric_limits<std::int64_t>::max();

// A size read from text: its value, or none; `overflow` when the text is a size too large for int64.
struct size_read {
  std::optional<std::int64_t> value;
  bool overflow = false;
};

size_read too_large() { return {std::nullopt, true}; }

// A run of decimal digits (no sign, no separators); no value when empty or not digits.
size_read read_digits(const std::string& text) {
  if (text.empty()) return {};
  for (char c : text)
    if (!std::isdigit(static_cast<unsigned char>(c))) return {};
  std::int64_t value = 0;
  for (char c : text) {
    const int digit = c - '0';
    if (value > (max_int - digit) / 10) return too_large();
    value = value * 10 + digit;
  }
  return {value};
}

std::optional<std::int64_t> checked_multiply(std::int64_t a, std::int64_t b) {
  if (a != 0 && b > max_int / a) return std::nullopt;
  return a * b;
}

// The scale of a suffix: binary Ki/Mi/Gi/Ti, decimal K/M/G/T, 1 for none; nullopt for any other.
std::optional<std::int64_t> suffix_scale(const std::string& suffix) {
  if (suffix.empty()) return 1;
  if (suffix == "Ki") return std::int64_t(1) << 10;
  if (suffix == "Mi") return std::int64_t(1) << 20;
  if (suffix == "Gi") return std::int64_t(1) << 30;
  if (suffix == "Ti") return std::int64_t(1) << 40;
  if (suffix == "K") return 1000;
  if (suffix == "M") return 1000 * 1000;
  if (suffix == "G") return 1000 * 1000 * 1000;
  if (suffix == "T") return std::int64_t(1000) * 1000 * 1000 * 1000;
  return std::nullopt;
}

size_read read_size(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  const std::string s = text.substr(first, text.find_last_not_of(" \t") - first + 1);

  // "2^28": a power, both parts decimal digits.
  if (const auto caret = s.find('^'); caret != std::string::npos) {
    const size_read base = read_digits(s.substr(0, caret));
    const size_read exponent = read_digits(s.substr(caret + 1));
    if (!base.value || !exponent.value) return {std::nullopt, base.overflow || exponent.overflow};
    std::int64_t value = 1;
    for (std::int64_t i = 0; i < *exponent.value; ++i) {
      const auto next = checked_multiply(value, *base.value);
      if (!next) return too_large();
      value = *next;
      if (value == 0 || value == 1) break;  // 0^k and 1^k stay put; no need to loop 2^62 times
    }
    return {value};
  }

  // Digits followed by an optional suffix.
  std::size_t digits_end = 0;
  while (digits_end < s.size() && std::isdigit(static_cast<unsigned char>(s[digits_end]))) ++digits_end;
  const auto scale = suffix_scale(s.substr(digits_end));
  if (!scale) return {};
  const size_read number = read_digits(s.substr(0, digits_end));
  if (!number.value) return number;
  const auto value = checked_multiply(*number.value, *scale);
  if (!value) return too_large();
  return {value};
}

}  // namespace

std::optional<std::int64_t> parse_size(const std::string& text) { return read_size(text).value; }

bool size_overflows(const std::string& text) { return read_size(text).overflow; }

std::string size_suffix_text(std::int64_t value) {
  const char* const units[] = {"Ki", "Mi", "Gi", "Ti"};
  int unit = -1;
  while (unit < 3 && value >= 1024 && value % 1024 == 0) {
    value /= 1024;
    ++unit;
  }
  return unit < 0 ? "" : std::to_string(value) + units[unit];
}

}  // namespace cudalab::host
