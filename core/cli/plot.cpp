// `cudalab plot RESULTS`: a run's plots drawn again from its results, as `run` draws them: after
// cudalab learnt to draw them better, for a run cut short, or into another folder.
#include <fmt/format.h>

#include <filesystem>

#include <memory>

#include "command.hpp"
#include "common.hpp"
#include "exit_codes.hpp"
#include "results/plot_images.hpp"
#include "results/reporter.hpp"
#include "results/safe_file.hpp"

namespace cudalab::cli {

namespace {

struct plot_options {
  std::string results;  ///< RESULTS
  std::string out_dir;  ///< --out ("": plots/ beside the results file)
  bool png = false;
};

int plot(const plot_options& o) {
  std::optional<std::filesystem::path> renderer;
  if (o.png && !(renderer = host::find_png_renderer())) {
    fmt::print(stderr, "cudalab: {}\n", host::no_png_renderer_message());
    return host::exit_usage;
  }
  int code = host::exit_ok;
  const std::optional<host::result_set> set = read_results(o.results, code);
  if (!set) return code;
  const std::filesystem::path dir =
      o.out_dir.empty() ? set->file.parent_path() / "plots" : std::filesystem::path(o.out_dir);
  std::vector<std::filesystem::path> written;
  try {
    written = host::write_plots(set->results, set->context.labs, dir);
  } catch (const host::write_error& e) {
    fmt::print(stderr, "cudalab: {}\n", e.what());
    return host::exit_write_error;
  }
  if (written.empty()) {
    fmt::print(stderr, "cudalab: {} holds no timed result: there is nothing to plot\n", set->file.string());
    return host::exit_ok;
  }
  std::vector<std::string> failures;
  if (renderer) {
    const auto pngs = host::write_png_copies(*renderer, written, failures);
    written.insert(written.end(), pngs.begin(), pngs.end());
  }
  for (const auto& file : written) fmt::print("{}\n", file.string());
  for (const std::string& failure : failures) fmt::print(stderr, "cudalab: {}\n", failure);
  return failures.empty() ? host::exit_ok : host::exit_write_error;
}

}  // namespace

command add_plot(CLI::App& app) {
  auto o = std::make_shared<plot_options>();
  auto* cmd = app.add_subcommand(
      "plot", "Draw a run's plots again from its results (a results folder, or its results.json or .jsonl)");
  cmd->add_option("results", o->results, "A results folder, or its results.json (or .jsonl)")->required();
  cmd->add_option("--out", o->out_dir, "The folder for the plots (default: plots/ beside the results file)")
      ->type_name("DIR");
  cmd->add_flag("--png", o->png,
                "Also write each plot as PNG beside its SVG (needs rsvg-convert: Debian package librsvg2-bin)");
  return {cmd, [o] { return plot(*o); }};
}

}  // namespace cudalab::cli
