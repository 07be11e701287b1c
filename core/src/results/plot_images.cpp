// PNG copies of the plots through rsvg-convert, each in a child under a time limit, rendered into a
// private folder and written beside the SVG by write_file_atomically.
#include "results/plot_images.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <system_error>

#include "process/child_process.hpp"
#include "process/toolkit_programs.hpp"
#include "results/safe_file.hpp"
#include "results/temporary_folder.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

std::optional<fs::path> find_png_renderer() { return find_on_path("rsvg-convert"); }

std::string no_png_renderer_message() {
  return "--png needs rsvg-convert on PATH (Debian and Ubuntu: apt-get install librsvg2-bin); the SVG plots "
         "need nothing";
}

namespace {

// The bytes of the regular file `path` (never through a symlink), or nullopt.
std::optional<std::string> read_regular_file(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string bytes;
  char buffer[1 << 16];
  ssize_t got;
  while ((got = ::read(fd, buffer, sizeof buffer)) > 0) bytes.append(buffer, std::size_t(got));
  ::close(fd);
  if (got < 0) return std::nullopt;
  return bytes;
}

}  // namespace

std::vector<fs::path> write_png_copies(const fs::path& renderer, const std::vector<fs::path>& svgs,
                                       std::vector<std::string>& failures) {
  std::vector<fs::path> written;
  if (svgs.empty()) return written;
  // rsvg-convert writes its PNG where nobody else can plant anything: the plots' folder may be
  // writable by others (a course's shared results).
  std::optional<temporary_folder> folder;
  try {
    folder.emplace("cudalab-png");
  } catch (const write_error& e) {
    for (const fs::path& svg : svgs)
      failures.push_back("cannot write " + fs::path(svg).replace_extension(".png").string() + ": " + e.what());
    return written;
  }
  const fs::path rendered = folder->path() / "plot.png";
  for (const fs::path& svg : svgs) {
    fs::path png = svg;
    png.replace_extension(".png");
    std::error_code ec;
    fs::remove(rendered, ec);
    child_request request;
    request.program = renderer.string();
    request.argv = {"rsvg-convert", "--zoom",          "2",         "--background-color", "white",
                    "--output",     rendered.string(), svg.string()};
    request.timeout_s = 60;
    const child_outcome how = run_child(request);
    if (!how.ended_normally() || how.exit_code != 0) {
      std::string why = "rsvg-convert " + how.describe();
      if (!how.last_output.empty()) why += ": " + how.last_output.back();
      failures.push_back("cannot write " + png.string() + ": " + why);
      continue;
    }
    const std::optional<std::string> bytes = read_regular_file(rendered);
    if (!bytes) {
      failures.push_back("cannot write " + png.string() + ": rsvg-convert wrote no file");
      continue;
    }
    // Written beside the SVG as every results file is: a new temporary file (O_EXCL | O_NOFOLLOW),
    // renamed over the name, so a symlink planted there is replaced, never followed.
    try {
      write_file_atomically(png, *bytes);
      written.push_back(png);
    } catch (const write_error& e) {
      failures.push_back(e.what());
    }
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
