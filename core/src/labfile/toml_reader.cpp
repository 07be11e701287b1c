// Reading TOML files: parsing with located syntax errors, entries in the order written, and one table
// read key by key (toml_reader.hpp).
#include "labfile/toml_reader.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "labfile/toml_tree.hpp"

namespace cudalab::host {

toml::table parse_toml(const std::string& file, std::string_view text) {
  // A UTF-8 byte-order mark, as some Windows editors write, is no part of the TOML.
  constexpr std::string_view utf8_bom = "\xEF\xBB\xBF";
  if (text.substr(0, utf8_bom.size()) == utf8_bom) text.remove_prefix(utf8_bom.size());
  if (auto encoding = encoding_problem(file, text)) throw lab_file_error({*encoding});
  if (auto stray = stray_non_ascii(file, text)) throw lab_file_error({*stray});
  try {
    return toml::parse(text, file);
  } catch (const toml::parse_error& e) {
    throw lab_file_error({lab_problem{locate(file, e.source()), "TOML syntax error: " + std::string(e.description())}});
  }
}

std::string toml_text(const toml::node& node) {
  std::ostringstream os;
  node.visit([&](auto&& v) { os << v; });
  return os.str();
}

std::vector<std::pair<const toml::key*, const toml::node*>> written_order(const toml::table& table) {
  std::vector<std::pair<const toml::key*, const toml::node*>> entries;
  for (auto&& [key, value] : table) entries.emplace_back(&key, &value);
  std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    const auto& x = a.first->source().begin;
    const auto& y = b.first->source().begin;
    return x.line != y.line ? x.line < y.line : x.column < y.column;
  });
  return entries;
}

std::vector<std::string> entry_lines(const toml::table& table) {
  std::vector<std::string> lines;
  for (const auto& [key, node] : written_order(table))
    lines.push_back(std::string(key->str()) + " = " + toml_text(*node));
  return lines;
}

table_reader::table_reader(const std::string& file, const toml::table& table, std::string name,
                           std::vector<lab_problem>& problems)
    : file_(file), table_(table), name_(std::move(name)), title_(name_), problems_(problems) {}

table_reader::~table_reader() { finish(); }

table_reader& table_reader::titled(std::string title) {
  title_ = std::move(title);
  return *this;
}

table_reader& table_reader::hinted(std::string hint) {
  hint_ = std::move(hint);
  return *this;
}

table_reader& table_reader::on_unknown(unknown_key_message message) {
  unknown_ = std::move(message);
  return *this;
}

void table_reader::expect(const std::vector<std::string>& keys) {
  known_.insert(known_.end(), keys.begin(), keys.end());
}

bool table_reader::finish() {
  if (finished_) return true;
  finished_ = true;
  bool none = true;
  for (const auto& [key, node] : table_) {
    const std::string k(key.str());
    if (std::find(known_.begin(), known_.end(), k) != known_.end()) continue;
    none = false;
    problems_.push_back({locate(file_, key.source()),
                         unknown_ ? unknown_(k, node, known_)
                                  : "unknown key '" + k + "' in " + title_ + suggestion(k, known_) + hint_});
  }
  return none;
}

const toml::node* table_reader::get(const std::string& key) {
  known_.push_back(key);
  return table_.get(key);
}

void table_reader::problem(const toml::node& at, const std::string& what) {
  report(at, name_ + "." + known_.back() + " " + what);
}

void table_reader::report(const toml::node& at, const std::string& message) {
  problems_.push_back({locate(file_, at.source()), message});
}

void table_reader::missing(const std::string& key) {
  problems_.push_back({locate(file_, table_.source()), name_ + " has no " + key + " (it is required)"});
}

std::string table_reader::text(const std::string& key, std::string fallback, bool required) {
  const toml::node* n = get(key);
  if (!n) {
    if (required) missing(key);
    return fallback;
  }
  if (const auto s = n->as_string()) return s->get();
  problem(*n, "must be a string, not " + describe_node(*n));
  return fallback;
}

double table_reader::number(const std::string& key, double fallback, double min, bool required) {
  const toml::node* n = get(key);
  if (!n) {
    if (required) missing(key);
    return fallback;
  }
  double v = fallback;
  if (const auto i = n->as_integer())
    v = double(i->get());
  else if (const auto f = n->as_floating_point())
    v = f->get();
  else {
    problem(*n, "must be a number, not " + describe_node(*n));
    return fallback;
  }
  if (!std::isfinite(v) || v < min) {
    problem(*n, "must be at least " + value_text(param_value(min)));
    return fallback;
  }
  return v;
}

bool table_reader::boolean(const std::string& key, bool fallback) {
  const toml::node* n = get(key);
  if (!n) return fallback;
  if (const auto b = n->as_boolean()) return b->get();
  problem(*n, "must be true or false, not " + describe_node(*n));
  return fallback;
}

std::uint64_t table_reader::count(const std::string& key, std::uint64_t fallback, std::uint64_t min) {
  const toml::node* n = get(key);
  if (!n) return fallback;
  const auto i = n->as_integer();
  if (!i) {
    problem(*n, "must be a whole number, not " + describe_node(*n));
    return fallback;
  }
  if (i->get() < 0 || std::uint64_t(i->get()) < min) {
    problem(*n, "must be at least " + std::to_string(min));
    return fallback;
  }
  return std::uint64_t(i->get());
}

std::uint64_t table_reader::size(const std::string& key, std::uint64_t fallback, std::int64_t min,
                                 const std::string& wanted) {
  const toml::node* n = get(key);
  if (!n) return fallback;
  std::optional<std::int64_t> v;
  if (const auto i = n->as_integer()) v = i->get();
  if (const auto s = n->as_string()) v = parse_size(s->get());
  if (!v || *v < min) {
    problem(*n, "must be " + wanted + ", not " + describe_node(*n));
    return fallback;
  }
  return std::uint64_t(*v);
}

std::vector<std::string> table_reader::strings(const std::string& key, const std::string& items) {
  std::vector<std::string> out;
  const toml::node* n = get(key);
  if (!n) return out;
  const toml::array* a = n->as_array();
  if (!a) {
    problem(*n, "must be a list of " + items + ", not " + describe_node(*n));
    return out;
  }
  for (const toml::node& e : *a) {
    if (const auto s = e.as_string())
      out.push_back(s->get());
    else
      problem(e, "must hold " + items + ", not " + describe_node(e));
  }
  return out;
}

std::string table_reader::word(const std::string& key, const std::vector<std::string>& allowed,
                               const std::string& fallback, bool required) {
  const toml::node* n = table_.get(key);
  std::string v = text(key, fallback, required);
  if (n && n->is_string() && std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    problem(*n, "is \"" + v + "\", not one of " + list + suggestion(v, allowed, "\"", "\""));
    return fallback;
  }
  return v;
}

const toml::table* table_reader::section(const std::string& key) {
  const toml::node* n = get(key);
  if (!n) return nullptr;
  if (const toml::table* t = n->as_table()) return t;
  const auto entry = table_.find(key);
  problems_.push_back(
      {locate(file_, entry->first.source()), "'" + key + "' must be a table [" + key + "], not " + describe_node(*n)});
  return nullptr;
}

std::vector<const toml::table*> table_reader::sections(const std::string& key) {
  std::vector<const toml::table*> out;
  const toml::node* n = get(key);
  if (!n) return out;
  const toml::array* list = n->as_array();
  if (!list || !list->is_array_of_tables()) {
    report(*n, key + " must be [[" + key + "]] tables");
    return out;
  }
  for (const toml::node& t : *list) out.push_back(t.as_table());
  return out;
}

}  // namespace cudalab::host
