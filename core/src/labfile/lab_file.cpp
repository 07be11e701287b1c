// Reading lab files: TOML syntax, the known tables, [lab] with its plugin, and [measure].
#include "labfile/lab_file.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "labfile/toml_tree.hpp"

namespace cudalab::host {
namespace {

const std::vector<std::string> lab_keys = {"plugin", "title", "variants", "baseline"};

// Checks the types of [lab]'s keys and reports unknown ones; fills `out.plugin`.
void read_lab_table(const std::string& file, const toml::table& lab, lab_file& out,
                    std::vector<lab_problem>& problems) {
  table_reader r(file, lab, "lab", problems);
  r.titled("[lab]");
  out.plugin = r.text("plugin");
  // title, variants and baseline are checked for their types here and read by validate_lab_file.
  r.text("title");
  r.strings("variants", "variant names (strings)");
  r.text("baseline");
  if (const toml::node* plugin = lab.get("plugin")) {
    out.plugin_where = locate(file, plugin->source());
    if (plugin->is_string() && out.plugin.empty())
      problems.push_back({out.plugin_where, "lab.plugin is empty; name the plugin that runs this lab"});
  } else {
    problems.push_back(
        {locate(file, lab.source()),
         "missing key 'plugin' in [lab]: name the plugin that runs this lab, e.g. plugin = \"alignment\""});
  }
}

// A key of the file's top level that is no table it may have.
std::string unknown_top_level(const std::string& name, const toml::node& value,
                              const std::vector<std::string>& tables) {
  if (value.is_table())
    return "unknown table [" + name + "]" + suggestion(name, tables, "[", "]") +
           " (a lab file has [lab], [params], [sweep] and [measure])";
  const bool lab_key = std::find(lab_keys.begin(), lab_keys.end(), name) != lab_keys.end();
  return "key '" + name + "' outside any table" +
         (lab_key ? "; it belongs under [lab]" : "; put parameters under [params]");
}

}  // namespace

lab_file parse_lab_file(const std::filesystem::path& path) { return parse_lab_text(read_text(path, "lab file"), path); }

lab_file parse_lab_text(const std::string& text, const std::filesystem::path& path) {
  const std::string file = path.string();
  auto tree = std::make_shared<lab_file::impl>();
  tree->file = file;
  tree->doc = parse_toml(file, text);

  lab_file out;
  out.path = path;
  out.text = text;
  std::vector<lab_problem> problems;
  table_reader top(file, tree->doc, "", problems);
  top.on_unknown(unknown_top_level);
  const toml::table* lab = top.section("lab");
  top.section("params");  // [params] and [sweep] are read by validate_lab_file, against the lab's spec
  top.section("sweep");
  const toml::table* measure = top.section("measure");
  top.finish();
  if (lab)
    read_lab_table(file, *lab, out, problems);
  else if (!tree->doc.contains("lab")) {
    lab_problem missing;  // built step by step: g++ 12 warns falsely on the nested braces
    missing.where = {file, 1, 1};
    missing.message = "missing [lab] table: a lab file starts with [lab] and plugin = \"NAME\"";
    problems.push_back(std::move(missing));
  }
  if (measure) read_measure_table(file, *measure, tree->measure, problems);
  if (!problems.empty()) {
    sort_problems(problems);
    throw lab_file_error(std::move(problems));
  }

  out.tree = std::move(tree);
  return out;
}

std::vector<std::string> table_lines(const lab_file& file, const std::string& name) {
  const toml::table* table = file.tree->doc[name].as_table();
  return table ? entry_lines(*table) : std::vector<std::string>{};
}

}  // namespace cudalab::host
