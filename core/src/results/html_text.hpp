// Text for the HTML reports cudalab writes: whatever a lab title, a file name, a student's source or a
// compiler's message holds is shown as text, never read as markup.
#pragma once

#include <string>

namespace cudalab::host {

/// `s` as HTML text or a quoted attribute value: xml_chars(s) (bytes that are not UTF-8 and control
/// characters other than tab, newline and return become U+FFFD) with &, <, >, " and ' written as
/// character references, so no text can open a tag, end an attribute or start an entity.
std::string html_escape(const std::string& s);

/// `s` as an HTML id or a fragment to link to (`#lab-reduction`): `prefix` and then `s` with every
/// character but ASCII letters and digits written as '-' (so "labs/a b.toml" is "lab-labs-a-b-toml").
/// Distinct texts may share an id; callers that need uniqueness add a counter.
std::string html_id(const std::string& prefix, const std::string& s);

}  // namespace cudalab::host
