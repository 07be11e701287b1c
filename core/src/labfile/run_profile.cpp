// Run profiles (configs/*.toml): optional [measure], [output] and [run] settings over the defaults;
// the names of the output formats and isolation modes (profiles and the command line read them alike).
#include <algorithm>
#include <string>
#include <vector>

#include "labfile/toml_tree.hpp"

namespace cudalab::host {
namespace {

// The names of the enumerators, in their order.
const std::vector<std::string> isolate_modes = {"none", "file", "variant"};
const std::vector<std::string> output_formats = {"table", "json", "csv", "md"};

void read_output_table(const std::string& file, const toml::table& table, output_settings& output,
                       std::vector<lab_problem>& problems) {
  table_reader r(file, table, "output", problems);
  r.titled("[output]");
  output.format = r.choice("format", output_formats, output.format);
  output.dir = r.text("dir", output.dir);
}

void read_run_table(const std::string& file, const toml::table& table, run_settings& run,
                    std::vector<lab_problem>& problems) {
  table_reader r(file, table, "run", problems);
  r.titled("[run]");
  run.isolate = r.choice("isolate", isolate_modes, run.isolate);
  if (const toml::node* n = r.get("timeout_s")) {
    const auto seconds = n->value<double>();
    if (!seconds || !(*seconds >= 0) || n->is_boolean())
      r.problem(*n, "must be a number of seconds >= 0 (0: no watchdog)");
    else
      run.timeout_s = *seconds;
  }
}

// A key of the profile's top level that is no table it may have.
std::string unknown_top_level(const std::string& name, const toml::node& value,
                              const std::vector<std::string>& tables) {
  return "unknown " + std::string(value.is_table() ? "table [" + name + "]" : "key '" + name + "'") + " in a profile" +
         suggestion(name, tables, "[", "]") + " (a profile has [measure], [output] and [run])";
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
  {
    table_reader top(file, doc, "", problems);
    top.on_unknown(unknown_top_level);
    if (const toml::table* t = top.section("measure")) read_measure_table(file, *t, profile.measure_set, problems);
    if (const toml::table* t = top.section("output")) read_output_table(file, *t, profile.output, problems);
    if (const toml::table* t = top.section("run")) read_run_table(file, *t, profile.run, problems);
  }
  if (!problems.empty()) {
    sort_problems(problems);
    throw lab_file_error(std::move(problems));
  }
  profile.measure_set.apply_to(profile.measure);
  return profile;
}

}  // namespace cudalab::host
