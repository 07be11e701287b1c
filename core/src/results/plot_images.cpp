// PNG copies of the plots through rsvg-convert, each in a child under a time limit.
#include "results/plot_images.hpp"

#include <unistd.h>

#include <algorithm>
#include <system_error>

#include "process/child_process.hpp"
#include "process/toolkit_programs.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

std::optional<fs::path> find_png_renderer() { return find_on_path("rsvg-convert"); }

std::string no_png_renderer_message() {
  return "--png needs rsvg-convert on PATH (Debian and Ubuntu: apt-get install librsvg2-bin); the SVG plots "
         "need nothing";
}

std::vector<fs::path> write_png_copies(const fs::path& renderer, const std::vector<fs::path>& svgs,
                                       std::vector<std::string>& failures) {
  std::vector<fs::path> written;
  for (const fs::path& svg : svgs) {
    fs::path png = svg;
    png.replace_extension(".png");
    const fs::path temporary =
        png.parent_path() / ("." + png.filename().string() + ".tmp-" + std::to_string(::getpid()));
    child_request request;
    request.program = renderer.string();
    request.argv = {"rsvg-convert", "--zoom",           "2",         "--background-color", "white",
                    "--output",     temporary.string(), svg.string()};
    request.timeout_s = 60;
    const child_outcome how = run_child(request);
    std::error_code ec;
    if (how.ended_normally() && how.exit_code == 0 && fs::is_regular_file(temporary, ec)) {
      fs::rename(temporary, png, ec);
      if (!ec) {
        written.push_back(png);
        continue;
      }
      failures.push_back("cannot write " + png.string() + ": " + ec.message());
    } else {
      std::string why = "rsvg-convert " + how.describe();
      if (!how.last_output.empty()) why += ": " + how.last_output.back();
      failures.push_back("cannot write " + png.string() + ": " + why);
    }
    fs::remove(temporary, ec);
  }
  return written;
}

std::vector<fs::path> svg_files_in(const fs::path& dir) {
  std::vector<fs::path> svgs;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".svg" && it->is_regular_file(ec)) svgs.push_back(it->path());
  std::sort(svgs.begin(), svgs.end());
  return svgs;
}

}  // namespace cudalab::host
