// Comparing a lab's output with its CPU reference: on host arrays, or straight from device memory
// (download, synchronise, compare). Each returns a verification that says how the output differs.
#pragma once

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cudalab/cuda_error.hpp"
#include "cudalab/device_buffer.hpp"
#include "cudalab/verification.hpp"

namespace cudalab {

namespace detail {
template <class T>
std::string format_value(T v) {
  std::ostringstream os;
  os.precision(9);
  if constexpr (std::is_same_v<T, char> || std::is_same_v<T, signed char> || std::is_same_v<T, unsigned char>)
    os << static_cast<int>(v);
  else
    os << v;
  return os.str();
}

template <class T, class R>
void note_mismatch(verification& v, std::size_t i, const T& got, const R& expected) {
  if (v.mismatches++ < max_reported_mismatches)
    v.first_mismatches.push_back("[" + std::to_string(i) + "] got " + format_value(got) + ", expected " +
                                 format_value(expected));
}
}  // namespace detail

/// Element-wise exact comparison (integers, or floats that must be copied bit for bit).
/// REQUIRES: both arrays hold n elements.
template <class T>
verification compare_exact(const T* got, const T* expected, std::size_t n) {
  verification v;
  v.checked = n;
  v.tolerance = "exact";
  for (std::size_t i = 0; i < n; ++i) {
    if (got[i] == expected[i]) continue;
    detail::note_mismatch(v, i, got[i], expected[i]);
    if constexpr (std::is_arithmetic_v<T>) {
      const double d = std::fabs(double(got[i]) - double(expected[i]));
      v.max_abs_error = std::isnan(d) ? d : std::fmax(v.max_abs_error, d);
    }
  }
  v.passed = v.mismatches == 0;
  return v;
}

/// Element-wise comparison with |got - ref| <= abs_tol + rel_tol * |ref|. NaN never passes.
/// REQUIRES: both arrays hold n elements.
template <class T, class R>
verification compare_close(const T* got, const R* reference, std::size_t n, double abs_tol, double rel_tol) {
  verification v;
  v.checked = n;
  std::ostringstream rule;
  rule << "|got - ref| <= " << abs_tol << " + " << rel_tol << " * |ref|";
  v.tolerance = rule.str();
  for (std::size_t i = 0; i < n; ++i) {
    const double g = double(got[i]);
    const double r = double(reference[i]);
    const double d = std::fabs(g - r);
    const bool ok = std::isfinite(g) == std::isfinite(r) && d <= abs_tol + rel_tol * std::fabs(r);
    if (!std::isnan(d)) {
      v.max_abs_error = std::fmax(v.max_abs_error, d);
      if (r != 0.0) v.max_rel_error = std::fmax(v.max_rel_error, d / std::fabs(r));
    }
    if (!ok) detail::note_mismatch(v, i, got[i], reference[i]);
  }
  v.passed = v.mismatches == 0;
  return v;
}

/// Compares one scalar (a reduction's result) with |got - ref| <= tol.
inline verification compare_scalar(double got, double reference, double tol, std::string tolerance_text) {
  verification v;
  v.checked = 1;
  v.tolerance = std::move(tolerance_text);
  const double d = std::fabs(got - reference);
  v.max_abs_error = d;
  v.max_rel_error = reference != 0.0 ? d / std::fabs(reference) : d;
  v.passed = !std::isnan(d) && d <= tol;
  if (!v.passed) detail::note_mismatch(v, 0, got, reference);
  return v;
}

/// Copies a device buffer into a new host vector and waits for the copy. Throws cuda_error.
template <class T>
std::vector<T> download(const device_buffer<T>& d_buffer, cudaStream_t stream) {
  std::vector<T> h(d_buffer.size());
  if (!h.empty()) d_buffer.download(h.data(), stream);
  CUDALAB_CUDA_CHECK(cudaStreamSynchronize(stream));
  return h;
}

/// compare_exact of a device buffer with a host reference of the same size. Throws cuda_error.
template <class T>
verification compare_exact(const device_buffer<T>& got, const std::vector<T>& expected, cudaStream_t stream) {
  if (expected.size() != got.size())
    throw std::invalid_argument("compare_exact: the reference holds " + std::to_string(expected.size()) +
                                " elements, the output " + std::to_string(got.size()));
  const std::vector<T> h = download(got, stream);
  return compare_exact(h.data(), expected.data(), h.size());
}

/// compare_close of a device buffer with a host reference of the same size. Throws cuda_error.
template <class T, class R>
verification compare_close(const device_buffer<T>& got, const std::vector<R>& reference, double abs_tol, double rel_tol,
                           cudaStream_t stream) {
  if (reference.size() != got.size())
    throw std::invalid_argument("compare_close: the reference holds " + std::to_string(reference.size()) +
                                " elements, the output " + std::to_string(got.size()));
  const std::vector<T> h = download(got, stream);
  return compare_close(h.data(), reference.data(), h.size(), abs_tol, rel_tol);
}

}  // namespace cudalab
