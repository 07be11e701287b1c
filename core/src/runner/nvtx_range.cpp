// The NVTX range around a variant's verified run, and its name written and read back.
#include "runner/nvtx_range.hpp"

#include <nvtx3/nvToolsExt.h>

#include <cctype>
#include <charconv>
#include <tuple>

namespace cudalab::host {
namespace {

constexpr std::string_view prefix = "cudalab#";

bool plain(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; }

std::string encoded(const std::string& text) {
  static const char hex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    if (plain(c)) {
      out += c;
    } else {
      const auto byte = static_cast<unsigned char>(c);
      out += '%';
      out += hex[byte >> 4];
      out += hex[byte & 15];
    }
  }
  return out;
}

std::optional<std::string> decoded(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    unsigned byte = 0;
    if (i + 2 >= text.size()) return std::nullopt;
    const auto [end, error] = std::from_chars(text.data() + i + 1, text.data() + i + 3, byte, 16);
    if (error != std::errc() || end != text.data() + i + 3) return std::nullopt;
    out += static_cast<char>(byte);
    i += 2;
  }
  return out;
}

}  // namespace

bool range_key::operator<(const range_key& o) const {
  return std::tie(lab_file, point, variant) < std::tie(o.lab_file, o.point, o.variant);
}

bool range_key::operator==(const range_key& o) const {
  return std::tie(lab_file, point, variant) == std::tie(o.lab_file, o.point, o.variant);
}

std::string range_name(const range_key& key) {
  return std::string(prefix) + encoded(key.lab_file) + "#" + std::to_string(key.point) + "#" + encoded(key.variant);
}

std::optional<range_key> find_range_name(std::string_view text) {
  for (std::size_t at = text.find(prefix); at != std::string_view::npos; at = text.find(prefix, at + 1)) {
    std::size_t end = at + prefix.size();
    while (end < text.size() && (plain(text[end]) || text[end] == '%' || text[end] == '#')) ++end;
    const std::string_view fields = text.substr(at + prefix.size(), end - at - prefix.size());
    const std::size_t first = fields.find('#');
    const std::size_t second = first == std::string_view::npos ? first : fields.find('#', first + 1);
    if (second == std::string_view::npos || fields.find('#', second + 1) != std::string_view::npos) continue;
    const std::string_view point = fields.substr(first + 1, second - first - 1);
    range_key key;
    const auto [stop, error] = std::from_chars(point.data(), point.data() + point.size(), key.point);
    if (point.empty() || error != std::errc() || stop != point.data() + point.size()) continue;
    auto file = decoded(fields.substr(0, first));
    auto variant = decoded(fields.substr(second + 1));
    if (!file || !variant || variant->empty()) continue;
    key.lab_file = std::move(*file);
    key.variant = std::move(*variant);
    return key;
  }
  return std::nullopt;
}

nvtx_range::nvtx_range(const std::string& name) {
  if (name.empty()) return;
  nvtxRangePushA(name.c_str());
  pushed_ = true;
}

nvtx_range::~nvtx_range() {
  if (pushed_) nvtxRangePop();
}

}  // namespace cudalab::host
