// A run's results folder: context.json, results.jsonl (streamed), results.json, results.csv, report.md, the
// sweep plots and report.html, with the console's reporter beside them; and the run's context before the device.
#include "results/results_folder.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <sstream>

#include "cudalab_build_info.hpp"
#include "results/format.hpp"
#include "results/html_report.hpp"
#include "results/json.hpp"
#include "results/output_folder.hpp"
#include "results/safe_file.hpp"

namespace cudalab::host {

// The folder's files as one reporter: context.json at the start, results.jsonl as each result arrives
// (one result per line); at the end context.json again with the end's context (each GPU's end sample),
// results.json, results.csv, report.md, the plots and report.html, each rendered in memory and written
// whole under its name. A file that cannot be written is noted, and the others are still written.
class folder_files final : public reporter {
 public:
  explicit folder_files(const std::filesystem::path& dir) : dir_(dir), jsonl_(dir / "results.jsonl") {
    parts_.add_reporter(make_jsonl_reporter(jsonl_, false));
    parts_.add_reporter(make_json_reporter(json_));
    parts_.add_reporter(make_csv_reporter(csv_));
    parts_.add_reporter(make_markdown_reporter(md_, "plots/"));
  }

  // context.json first, whole: a reader of results.jsonl finds every line a result.
  void begin(const run_context& c) override {
    write_context(c);
    labs_ = c.labs;
    parts_.begin(c);
  }
  void add(const variant_result& r) override {
    parts_.add(r);
    results_.push_back(r);
  }
  void end(const run_context& c) override {
    parts_.end(c);
    attempt([&] { jsonl_.close(); });
    write_context(c);
    attempt([&] { write_file_atomically(dir_ / "results.json", json_.str()); });
    attempt([&] { write_file_atomically(dir_ / "results.csv", csv_.str()); });
    attempt([&] { write_file_atomically(dir_ / "report.md", md_.str()); });
    attempt([&] { write_plots(results_, labs_, dir_ / "plots"); });
    attempt([&] { write_file_atomically(dir_ / "report.html", run_report_html(c, results_)); });
  }

  std::size_t result_count() const { return results_.size(); }
  /// Each file that could not be written: "cannot write PATH: why".
  const std::vector<std::string>& failures() const { return failures_; }

 private:
  void write_context(const run_context& c) {
    attempt([&] { write_file_atomically(dir_ / "context.json", context_json(c, 2) + "\n"); });
  }

  template <typename Write>
  void attempt(Write write) {
    try {
      write();
    } catch (const write_error& e) {
      // context.json is written twice: one that cannot be written is said once.
      if (std::find(failures_.begin(), failures_.end(), e.what()) == failures_.end()) failures_.push_back(e.what());
    }
  }

  std::filesystem::path dir_;
  streamed_file jsonl_;
  std::ostringstream json_, csv_, md_;
  reporter_set parts_;
  std::vector<variant_result> results_;
  std::vector<lab_description> labs_;  // the context's: how each sweep axis was written, for the plots
  std::vector<std::string> failures_;
};

run_context new_context(const std::string& command_line, const std::string& profile_file) {
  run_context ctx;
  ctx.cudalab_version = CUDALAB_VERSION;
  ctx.git_revision = CUDALAB_GIT_REVISION;
  ctx.cuda_toolkit = CUDALAB_CUDA_TOOLKIT_VERSION;
  ctx.cuda_architectures = CUDALAB_CUDA_ARCHITECTURES;
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0) ctx.hostname = host;
  ctx.started_at = utc_text(std::time(nullptr), "%Y-%m-%dT%H:%M:%SZ");
  ctx.command_line = command_line;
  ctx.profile = profile_file;
  return ctx;
}

namespace {

// The reporter that prints `format` on stdout; `colour` colours the table, which fits in `width` columns
// (make_table_reporter).
std::unique_ptr<reporter> console_reporter(output_format format, bool colour, std::size_t width) {
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
  return make_table_reporter(std::cout, colour, width);
}

}  // namespace

std::unique_ptr<results_folder> open_results_folder(const std::string& dir, bool force, output_format console,
                                                    bool colour, std::size_t width) {
  auto out = std::make_unique<results_folder>();
  out->dir = create_results_folder(dir, force);
  auto files = std::make_unique<folder_files>(out->dir);
  out->files = files.get();
  out->reporters.add_reporter(std::move(files));
  colour = colour && console == output_format::table && ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
  out->reporters.add_reporter(console_reporter(console, colour, width));
  return out;
}

bool results_folder::finish() const {
  std::cout.flush();
  for (const std::string& failure : files->failures()) fmt::print(stderr, "cudalab: {}\n", failure);
  const std::size_t failed = files->failures().size();
  fmt::print(stderr, "cudalab: {} result(s) in {}{}\n", files->result_count(), dir.string(),
             failed ? fmt::format(", but {} file(s) could not be written", failed) : "");
  return failed == 0;
}

}  // namespace cudalab::host
