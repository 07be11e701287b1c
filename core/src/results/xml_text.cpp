// XML-safe text: UTF-8 repaired through the JSON writer's replacing dump, forbidden controls replaced,
// markup escaped.
#include "results/xml_text.hpp"

#include <nlohmann/json.hpp>

#include "results/json.hpp"

namespace cudalab::host {

std::string xml_chars(const std::string& s) {
  const std::string utf8 = nlohmann::json::parse(json_text(nlohmann::ordered_json(s))).get<std::string>();
  std::string out;
  for (const char c : utf8) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\t' && c != '\n' && c != '\r')
      out += "\xEF\xBF\xBD";
    else
      out += c;
  }
  return out;
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : xml_chars(s)) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

}  // namespace cudalab::host
