// Verification helpers: compare a lab's output with its CPU reference and say how it differs.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace cudalab {

/// The outcome of verify(): passed or not, and enough detail to see why.
struct check {
  bool passed = false;
  std::uint64_t checked = 0;     ///< elements compared
  std::uint64_t mismatches = 0;  ///< elements outside the tolerance
  double max_abs_error = 0.0;
  double max_rel_error = 0.0;
  std::string tolerance;         ///< the rule used, in words ("exact", "|d| <= 1e-6 + 1e-5*|ref|")
  std::vector<std::string> first_mismatches;  ///< "[i] got X, expected Y", at most a few
  std::string note;              ///< anything else worth saying (reduction order, ...)
};

/// How many mismatches check::first_mismatches keeps.
inline constexpr std::size_t max_reported_mismatches = 5;

namespace detail {
template <class T>
std::string format_value(T v) {
  std::ostringstream os;
  os.precision(9);
  if constexpr (std::is_same_v<T, char> || std::is_same_v<T, signed char> ||
                std::is_same_v<T, unsigned char>)
    os << static_cast<int>(v);
  else
    os << v;
  return os.str();
}
}  // namespace detail

/// Element-wise exact comparison (integers, or floats that must be copied bit for bit).
/// REQUIRES: both arrays hold n elements.
template <class T>
check compare_exact(const T* got, const T* expected, std::size_t n) {
  check c;
  c.checked = n;
  c.tolerance = "exact";
  for (std::size_t i = 0; i < n; ++i) {
    const bool same = std::is_floating_point_v<T> ? (got[i] == expected[i]) : !(got[i] != expected[i]);
    if (same) continue;
    if (c.mismatches++ < max_reported_mismatches)
      c.first_mismatches.push_back("[" + std::to_string(i) + "] got " + detail::format_value(got[i]) +
                                   ", expected " + detail::format_value(expected[i]));
    if constexpr (std::is_arithmetic_v<T>) {
      const double d = std::fabs(double(got[i]) - double(expected[i]));
      c.max_abs_error = std::isnan(d) ? d : std::fmax(c.max_abs_error, d);
    }
  }
  c.passed = c.mismatches == 0;
  return c;
}

/// Element-wise comparison with |got - ref| <= abs_tol + rel_tol * |ref|. NaN never passes.
/// REQUIRES: both arrays hold n elements.
template <class T, class R>
check compare_close(const T* got, const R* reference, std::size_t n, double abs_tol, double rel_tol) {
  check c;
  c.checked = n;
  std::ostringstream rule;
  rule << "|got - ref| <= " << abs_tol << " + " << rel_tol << " * |ref|";
  c.tolerance = rule.str();
  for (std::size_t i = 0; i < n; ++i) {
    const double g = double(got[i]);
    const double r = double(reference[i]);
    const double d = std::fabs(g - r);
    const bool ok = std::isfinite(g) == std::isfinite(r) && d <= abs_tol + rel_tol * std::fabs(r);
    if (!std::isnan(d)) {
      c.max_abs_error = std::fmax(c.max_abs_error, d);
      if (r != 0.0) c.max_rel_error = std::fmax(c.max_rel_error, d / std::fabs(r));
    }
    if (ok) continue;
    if (c.mismatches++ < max_reported_mismatches)
      c.first_mismatches.push_back("[" + std::to_string(i) + "] got " + detail::format_value(got[i]) +
                                   ", expected " + detail::format_value(reference[i]));
  }
  c.passed = c.mismatches == 0;
  return c;
}

/// Compares one scalar (a reduction's result) with |got - ref| <= tol.
inline check compare_scalar(double got, double reference, double tol, std::string tolerance_text) {
  check c;
  c.checked = 1;
  c.tolerance = std::move(tolerance_text);
  const double d = std::fabs(got - reference);
  c.max_abs_error = d;
  c.max_rel_error = reference != 0.0 ? d / std::fabs(reference) : d;
  c.passed = !std::isnan(d) && d <= tol;
  if (!c.passed) {
    c.mismatches = 1;
    c.first_mismatches.push_back("got " + detail::format_value(got) + ", expected " +
                                 detail::format_value(reference));
  }
  return c;
}

}  // namespace cudalab
