// Reading TOML files: the text parsed with every problem located "file:line:column", and one table
// read key by key (table_reader): each key asked for is checked and recorded, every other key is
// reported with the nearest valid name. With labfile/toml_tree.hpp (labfile/'s own internals), the
// only door to TOML++: a file outside labfile/ that reads TOML includes this header. g++ only: TOML++
// does not compile under nvcc, so no .cu file may include it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <toml++/toml.h>

#include "labfile/problems.hpp"
#include "labfile/values.hpp"

namespace cudalab::host {

/// Where a TOML++ source region starts, in `file`.
inline source_location locate(const std::string& file, const toml::source_region& region) {
  return {file, static_cast<int>(region.begin.line), static_cast<int>(region.begin.column)};
}

/// `text` parsed as TOML, after encoding_problem and stray_non_ascii (toml_tree.hpp); a leading UTF-8
/// byte-order mark is skipped. Throws lab_file_error with the first problem, located in `file`.
toml::table parse_toml(const std::string& file, std::string_view text);

/// A node in words for messages: `a string "yes"`, `a float 1.5`, `an array`.
std::string describe_node(const toml::node& node);

/// A node as TOML text: "1000", "\"float\"", "[ 1, 2 ]".
std::string toml_text(const toml::node& node);

/// The entries of `table` in the order they were written (TOML++ keeps them sorted by name).
std::vector<std::pair<const toml::key*, const toml::node*>> written_order(const toml::table& table);

/// The entries of `table` as "key = value" lines (toml_text), in the order written.
std::vector<std::string> entry_lines(const toml::table& table);

/// One table being read: every key is asked for by name (get, or a typed reader such as text or
/// number), and each problem is recorded in `problems`, located in `file`. A typed reader returns its
/// fallback when the key is missing or its value is wrong (the problem recorded). The keys nobody asked
/// for are reported by finish(), or when the reader goes out of scope: "unknown key 'K' in NAME; did
/// you mean 'X'?", the nearest of the keys asked for, at the key.
class table_reader {
 public:
  /// How a key nobody asked for is reported, when not as above: the message, from the key, its value
  /// and the keys asked for (the candidates for a suggestion).
  using unknown_key_message = std::function<std::string(const std::string& key, const toml::node& value,
                                                        const std::vector<std::string>& known)>;

  /// `name` prefixes the keys in messages about their values ("lab" for "lab.plugin must be a string").
  table_reader(const std::string& file, const toml::table& table, std::string name, std::vector<lab_problem>& problems);
  table_reader(const table_reader&) = delete;
  table_reader& operator=(const table_reader&) = delete;
  ~table_reader();

  /// The table as unknown-key messages name it, when not `name` ("[lab]", "the range of 'n'").
  table_reader& titled(std::string title);
  /// Words after an unknown key's suggestion: " (a range has from, to and step or factor)".
  table_reader& hinted(std::string hint);
  /// Another wording for unknown keys altogether (a document's top level: "unknown table [x]").
  table_reader& on_unknown(unknown_key_message message);

  /// Marks `keys` as known without reading them; they join the candidates for suggestions.
  void expect(const std::vector<std::string>& keys);
  /// Reports now every key not asked for so far (once: later calls and the destructor report nothing
  /// more). Returns true when there was none.
  bool finish();

  /// The node at `key`, or nullptr; `key` is known from now on.
  const toml::node* get(const std::string& key);

  /// Records "NAME.KEY what" at `at`, KEY the key asked for last.
  void problem(const toml::node& at, const std::string& what);
  /// Records `message` as it is, at `at`.
  void report(const toml::node& at, const std::string& message);
  /// Records "NAME has no KEY (it is required)" at the table.
  void missing(const std::string& key);

  /// A string.
  std::string text(const std::string& key, std::string fallback = "", bool required = false);
  /// A finite number (an integer or a float) of at least `min`.
  double number(const std::string& key, double fallback, double min, bool required = false);
  /// true or false.
  bool boolean(const std::string& key, bool fallback);
  /// A whole number of at least `min`.
  std::uint64_t count(const std::string& key, std::uint64_t fallback, std::uint64_t min);
  /// A size ("256Ki", or a whole number of bytes) of at least `min`; `wanted` says what is expected
  /// ("a positive size such as \"256Ki\"").
  std::uint64_t size(const std::string& key, std::uint64_t fallback, std::int64_t min, const std::string& wanted);
  /// A list of strings; `items` names what they are in messages ("variant names (strings)").
  std::vector<std::string> strings(const std::string& key, const std::string& items = "strings");
  /// One of `allowed`, or the problem with the nearest.
  std::string word(const std::string& key, const std::vector<std::string>& allowed, const std::string& fallback,
                   bool required = false);
  /// The enumerator `names` names (values.hpp's enumerator): word() read into an enum.
  template <typename E>
  E choice(const std::string& key, const std::vector<std::string>& names, E fallback, bool required = false) {
    return enumerator<E>(names, word(key, names, names.at(static_cast<std::size_t>(fallback)), required))
        .value_or(fallback);
  }

  /// A table of a document ([KEY]), or nullptr when there is none; a KEY that holds anything else is
  /// the problem "'KEY' must be a table [KEY], not ...", at the key.
  const toml::table* section(const std::string& key);
  /// The tables of an array of tables of a document ([[KEY]]), or none; a KEY that holds anything else
  /// is the problem "KEY must be [[KEY]] tables", at its value.
  std::vector<const toml::table*> sections(const std::string& key);

 private:
  const std::string& file_;
  const toml::table& table_;
  std::string name_, title_, hint_;
  unknown_key_message unknown_;
  std::vector<lab_problem>& problems_;
  std::vector<std::string> known_;
  bool finished_ = false;
};

}  // namespace cudalab::host
