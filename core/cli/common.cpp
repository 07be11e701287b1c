// What several sub-commands share (common.hpp).
#include "common.hpp"

#include <fmt/format.h>

#include "command.hpp"
#include "exit_codes.hpp"
#include "plugin/loader.hpp"
#include "plugin/plugin_call.hpp"

namespace cudalab::cli {

std::string invocation::command_line() const {
  std::string text;
  for (const std::string& a : argv) text += (text.empty() ? "" : " ") + a;
  return text;
}

std::string invocation::program() const {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? argv.at(0) : self.string();
}

CLI::Option* one_value_each_time(CLI::Option* option) { return option->allow_extra_args(false); }

CLI::Validator existing_file() { return CLI::Validator(CLI::ExistingFile).description(""); }

void add_plugin_path(CLI::App& cmd, std::vector<std::string>& paths) {
  one_value_each_time(
      cmd.add_option("--plugin-path", paths,
                     "A folder to search for plugins first (repeatable, one folder or ':'-separated list "
                     "each time); then $CUDALAB_PLUGIN_PATH, then the plugin folder beside this executable")
          ->type_name("DIR"));
}

void add_lab_options(CLI::App& cmd, lab_options& o) {
  add_plugin_path(cmd, o.plugin_paths);
  cmd.add_option("--config", o.config, "Run profile (e.g. configs/quick.toml): [measure] and [output] settings")
      ->type_name("TOML")
      ->check(existing_file());
  one_value_each_time(cmd.add_option("--set", o.sets,
                                     "Override a value: a parameter (n=64Mi, params.offset=3), measure.KEY=VALUE, "
                                     "lab.variants=a,b, lab.baseline=NAME (repeatable, one KEY=VALUE each time)")
                          ->type_name("KEY=VALUE"));
  one_value_each_time(
      cmd.add_option("--variant", o.variants, "Run only this variant (repeatable; the baseline is kept)")
          ->type_name("NAME"));
  cmd.add_option("files", o.files, "Lab files")->type_name("TOML")->required();
}

void add_wide(CLI::App& cmd, bool& wide) {
  cmd.add_flag("--wide", wide,
               "Every column of the tables and no line wrapped, whatever the width of the terminal (by default "
               "the least important columns are left out where they do not fit: $COLUMNS, else the terminal's "
               "width, else 120)");
}

std::vector<std::filesystem::path> search_path(const std::vector<std::string>& plugin_paths) {
  return host::plugin_search_path(plugin_paths);
}

std::optional<host::run_profile> load_profile(const std::string& config, int& exit_code, const std::string* text) {
  if (config.empty()) return host::run_profile{};
  try {
    return text ? host::parse_profile_text(*text, config) : host::parse_profile(config);
  } catch (const host::lab_file_error& e) {
    fmt::print(stderr, "{}\n", e.what());
    exit_code = host::exit_bad_lab_file;
    return std::nullopt;
  }
}

host::plan_request plan_request_of(const lab_options& o, const host::run_profile* profile) {
  return host::plan_request{o.files, search_path(o.plugin_paths), profile, o.sets, o.variants, {}};
}

std::optional<std::vector<host::planned_lab>> plan(const host::plan_request& request, int& exit_code) {
  try {
    return host::plan_lab_files(request);
  } catch (const host::lab_file_error& e) {
    fmt::print(stderr, "{}\n", e.what());
    exit_code = host::exit_bad_lab_file;
  } catch (const host::plugin_error& e) {
    fmt::print(stderr, "{}{}\n", e.located() ? "" : "cudalab: ", e.what());
    exit_code = host::exit_plugin;
  } catch (const host::lab_call_error& e) {
    fmt::print(stderr, "cudalab: {}\n", e.what());
    exit_code = host::exit_lab_error;
  }
  return std::nullopt;
}

std::optional<host::result_set> read_results(const std::string& path, int& exit_code) {
  try {
    return host::read_result_set(path);
  } catch (const host::result_set_error& e) {
    fmt::print(stderr, "cudalab: {}\n", e.what());
    exit_code = host::exit_bad_results;
  }
  return std::nullopt;
}

}  // namespace cudalab::cli
