// `cudalab report RESULTS`: a run's report.html written again from its results, as `run` writes it:
// after cudalab learnt to write a better one, for a run cut short, or into another file.
#include <fmt/format.h>

#include <filesystem>

#include "common.hpp"
#include "exit_codes.hpp"
#include "results/html_report.hpp"
#include "results/safe_file.hpp"

namespace cudalab::cli {

int report_command(const options& o) {
  int code = host::exit_ok;
  const std::optional<host::result_set> set = read_results(o.compare.results, code);
  if (!set) return code;
  const std::filesystem::path file =
      o.compare.out_file.empty() ? set->file.parent_path() / "report.html" : std::filesystem::path(o.compare.out_file);
  try {
    host::write_file_atomically(file, host::run_report_html(set->context, set->results));
  } catch (const host::write_error& e) {
    fmt::print(stderr, "cudalab: {}\n", e.what());
    return host::exit_write_error;
  }
  fmt::print("{}\n", file.string());
  return host::exit_ok;
}

}  // namespace cudalab::cli
