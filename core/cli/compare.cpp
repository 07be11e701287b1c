// `cudalab compare BASE NEW`: two runs' results compared, noise-aware; `cudalab export RESULTS`: a
// run's results in NVBench's JSON layout.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <memory>

#include "command.hpp"
#include "compare/compare_report.hpp"
#include "compare/comparison.hpp"
#include "compare/nvbench_export.hpp"
#include "exit_codes.hpp"
#include "option_checks.hpp"
#include "results/result_set.hpp"
#include "results/safe_file.hpp"

namespace cudalab::cli {

namespace {

struct compare_options {
  std::string base;          ///< BASE: a results folder or its results.json / results.jsonl
  std::string next;          ///< NEW
  double threshold_pct = 5;  ///< --threshold PCT
  std::string format;        ///< table (default), md or json
  bool no_color = false;
};

struct export_options {
  std::string results;   ///< RESULTS
  std::string format;    ///< nvbench (the only one)
  std::string out_file;  ///< --out FILE ("": stdout)
};

int compare(const compare_options& o) {
  host::comparison c;
  try {
    const host::result_set base = host::read_result_set(o.base);
    const host::result_set next = host::read_result_set(o.next);
    host::check_result_times(base);
    host::check_result_times(next);
    host::compare_settings settings;
    settings.threshold_pct = o.threshold_pct;
    c = host::compare_runs(base, next, settings);
  } catch (const host::result_set_error& e) {
    fmt::print(stderr, "cudalab: {}\n", e.what());
    return host::exit_bad_results;
  }
  if (o.format == "json") {
    host::write_compare_json(std::cout, c);
  } else if (o.format == "html") {
    host::write_compare_html(std::cout, c);
  } else if (o.format == "md") {
    host::write_compare_markdown(std::cout, c);
  } else {
    const bool colour = !o.no_color && ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
    host::write_compare_table(std::cout, c, colour);
  }
  std::cout.flush();
  return c.regression() ? host::exit_regression : host::exit_ok;
}

int export_results(const export_options& o) {
  std::string text;
  try {
    const host::result_set set = host::read_result_set(o.results);
    host::check_result_times(set);
    text = host::nvbench_json(set);
  } catch (const host::result_set_error& e) {
    fmt::print(stderr, "cudalab: {}\n", e.what());
    return host::exit_bad_results;
  }
  if (o.out_file.empty()) {
    fmt::print("{}", text);
    std::fflush(stdout);
    return host::exit_ok;
  }
  try {
    host::write_file_atomically(o.out_file, text);
  } catch (const host::write_error& e) {
    fmt::print(stderr, "cudalab: {}\n", e.what());
    return host::exit_write_error;
  }
  fmt::print(stderr, "cudalab: wrote {} in NVBench's JSON layout (file version {})\n", o.out_file,
             host::nvbench_json_version);
  return host::exit_ok;
}

}  // namespace

command add_compare(CLI::App& app) {
  auto o = std::make_shared<compare_options>();
  auto* cmd = app.add_subcommand(
      "compare", "Compare two runs' results: each result's change in median time, beyond the noise or not");
  cmd->add_option("base", o->base, "The base run: a results folder, or its results.json (or .jsonl)")->required();
  cmd->add_option("new", o->next, "The new run, likewise")->required();
  cmd->add_option("--threshold", o->threshold_pct,
                  "Count a change only beyond PCT % of the base median (default 5) and with p < 0.05 in the "
                  "Mann-Whitney U test")
      ->transform(percentage());
  cmd->add_option("--format", o->format, "table (default), md, json or html (one self-contained page)")
      ->check(CLI::IsMember({"table", "md", "json", "html"}));
  cmd->add_flag("--no-color", o->no_color, "No colours even on a terminal (NO_COLOR also works)");
  return {cmd, [o] { return compare(*o); }};
}

command add_export(CLI::App& app) {
  auto o = std::make_shared<export_options>();
  auto* cmd =
      app.add_subcommand("export", "Write a run's results in NVBench's JSON layout, for scripts/nvbench_compare.py");
  cmd->add_option("results", o->results, "A results folder, or its results.json (or .jsonl)")->required();
  cmd->add_option("--format", o->format, "nvbench (the only one, the default)")->check(CLI::IsMember({"nvbench"}));
  cmd->add_option("--out", o->out_file, "The file to write (default: standard output)");
  return {cmd, [o] { return export_results(*o); }};
}

}  // namespace cudalab::cli
