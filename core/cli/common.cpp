// Helpers the sub-commands share: search path, profile, planning with errors turned into exit codes.
#include "common.hpp"

#include <fmt/format.h>

#include "exit_codes.hpp"
#include "plugin/loader.hpp"
#include "plugin/plugin_call.hpp"
#include "slots/submission.hpp"

namespace cudalab::cli {

std::vector<std::filesystem::path> search_path(const options& o) { return host::plugin_search_path(o.plugin_paths); }

std::optional<host::run_profile> load_profile(const options& o, int& exit_code, const host::child_input* given) {
  const std::string& file = given ? given->profile_file : o.config;
  if (file.empty()) return host::run_profile{};
  try {
    return given ? host::parse_profile_text(given->profile, file) : host::parse_profile(file);
  } catch (const host::lab_file_error& e) {
    fmt::print(stderr, "{}\n", e.what());
    exit_code = host::exit_bad_lab_file;
    return std::nullopt;
  }
}

std::optional<std::vector<host::planned_lab>> plan(const options& o, const host::run_profile* profile, int& exit_code,
                                                   const host::child_input* given, bool running) {
  host::plan_request req{o.files, search_path(o), profile, o.sets, o.variants, {}};
  if (given) req.texts = given->labs;
  if (running) {
    req.submitted_slots.emplace();
    for (const std::string& s : o.submissions) req.submitted_slots->push_back(host::parse_submission_arg(s).slot);
  }
  try {
    return host::plan_lab_files(req);
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

}  // namespace cudalab::cli
