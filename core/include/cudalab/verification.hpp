// verification: what a lab's verify() says about the last run's output.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cudalab {

/// The outcome of verify(): passed or not, and enough detail to see why.
struct verification {
  bool passed = false;
  std::uint64_t checked = 0;     ///< elements compared
  std::uint64_t mismatches = 0;  ///< elements outside the tolerance
  double max_abs_error = 0.0;
  double max_rel_error = 0.0;
  std::string tolerance;                      ///< the rule used, in words ("exact", "|d| <= 1e-6 + 1e-5*|ref|")
  std::vector<std::string> first_mismatches;  ///< "[i] got X, expected Y", at most a few
  std::string note;                           ///< anything else worth saying (reduction order, ...)
};

/// How many mismatches verification::first_mismatches keeps.
inline constexpr std::size_t max_reported_mismatches = 5;

}  // namespace cudalab
