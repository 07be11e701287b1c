// `cudalab compare BASE NEW`: two runs' results compared, noise-aware; `cudalab export RESULTS`: a
// run's results in NVBench's JSON layout.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "commands.hpp"
#include "compare/compare_report.hpp"
#include "compare/comparison.hpp"
#include "compare/nvbench_export.hpp"
#include "exit_codes.hpp"
#include "results/result_set.hpp"
#include "results/safe_file.hpp"

namespace cudalab::cli {

int compare_command(const options& o) {
  host::comparison c;
  try {
    const host::result_set base = host::read_result_set(o.compare.base);
    const host::result_set next = host::read_result_set(o.compare.next);
    host::compare_settings settings;
    settings.threshold_pct = o.compare.threshold_pct;
    c = host::compare_runs(base, next, settings);
  } catch (const host::result_set_error& e) {
    fmt::print(stderr, "cudalab: {}\n", e.what());
    return host::exit_bad_results;
  }
  if (o.format == "json") {
    host::write_compare_json(std::cout, c);
  } else if (o.format == "md") {
    host::write_compare_markdown(std::cout, c);
  } else {
    const bool colour = !o.no_color && ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
    host::write_compare_table(std::cout, c, colour);
  }
  std::cout.flush();
  return c.regression() ? host::exit_regression : host::exit_ok;
}

int export_command(const options& o) {
  std::string text;
  try {
    text = host::nvbench_json(host::read_result_set(o.compare.results));
  } catch (const host::result_set_error& e) {
    fmt::print(stderr, "cudalab: {}\n", e.what());
    return host::exit_bad_results;
  }
  if (o.compare.out_file.empty()) {
    fmt::print("{}", text);
    std::fflush(stdout);
    return host::exit_ok;
  }
  try {
    host::write_file_atomically(o.compare.out_file, text);
  } catch (const host::write_error& e) {
    fmt::print(stderr, "cudalab: {}\n", e.what());
    return host::exit_write_error;
  }
  fmt::print(stderr, "cudalab: wrote {} in NVBench's JSON layout (file version {})\n", o.compare.out_file,
             host::nvbench_json_version);
  return host::exit_ok;
}

}  // namespace cudalab::cli
