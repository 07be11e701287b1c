// Finding plugins: the search path, plugin names and their files (search.hpp).
#include "plugin/search.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>

#include "labfile/values.hpp"
#include "results/console_text.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

namespace {

constexpr const char* prefix = "cudalab_";
constexpr const char* suffix = ".so";

void append_path_list(const std::string& list, std::vector<fs::path>& out) {
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ':'))
    if (!item.empty()) out.emplace_back(item);
}

}  // namespace

std::vector<fs::path> plugin_search_path(const std::vector<std::string>& cli_paths) {
  std::vector<fs::path> path;
  for (const auto& p : cli_paths) append_path_list(p, path);
  if (const char* env = std::getenv("CUDALAB_PLUGIN_PATH")) append_path_list(env, path);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) path.push_back((exe.parent_path() / ".." / "lib" / "cudalab" / "plugins").lexically_normal());
  return path;
}

namespace {

// True for a plugin's name: lower-case letters, digits and '_'. A path is never one.
bool is_plugin_name(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

}  // namespace

std::string plugin_file_name(const std::string& name) { return prefix + name + suffix; }

std::string plugin_name_of_file(const fs::path& file) {
  std::string stem = file.stem().string();
  return stem.rfind(prefix, 0) == 0 ? stem.substr(std::string(prefix).size()) : stem;
}

plugin_files scan_plugin_files(const std::vector<fs::path>& search_path) {
  plugin_files found;
  std::map<std::string, fs::path> first;  // file name -> the file used
  for (const auto& dir : search_path) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    std::vector<fs::path> here;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      const std::string fname = entry.path().filename().string();
      if (fname.rfind(prefix, 0) == 0 && entry.path().extension() == suffix) here.push_back(entry.path());
    }
    std::sort(here.begin(), here.end());
    for (const fs::path& f : here) {
      const auto [it, is_first] = first.emplace(f.filename().string(), f);
      if (is_first)
        found.used.push_back(f);
      else if (!fs::equivalent(f, it->second, ec))
        found.shadowed.push_back({f, it->second});
    }
  }
  return found;
}

std::vector<fs::path> find_plugin_files(const std::vector<fs::path>& search_path) {
  return scan_plugin_files(search_path).used;
}

std::optional<std::string> nearest_plugin_name(const std::string& name, const std::vector<fs::path>& search_path) {
  std::vector<std::string> names;
  for (const fs::path& file : find_plugin_files(search_path)) names.push_back(plugin_name_of_file(file));
  return nearest_name(name, names);
}

std::string plugin_name_problem(const std::string& name, const std::vector<fs::path>& search_path) {
  if (is_plugin_name(name)) return "";
  // "../build/cudalab_histo.so" was most likely meant as "histo".
  const bool file_like = name.find('/') != std::string::npos || fs::path(name).extension() == suffix;
  const auto near = nearest_plugin_name(file_like ? plugin_name_of_file(name) : name, search_path);
  return "'" + printable(name) +
         "' is not a plugin name (lower-case letters, digits and '_'): a plugin is found by its name as "
         "cudalab_NAME.so on the plugin search path, never loaded from a path in a lab file; add its folder with "
         "--plugin-path DIR" +
         (near ? "; did you mean '" + *near + "'?" : "");
}

}  // namespace cudalab::host
