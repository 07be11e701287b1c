// Reading lab files: TOML syntax, the known tables, [lab] with its plugin, and [measure].
#include "labfile/lab_file.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "labfile/toml_tree.hpp"

namespace cudalab::host {
namespace {

const std::vector<std::string> lab_tables = {"lab", "params", "sweep", "measure"};
const std::vector<std::string> lab_keys = {"plugin", "title", "variants", "baseline"};

// Checks the types of [lab]'s keys and reports unknown ones; fills `out.plugin`.
void read_lab_table(const std::string& file, const toml::table& lab, lab_file& out,
                    std::vector<lab_problem>& problems) {
  for (auto&& [key, value] : lab) {
    const std::string name(key.str());
    if (name == "plugin" || name == "title" || name == "baseline") {
      if (!value.is_string())
        problems.push_back(
            {locate(file, value.source()), "lab." + name + " must be a string, not " + describe_node(value)});
    } else if (name == "variants") {
      const toml::array* list = value.as_array();
      if (!list) {
        problems.push_back({locate(file, value.source()),
                            "lab.variants must be an array of variant names, not " + describe_node(value)});
        continue;
      }
      for (const toml::node& element : *list)
        if (!element.is_string())
          problems.push_back({locate(file, element.source()),
                              "lab.variants must hold variant names (strings), not " + describe_node(element)});
    } else {
      problems.push_back(
          {locate(file, key.source()), "unknown key '" + name + "' in [lab]" + suggestion(name, lab_keys)});
    }
  }
  if (const toml::node* plugin = lab.get("plugin")) {
    out.plugin_where = locate(file, plugin->source());
    if (auto s = plugin->as_string()) {
      out.plugin = s->get();
      if (out.plugin.empty())
        problems.push_back({out.plugin_where, "lab.plugin is empty; name the plugin that runs this lab"});
    }
  } else {
    problems.push_back(
        {locate(file, lab.source()),
         "missing key 'plugin' in [lab]: name the plugin that runs this lab, e.g. plugin = \"alignment\""});
  }
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
  for (auto&& [key, value] : tree->doc) {
    const std::string name(key.str());
    const bool known = std::find(lab_tables.begin(), lab_tables.end(), name) != lab_tables.end();
    if (!known && value.is_table()) {
      problems.push_back({locate(file, key.source()), "unknown table [" + name + "]" +
                                                          suggestion(name, lab_tables, "[", "]") +
                                                          " (a lab file has [lab], [params], [sweep] and [measure])"});
    } else if (!known) {
      const bool lab_key = std::find(lab_keys.begin(), lab_keys.end(), name) != lab_keys.end();
      problems.push_back(
          {locate(file, key.source()), "key '" + name + "' outside any table" +
                                           (lab_key ? "; it belongs under [lab]" : "; put parameters under [params]")});
    } else if (!value.is_table()) {
      problems.push_back(
          {locate(file, key.source()), "'" + name + "' must be a table [" + name + "], not " + describe_node(value)});
    }
  }

  if (const toml::table* lab = tree->doc["lab"].as_table()) {
    read_lab_table(file, *lab, out, problems);
  } else if (!tree->doc.contains("lab")) {
    lab_problem missing;  // built step by step: g++ 12 warns falsely on the nested braces
    missing.where = {file, 1, 1};
    missing.message = "missing [lab] table: a lab file starts with [lab] and plugin = \"NAME\"";
    problems.push_back(std::move(missing));
  }
  if (const toml::table* measure = tree->doc["measure"].as_table())
    read_measure_table(file, *measure, tree->measure, problems);
  if (!problems.empty()) {
    sort_problems(problems);
    throw lab_file_error(std::move(problems));
  }

  out.tree = std::move(tree);
  return out;
}

}  // namespace cudalab::host
