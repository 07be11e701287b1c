// `cudalab new NAME`: writing a new lab plugin folder from the template (scaffold.hpp).
#include "scaffold/scaffold.hpp"

#include <algorithm>
#include <fstream>

#include "plugin/spec_check.hpp"

namespace cudalab::host {

namespace {

namespace fs = std::filesystem;

// Names a plugin cannot take: they become a C++ namespace and part of a class name.
bool is_reserved(const std::string& name) {
  static const char* const words[] = {
      "alignas", "alignof",  "and",      "asm",       "auto",     "bool",      "break",     "case",     "catch",
      "char",    "class",    "const",    "constexpr", "continue", "default",   "delete",    "do",       "double",
      "else",    "enum",     "explicit", "export",    "extern",   "false",     "float",     "for",      "friend",
      "goto",    "if",       "inline",   "int",       "long",     "mutable",   "namespace", "new",      "noexcept",
      "not",     "nullptr",  "operator", "or",        "private",  "protected", "public",    "register", "return",
      "short",   "signed",   "sizeof",   "static",    "struct",   "switch",    "template",  "this",     "throw",
      "true",    "try",      "typedef",  "typeid",    "typename", "union",     "unsigned",  "using",    "virtual",
      "void",    "volatile", "while",    "xor",       "std",      "cudalab",   "cub",       "thrust",   "cuda"};
  return std::any_of(std::begin(words), std::end(words), [&](const char* w) { return name == w; });
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

}  // namespace

std::vector<fs::path> write_lab_scaffold(const std::string& name, const fs::path& folder) {
  if (!is_identifier(name))
    throw scaffold_error("'" + name +
                         "' cannot name a lab: use lower-case letters, digits and '_', starting with a letter");
  if (is_reserved(name))
    throw scaffold_error("'" + name + "' cannot name a lab: it is a C++ keyword or a library's namespace");
  std::error_code ec;
  if (fs::exists(folder, ec) && !(fs::is_directory(folder, ec) && fs::is_empty(folder, ec)))
    throw scaffold_error(folder.string() + " already exists and is not an empty folder; choose another with --out");
  fs::create_directories(folder, ec);
  if (ec) throw scaffold_error("cannot create " + folder.string() + ": " + ec.message());

  std::vector<fs::path> written;
  for (const template_file& t : lab_template()) {
    std::string file_name = t.name;
    if (file_name.rfind("lab", 0) == 0) file_name = name + file_name.substr(3);
    const fs::path path = folder / file_name;
    std::ofstream out(path, std::ios::binary);
    out << replace_all(t.text, "@LAB@", name);
    out.close();
    if (!out) throw scaffold_error("cannot write " + path.string());
    written.push_back(path);
  }
  return written;
}

}  // namespace cudalab::host
