// The progress line of a run (progress.hpp).
#include "runner/progress.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cmath>
#include <iostream>

#include "results/format.hpp"

namespace cudalab::host {

namespace {

// 75 -> "1:15", 3725 -> "1:02:05".
std::string clock_text(double seconds) {
  const auto s = static_cast<std::uint64_t>(std::llround(std::max(0.0, seconds)));
  char text[32];
  if (s >= 3600)
    std::snprintf(text, sizeof text, "%llu:%02llu:%02llu", (unsigned long long)(s / 3600),
                  (unsigned long long)(s / 60 % 60), (unsigned long long)(s % 60));
  else
    std::snprintf(text, sizeof text, "%llu:%02llu", (unsigned long long)(s / 60), (unsigned long long)(s % 60));
  return text;
}

// "alignment offset=3 memcpy": the result's plugin, point and variant.
std::string result_text(const variant_result& r) {
  const std::string point = point_text(r);
  return r.plugin + (point.empty() ? "" : " " + point) + " " + r.variant;
}

// The columns of the terminal behind `f` (80 when it is not one): a longer line would wrap, and "\r"
// would then clear only its last part.
std::size_t columns_of(std::FILE* f) {
  winsize w{};
  if (::ioctl(::fileno(f), TIOCGWINSZ, &w) == 0 && w.ws_col > 0) return w.ws_col;
  return 80;
}

// `text` cut to fewer than `columns` characters (UTF-8: continuation bytes take no column).
std::string fit(const std::string& text, std::size_t columns) {
  std::size_t shown = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (++shown == columns) return text.substr(0, i);
  }
  return text;
}

}  // namespace

std::string progress_text(std::uint64_t done, std::uint64_t total, double elapsed_s, const std::string& what) {
  std::string text =
      "[" + std::to_string(done) + "/" + std::to_string(total) + "] " + clock_text(elapsed_s) + " elapsed";
  if (done > 0 && done < total)
    text += ", about " + clock_text(elapsed_s / double(done) * double(total - done)) + " left";
  if (!what.empty()) text += " \u00b7 " + what;
  return text;
}

progress_reporter::progress_reporter(reporter& inner, std::FILE* line, std::uint64_t total)
    : inner_(inner), line_(line), total_(total) {}

void progress_reporter::begin(const run_context& context) {
  start_ = std::chrono::steady_clock::now();
  inner_.begin(context);
}

void progress_reporter::add(const variant_result& result) {
  clear();
  inner_.add(result);
  std::cout.flush();  // the row is on the terminal before the line is drawn below it
  std::fflush(stdout);
  if (!counts_arrivals_) {
    ++done_;
    last_ = result_text(result);
  }
  draw();
}

void progress_reporter::arrived(const variant_result& result) {
  counts_arrivals_ = true;
  clear();
  ++done_;
  last_ = result_text(result);
  draw();
}

void progress_reporter::end(const run_context& context) {
  clear();
  inner_.end(context);
}

void progress_reporter::note(const std::string& text) {
  clear();
  fmt::print(line_ ? line_ : stderr, "{}\n", text);
  draw();
}

void progress_reporter::clear() {
  if (!line_ || !drawn_) return;
  fmt::print(line_, "\r\033[K");
  std::fflush(line_);
  drawn_ = false;
}

void progress_reporter::draw() {
  if (!line_) return;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  fmt::print(line_, "\r\033[K{}", fit(progress_text(done_, total_, elapsed, last_), columns_of(line_)));
  std::fflush(line_);
  drawn_ = true;
}

}  // namespace cudalab::host
