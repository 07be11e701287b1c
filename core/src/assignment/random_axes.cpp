// A test's random axes drawn: from a seed, each axis's values sorted and without repeats, as sweep lines.
// The seed a file draws with comes from the assignment's and the test's names, so a file gives the same
// values wherever it is read; grade draws a hidden test again per student (student_seeds).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "assignment/assignment_file.hpp"

namespace cudalab::host {
namespace {

// A 64-bit mix (splitmix64): the random axes are drawn from the assignment's and test's names, so a
// file gives the same values wherever it is read.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

std::uint64_t seed_of(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (const unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return h;
}

}  // namespace

std::uint64_t default_draw_seed(const std::string& assignment_id, const std::string& test) {
  return seed_of(assignment_id + "/" + test);
}

std::vector<std::string> draw_random_axes(const std::vector<random_axis>& axes, std::uint64_t seed) {
  std::uint64_t state = seed;
  std::vector<std::string> lines;
  for (const random_axis& axis : axes) {
    std::vector<std::int64_t> values;
    for (int i = 0; i < axis.count; ++i) {
      state = mix(state);
      if (!axis.choices.empty()) {
        values.push_back(axis.choices[state % axis.choices.size()]);
        continue;
      }
      const double u = double(state >> 11) / double(1ull << 53);
      const double from = double(axis.from), to = double(axis.to);
      const double v =
          axis.log_scale ? std::exp(std::log(from) + u * (std::log(to) - std::log(from))) : from + u * (to - from);
      values.push_back(std::clamp(static_cast<std::int64_t>(std::llround(v)), axis.from, axis.to));
    }
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    std::string list;
    for (const std::int64_t v : values) list += (list.empty() ? "" : ", ") + std::to_string(v);
    lines.push_back(axis.name + " = [" + list + "]");
  }
  return lines;
}

}  // namespace cudalab::host
