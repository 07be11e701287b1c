// `cudalab plot RESULTS`: a run's plots drawn again from its results, as `run` draws them: after
// cudalab learnt to draw them better, for a run cut short, or into another folder.
#include <fmt/format.h>

#include <filesystem>

#include "common.hpp"
#include "exit_codes.hpp"
#include "results/plot_images.hpp"
#include "results/reporter.hpp"
#include "results/safe_file.hpp"

namespace cudalab::cli {

int plot_command(const options& o) {
  std::optional<std::filesystem::path> renderer;
  if (o.png && !(renderer = host::find_png_renderer())) {
    fmt::print(stderr, "cudalab: {}\n", host::no_png_renderer_message());
    return host::exit_usage;
  }
  int code = host::exit_ok;
  const std::optional<host::result_set> set = read_results(o.compare.results, code);
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

}  // namespace cudalab::cli
