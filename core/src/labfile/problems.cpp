// Problems found in lab files, profiles and --set overrides: locations, ordering, the error text.
#include "labfile/problems.hpp"

#include <algorithm>
#include <map>

namespace cudalab::host {
namespace {

// The error text lists this many problems of one file, then counts the rest.
constexpr std::size_t max_problems_per_file = 50;

// Lines of the error text are cut to about this many bytes: a name 10 MB long, echoed in full,
// helps nobody.
constexpr std::size_t max_line_bytes = 1000;

bool utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// `line`, or its start and its end with what lies between them left out (cut between characters).
std::string bounded(const std::string& line) {
  if (line.size() <= max_line_bytes) return line;
  std::size_t head = max_line_bytes * 2 / 3, tail = line.size() - max_line_bytes / 3;
  while (head > 0 && utf8_continuation(line[head])) --head;
  while (tail < line.size() && utf8_continuation(line[tail])) ++tail;
  return line.substr(0, head) + " … (" + std::to_string(tail - head) + " bytes left out) … " + line.substr(tail);
}

// Each file's problems, in the order given, files in the order they first appear; past
// max_problems_per_file a file's problems are counted, not listed.
std::string join_problems(const std::vector<lab_problem>& problems) {
  std::vector<std::string> files;
  std::map<std::string, std::vector<const lab_problem*>> by_file;
  for (const lab_problem& p : problems) {
    auto& of_file = by_file[p.where.file];
    if (of_file.empty()) files.push_back(p.where.file);
    of_file.push_back(&p);
  }
  std::string text;
  auto add_line = [&](const std::string& line) { text += (text.empty() ? "" : "\n") + bounded(line); };
  for (const std::string& file : files) {
    const auto& of_file = by_file[file];
    for (std::size_t i = 0; i < of_file.size() && i < max_problems_per_file; ++i)
      add_line(of_file[i]->where.text() + ": " + of_file[i]->message);
    if (of_file.size() > max_problems_per_file)
      add_line(file + ": … and " + std::to_string(of_file.size() - max_problems_per_file) + " more problems (" +
               std::to_string(of_file.size()) + " in all)");
  }
  return text;
}

}  // namespace

std::string source_location::text() const {
  if (line <= 0) return file;
  if (column <= 0) return file + ":" + std::to_string(line);
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

lab_file_error::lab_file_error(std::vector<lab_problem> problems)
    : std::runtime_error(join_problems(problems)), problems_(std::move(problems)) {}

void sort_problems(std::vector<lab_problem>& problems, const std::vector<std::string>& set_order) {
  auto rank = [&](const lab_problem& p) {
    const auto it = std::find(set_order.begin(), set_order.end(), p.where.file);
    return static_cast<std::size_t>(it - set_order.begin());
  };
  std::stable_sort(problems.begin(), problems.end(), [&](const lab_problem& a, const lab_problem& b) {
    const bool a_loose = a.where.line == 0, b_loose = b.where.line == 0;
    if (a_loose != b_loose) return b_loose;
    if (a_loose) return rank(a) < rank(b);
    if (a.where.file != b.where.file) return false;
    return a.where.line != b.where.line ? a.where.line < b.where.line : a.where.column < b.where.column;
  });
}

}  // namespace cudalab::host
