// Run profiles (configs/*.toml): optional [measure], [output] and [run] settings over the defaults;
// the names of the output formats and isolation modes (profiles and the command line read them alike).
#include <algorithm>
#include <string>
#include <vector>

#include "labfile/toml_tree.hpp"

namespace cudalab::host {
namespace {

const std::vector<std::string> profile_tables = {"measure", "output", "run"};
const std::vector<std::string> run_keys = {"isolate", "timeout_s"};
const std::vector<std::string> output_keys = {"format", "dir"};
// The names of the enumerators, in their order.
const std::vector<std::string> isolate_modes = {"none", "file", "variant"};
const std::vector<std::string> output_formats = {"table", "json", "csv", "md"};

void read_output_table(const std::string& file, const toml::table& table, output_settings& output,
                       std::vector<lab_problem>& problems) {
  for (auto&& [key, value] : table) {
    const std::string name(key.str());
    if (name != "format" && name != "dir") {
      problems.push_back(
          {locate(file, key.source()), "unknown key '" + name + "' in [output]" + suggestion(name, output_keys)});
      continue;
    }
    auto s = value.as_string();
    if (!s) {
      problems.push_back(
          {locate(file, value.source()), "output." + name + " must be a string, not " + describe_node(value)});
    } else if (name == "dir") {
      output.dir = s->get();
    } else if (const auto format = parse_output_format(s->get())) {
      output.format = *format;
    } else {
      problems.push_back({locate(file, value.source()), "output.format \"" + s->get() +
                                                            "\" is not one of table, json, csv, md" +
                                                            suggestion(s->get(), output_formats, "\"", "\"")});
    }
  }
}

void read_run_table(const std::string& file, const toml::table& table, run_settings& run,
                    std::vector<lab_problem>& problems) {
  for (auto&& [key, value] : table) {
    const std::string name(key.str());
    if (name == "isolate") {
      const auto s = value.as_string();
      const auto mode = s ? parse_isolation_mode(s->get()) : std::nullopt;
      if (!mode)
        problems.push_back({locate(file, value.source()), "run.isolate must be \"none\", \"file\" or \"variant\""});
      else
        run.isolate = *mode;
    } else if (name == "timeout_s") {
      const auto seconds = value.value<double>();
      if (!seconds || !(*seconds >= 0) || value.is_boolean())
        problems.push_back(
            {locate(file, value.source()), "run.timeout_s must be a number of seconds >= 0 (0: no watchdog)"});
      else
        run.timeout_s = *seconds;
    } else {
      problems.push_back(
          {locate(file, key.source()), "unknown key '" + name + "' in [run]" + suggestion(name, run_keys)});
    }
  }
}

}  // namespace

std::optional<output_format> parse_output_format(const std::string& text) {
  return enumerator<output_format>(output_formats, text);
}

std::optional<isolation_mode> parse_isolation_mode(const std::string& text) {
  return enumerator<isolation_mode>(isolate_modes, text);
}

run_profile parse_profile(const std::filesystem::path& path) {
  return parse_profile_text(read_text(path, "profile"), path);
}

run_profile parse_profile_text(const std::string& text, const std::filesystem::path& path) {
  const std::string file = path.string();
  const toml::table doc = parse_toml(file, text);

  run_profile profile;
  profile.file = file;
  profile.text = text;
  std::vector<lab_problem> problems;
  for (auto&& [key, value] : doc) {
    const std::string name(key.str());
    if (name == "measure" && value.is_table()) {
      read_measure_table(file, *value.as_table(), profile.measure_set, problems);
    } else if (name == "output" && value.is_table()) {
      read_output_table(file, *value.as_table(), profile.output, problems);
    } else if (name == "run" && value.is_table()) {
      read_run_table(file, *value.as_table(), profile.run, problems);
    } else if (name == "measure" || name == "output" || name == "run") {
      problems.push_back(
          {locate(file, key.source()), "'" + name + "' must be a table [" + name + "], not " + describe_node(value)});
    } else {
      problems.push_back({locate(file, key.source()),
                          "unknown " + std::string(value.is_table() ? "table [" + name + "]" : "key '" + name + "'") +
                              " in a profile" + suggestion(name, profile_tables, "[", "]") +
                              " (a profile has [measure], [output] and [run])"});
    }
  }
  if (!problems.empty()) {
    sort_problems(problems);
    throw lab_file_error(std::move(problems));
  }
  profile.measure_set.apply_to(profile.measure);
  return profile;
}

}  // namespace cudalab::host
