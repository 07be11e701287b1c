// What the parent of an isolated run hands every child on its stdin (child_input.hpp). The format
// carries any bytes: "cudalab-child-input 1 N\n" (N lab files), then the profile's name, its text and
// each lab file's text, each as "SIZE\n" followed by SIZE bytes.
#include "isolation/child_input.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>

namespace cudalab::host {
namespace {

constexpr const char* header = "cudalab-child-input 1 ";

// Reads a decimal number ending in '\n' at `at`, moving past it.
std::optional<std::size_t> number_at(const std::string& text, std::size_t& at) {
  const std::size_t end = text.find('\n', at);
  if (end == std::string::npos) return std::nullopt;
  std::size_t value = 0;
  const auto [stop, error] = std::from_chars(text.data() + at, text.data() + end, value);
  if (error != std::errc() || stop != text.data() + end) return std::nullopt;
  at = end + 1;
  return value;
}

// Reads "SIZE\n" and SIZE bytes at `at`, moving past them.
std::optional<std::string> block_at(const std::string& text, std::size_t& at) {
  const auto size = number_at(text, at);
  if (!size || *size > text.size() - at) return std::nullopt;
  std::string block = text.substr(at, *size);
  at += *size;
  return block;
}

}  // namespace

std::string child_input_text(const child_input& input) {
  std::string text = header + std::to_string(input.labs.size()) + "\n";
  const auto add = [&](const std::string& block) { text += std::to_string(block.size()) + "\n" + block; };
  add(input.profile_file);
  add(input.profile);
  for (const std::string& lab : input.labs) add(lab);
  return text;
}

std::optional<child_input> parse_child_input(const std::string& text) {
  const std::string start(header);
  if (text.compare(0, start.size(), start) != 0) return std::nullopt;
  std::size_t at = start.size();
  const auto labs = number_at(text, at);
  if (!labs) return std::nullopt;
  child_input input;
  const auto profile_file = block_at(text, at);
  const auto profile = profile_file ? block_at(text, at) : std::nullopt;
  if (!profile) return std::nullopt;
  input.profile_file = *profile_file;
  input.profile = *profile;
  for (std::size_t i = 0; i < *labs; ++i) {
    auto lab = block_at(text, at);
    if (!lab) return std::nullopt;
    input.labs.push_back(std::move(*lab));
  }
  if (at != text.size()) return std::nullopt;
  return input;
}

std::optional<child_input> read_child_input(int fd) {
  std::string text;
  char buf[65536];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) break;
    text.append(buf, std::size_t(n));
  }
  return parse_child_input(text);
}

std::optional<child_input> read_child_input_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  auto input = read_child_input(fd);
  ::close(fd);
  return input;
}

}  // namespace cudalab::host
