// The starter a student gets from a slot's reference solution: solution regions replaced by TODO.
#include "slots/solution_regions.hpp"

#include <sstream>
#include <vector>

namespace cudalab::host {
namespace {

const char* const begin_marker = "// BEGIN SOLUTION";
const char* const end_marker = "// END SOLUTION";
const char* const starter_marker = "// STARTER:";

// The line without its leading and trailing blanks.
std::string trimmed(const std::string& line) {
  const auto first = line.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  const auto last = line.find_last_not_of(" \t\r");
  return line.substr(first, last - first + 1);
}

std::string indentation(const std::string& line) { return line.substr(0, line.find_first_not_of(" \t")); }

struct region_walk {
  std::string starter;
  std::string redacted;  ///< the reference with each region's lines but its markers and STARTER lines left out
  int regions = 0;
};

region_walk walk(const std::string& reference, const std::string& file) {
  region_walk out;
  std::istringstream in(reference);
  std::string line;
  int begun_at = 0;  // the line of the open region's BEGIN, 0: none open
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string t = trimmed(line);
    if (t == begin_marker) {
      if (begun_at)
        throw solution_markers_error(file + ":" + std::to_string(number) + ": '" + begin_marker +
                                     "' inside the region begun at line " + std::to_string(begun_at));
      begun_at = number;
      out.regions++;
      out.starter += indentation(line) + "// TODO: your code here\n";
      out.redacted += line + "\n";
    } else if (t == end_marker) {
      if (!begun_at)
        throw solution_markers_error(file + ":" + std::to_string(number) + ": '" + end_marker + "' without a '" +
                                     begin_marker + "' before it");
      begun_at = 0;
      out.redacted += line + "\n";
    } else if (begun_at) {
      if (t.rfind(starter_marker, 0) == 0) {
        out.starter += indentation(line) + trimmed(t.substr(11)) + "\n";
        out.redacted += line + "\n";
      }
    } else {
      out.starter += line + "\n";
      out.redacted += line + "\n";
    }
  }
  if (begun_at)
    throw solution_markers_error(file + ":" + std::to_string(begun_at) + ": the solution region begun here has no '" +
                                 end_marker + "'");
  return out;
}

}  // namespace

std::string starter_source(const std::string& reference, const std::string& file) {
  return walk(reference, file).starter;
}

std::string redacted_reference(const std::string& reference, const std::string& file) {
  return walk(reference, file).redacted;
}

int solution_region_count(const std::string& reference, const std::string& file) {
  return walk(reference, file).regions;
}

}  // namespace cudalab::host
