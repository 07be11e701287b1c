// The staff reference solution of a slot, with its solution regions marked, and the starter a student
// gets from it: each region replaced by a TODO line and the region's STARTER lines, so that the
// starter still compiles (and fails verification: its outputs stay poisoned).
//
//   __global__ void transpose(...) {
//     // BEGIN SOLUTION
//     __shared__ float tile[32][33];
//     ...
//     // STARTER: (void)in;
//     // END SOLUTION
//   }
//
// becomes, in the starter,
//
//   __global__ void transpose(...) {
//     // TODO: your code here
//     (void)in;
//   }
#pragma once

#include <stdexcept>
#include <string>

namespace cudalab::host {

/// A reference source whose markers do not pair up; what() names the file and line.
class solution_markers_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The starter made from `reference` (named `file` in messages): every line from "// BEGIN SOLUTION"
/// to "// END SOLUTION" (each alone on its line, any indentation) becomes one "// TODO: your code
/// here" line at the BEGIN marker's indentation, followed by the region's "// STARTER: code" lines as
/// CODE at their own indentation. Lines outside regions are kept as they are. Throws
/// solution_markers_error for a BEGIN inside a region, an END outside one, or a region never ended.
std::string starter_source(const std::string& reference, const std::string& file);

/// `reference` without its solutions, for a plugin's source handed to students (a starter kit's
/// plugin/): each region keeps its BEGIN and END lines and its STARTER lines, and loses the rest. It
/// has the same regions and makes the same starter. Throws like starter_source.
std::string redacted_reference(const std::string& reference, const std::string& file);

/// How many solution regions `reference` has (0: nothing for a student to write). Throws like
/// starter_source.
int solution_region_count(const std::string& reference, const std::string& file);

}  // namespace cudalab::host
