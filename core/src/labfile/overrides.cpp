// `--set KEY=VALUE` on the command line: split at the first '=', the value read as TOML.
#include <string>
#include <string_view>
#include <vector>

#include "labfile/toml_tree.hpp"

namespace cudalab::host {
namespace {

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

}  // namespace

std::optional<override_entry> parse_override(const std::string& text, std::vector<lab_problem>& problems) {
  override_entry entry;
  entry.where = {"--set " + text, 0, 0};
  const auto equals = text.find('=');
  if (equals == std::string::npos) {
    problems.push_back({entry.where, "expected KEY=VALUE, e.g. --set n=64Mi or --set measure.repetitions=5"});
    return std::nullopt;
  }
  entry.key = trim(text.substr(0, equals));
  entry.raw = trim(text.substr(equals + 1));
  if (entry.key.empty()) {
    problems.push_back({entry.where, "missing key before '=' (expected KEY=VALUE)"});
    return std::nullopt;
  }
  entry.holder = std::make_shared<toml::table>();
  const std::string toml_text = "v = " + entry.raw;
  try {
    // A stray non-ASCII character is no TOML value (and TOML++ must not see it: toml_text_check.cpp).
    if (!stray_non_ascii("--set", toml_text)) {
      toml::table parsed = toml::parse(std::string_view(toml_text), std::string_view("--set"));
      // One value and nothing else; "1\nw = 2" must not sneak in a second key.
      if (parsed.size() == 1 && parsed.contains("v")) *entry.holder = std::move(parsed);
    }
  } catch (const toml::parse_error&) {
    // Not TOML: a bare word, taken as a string below.
  }
  if (!entry.holder->contains("v")) entry.holder->insert("v", entry.raw);
  return entry;
}

}  // namespace cudalab::host
