// `cudalab report RESULTS`: a run's report.html written again from its results, as `run` writes it:
// after cudalab learnt to write a better one, for a run cut short, or into another file.
#include <fmt/format.h>

#include <filesystem>
#include <memory>

#include "command.hpp"
#include "common.hpp"
#include "exit_codes.hpp"
#include "results/html_report.hpp"
#include "results/safe_file.hpp"

namespace cudalab::cli {

namespace {

struct report_options {
  std::string results;   ///< RESULTS
  std::string out_file;  ///< --out FILE ("": report.html beside the results file)
};

int report(const report_options& o) {
  int code = host::exit_ok;
  const std::optional<host::result_set> set = read_results(o.results, code);
  if (!set) return code;
  const std::filesystem::path file =
      o.out_file.empty() ? set->file.parent_path() / "report.html" : std::filesystem::path(o.out_file);
  try {
    host::write_file_atomically(file, host::run_report_html(set->context, set->results));
  } catch (const host::write_error& e) {
    fmt::print(stderr, "cudalab: {}\n", e.what());
    return host::exit_write_error;
  }
  fmt::print("{}\n", file.string());
  return host::exit_ok;
}

}  // namespace

command add_report(CLI::App& app) {
  auto o = std::make_shared<report_options>();
  auto* cmd = app.add_subcommand("report",
                                 "Write a run's report.html again from its results (a results folder, "
                                 "or its results.json or .jsonl): one page, no network needed");
  cmd->add_option("results", o->results, "A results folder, or its results.json (or .jsonl)")->required();
  cmd->add_option("--out", o->out_file, "The file to write (default: report.html beside the results file)")
      ->type_name("FILE");
  return {cmd, [o] { return report(*o); }};
}

}  // namespace cudalab::cli
