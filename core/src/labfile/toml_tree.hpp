// Internals shared by the lab-file sources: the parsed TOML tree, the checks before TOML++ sees a text,
// [measure], parameter values and sweep axes read from TOML, --set. labfile/'s own: no file outside
// labfile/ includes it (others read TOML through labfile/toml_reader.hpp). g++ only: TOML++ does not
// compile under nvcc, so this header must never reach a .cu file or lab_file.hpp.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "labfile/lab_file.hpp"
#include "labfile/text_file.hpp"
#include "labfile/toml_reader.hpp"
#include "labfile/values.hpp"

namespace cudalab::host {

/// The TOML document of a lab file, and the [measure] settings it sets (checked at parse time).
struct lab_file::impl {
  std::string file;  ///< the path as given, used in every location
  toml::table doc;
  measure_overrides measure;  ///< what the file's [measure] sets (checked at parse time)
};

/// One character of UTF-8 text: its code point and length in bytes. Not `valid` (the lead byte alone,
/// length 1) where the bytes are not UTF-8: a stray continuation byte, a sequence cut short, an overlong
/// form, a surrogate, or beyond U+10FFFF.
struct utf8_char {
  std::uint32_t code_point;
  int length;
  bool valid;
};

/// The character that starts at text[i] (i < text.size()).
utf8_char decode_utf8(std::string_view text, std::size_t i);

/// What keeps `text` from being UTF-8, located in `file`: a UTF-16 byte-order mark or layout (at 1:1),
/// or the first byte that is not part of a UTF-8 character (at its line and column); nullopt for
/// UTF-8 text.
std::optional<lab_problem> encoding_problem(const std::string& file, std::string_view text);

/// The first character TOML forbids outside strings and comments (non-ASCII), as a syntax error at
/// its line and column; checked before TOML++ parses `text` (toml_text_check.cpp says why).
std::optional<lab_problem> stray_non_ascii(const std::string& file, std::string_view text);

/// Checks every key of a lab file's or profile's [measure] table, setting the good ones in
/// `overrides`; problems go to `problems`.
void read_measure_table(const std::string& file, const toml::table& table, measure_overrides& overrides,
                        std::vector<lab_problem>& problems);

/// Sets one [measure] key in `overrides`. Returns "" on success, else what is wrong (unknown key with
/// the nearest name, wrong type, out of range).
std::string set_measure_key(measure_overrides& overrides, const std::string& key, const toml::node& value);

/// The [measure] keys, in documentation order.
const std::vector<std::string>& measure_key_names();

/// Converts a TOML value to the type `spec` declares (integers also take sizes such as "64Mi").
/// Returns nullopt and sets `error` when the value has the wrong type or is not among the choices.
std::optional<param_value> to_param_value(const param_spec& spec, const toml::node& node, std::string& error);

/// A typed, in-range value for `spec`, or nullopt with the problem recorded at `at` (its message
/// `context` followed by what is wrong: the type, the choices or the range).
std::optional<param_value> checked_value(const param_spec& spec, const toml::node& node, const source_location& at,
                                         const std::string& context, std::vector<lab_problem>& problems);

/// A [sweep] axis read from a list or a range: its values (left empty when the count is over
/// `limit`, as the sweep is refused anyway), its point count, and whether it is usable.
struct axis_values {
  std::vector<param_value> values;
  std::uint64_t count = 0;
  bool ok = false;
  sweep_spacing spacing = sweep_spacing::list;
};

/// Reads one [sweep] entry for `spec`: a non-empty list, {from, to, step} or {from, to, factor}. A list
/// names each value once, but for a `zipped` axis, whose points are its group's tuples of values.
/// Problems (located in `file`) go to `problems`.
axis_values read_sweep_axis(const std::string& file, const param_spec& spec, const toml::node& node,
                            std::uint64_t limit, std::vector<lab_problem>& problems, bool zipped = false);

/// One `--set KEY=VALUE`: where to report it ("--set KEY=VALUE"), the key, and the value as TOML
/// (a bare word that is not TOML is kept as a string, so `--set fill=ramp` works unquoted).
struct override_entry {
  source_location where;
  std::string key;
  std::string raw;                      ///< the text after '='
  std::shared_ptr<toml::table> holder;  ///< owns the value, under the key "v"
  const toml::node& value() const { return *holder->get("v"); }
};

/// Splits and parses one override. Returns nullopt (problem recorded) without an '=' or a key.
std::optional<override_entry> parse_override(const std::string& text, std::vector<lab_problem>& problems);

}  // namespace cudalab::host
