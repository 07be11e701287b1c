// Text for XML documents cudalab writes (the SVG plots, JUnit XML): what XML 1.0 can hold, escaped
// where markup would break.
#pragma once

#include <string>

namespace cudalab::host {

/// `s` as XML 1.0 can hold it: bytes that are not UTF-8 become U+FFFD (the rule results' JSON follows),
/// and so do control characters other than tab, newline and return, which no XML 1.0 document may
/// contain even escaped. For writers that escape markup themselves (Boost.PropertyTree).
std::string xml_chars(const std::string& s);

/// xml_chars(s) with &, <, > and " written as XML entities: for text and attribute values written by hand.
std::string xml_escape(const std::string& s);

}  // namespace cudalab::host
