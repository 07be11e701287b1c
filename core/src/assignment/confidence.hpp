// A confidence interval for the mean of a few rounds of a performance test: Student's t, through
// Boost.Math's students_t. Grading takes another round while it straddles a points threshold.
#pragma once

#include <optional>
#include <utility>
#include <vector>

namespace cudalab::host {

/// The two-sided `level` (0.95: 95%) t-interval [low, high] for the mean of `values`; nullopt for
/// fewer than two values. REQUIRES: 0 < level < 1.
std::optional<std::pair<double, double>> t_interval(const std::vector<double>& values, double level = 0.95);

/// True when `ci` holds a threshold strictly inside it: the rounds cannot yet tell which side of
/// zero_at or full_at the test's metric lies, so its points are not yet settled.
bool straddles(const std::pair<double, double>& ci, double zero_at, double full_at);

}  // namespace cudalab::host
