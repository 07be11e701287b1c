// HTML-safe text: XML's repair of the characters, then every character that markup reads escaped.
#include "results/html_text.hpp"

#include <cctype>

#include "results/xml_text.hpp"

namespace cudalab::host {

std::string html_escape(const std::string& s) {
  std::string out;
  for (const char c : xml_chars(s)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string html_id(const std::string& prefix, const std::string& s) {
  std::string id = prefix;
  for (const char c : s)
    id += std::isalnum(static_cast<unsigned char>(c)) && static_cast<unsigned char>(c) < 0x80 ? c : '-';
  return id;
}

}  // namespace cudalab::host
