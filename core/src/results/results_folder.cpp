// A run's results folder: results.jsonl (streamed), results.json, results.csv, report.md and the
// sweep plots, with the console's reporter beside them; and the run's context before the device.
#include "results/results_folder.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <iostream>

#include "results/format.hpp"
#include "results/output_folder.hpp"

namespace cudalab::host {

run_context new_context(const std::string& command_line, const std::string& profile_file) {
  run_context ctx;
  ctx.cudalab_version = CUDALAB_VERSION;
  ctx.started_at = utc_text(std::time(nullptr), "%Y-%m-%dT%H:%M:%SZ");
  ctx.command_line = command_line;
  ctx.profile = profile_file;
  return ctx;
}

std::unique_ptr<reporter> console_reporter(output_format format, bool colour) {
  switch (format) {
    case output_format::json:
      return make_json_reporter(std::cout);
    case output_format::csv:
      return make_csv_reporter(std::cout);
    case output_format::md:
      return make_markdown_reporter(std::cout, "");
    case output_format::table:
      break;
  }
  return make_table_reporter(std::cout, colour);
}

std::unique_ptr<results_folder> open_results_folder(const std::string& dir, bool force, output_format console,
                                                    bool colour) {
  auto out = std::make_unique<results_folder>();
  try {
    out->dir = create_results_folder(dir, force);
  } catch (const folder_error& e) {
    fmt::print(stderr, "cudalab: {}\n", e.what());
    return nullptr;
  }
  out->jsonl.open(out->dir / "results.jsonl");
  out->json.open(out->dir / "results.json");
  out->csv.open(out->dir / "results.csv");
  out->md.open(out->dir / "report.md");
  colour = colour && console == output_format::table && ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
  out->reporters.add_reporter(make_jsonl_reporter(out->jsonl));
  out->reporters.add_reporter(console_reporter(console, colour));
  out->reporters.add_reporter(make_json_reporter(out->json));
  out->reporters.add_reporter(make_csv_reporter(out->csv));
  out->reporters.add_reporter(make_markdown_reporter(out->md, "plots/"));
  return out;
}

void results_folder::finish(const std::vector<variant_result>& results) const {
  write_sweep_plots(results, dir / "plots");
  std::cout.flush();
  fmt::print(stderr, "cudalab: {} result(s) in {}\n", results.size(), dir.string());
}

}  // namespace cudalab::host
