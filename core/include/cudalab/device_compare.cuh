// Comparing a lab's output with its reference on the GPU: every element checked at memory speed, the
// result the same verification compare.hpp gives on the host (count, worst errors, the first
// mismatches with both values). The reference is a device functor of the element index, so no
// expected array is built or copied. Include it from a .cu file.
#pragma once

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <type_traits>

#include "cudalab/compare.hpp"
#include "cudalab/cuda_error.hpp"
#include "cudalab/device_buffer.hpp"
#include "cudalab/device_fill.cuh"
#include "cudalab/verification.hpp"

namespace cudalab {

namespace detail {

/// What the comparison kernels accumulate, in device memory.
struct compare_tally {
  unsigned long long mismatches;
  unsigned long long first;         ///< the lowest mismatching index above `after` (find pass)
  unsigned long long max_abs_bits;  ///< a non-negative double's bits: they order like the values
  unsigned long long max_rel_bits;
};

/// Exact: equal with ==, as compare_exact on the host.
struct exact_rule {
  template <class T, class R>
  __device__ bool operator()(const T& got, const R& expected) const {
    return got == expected;
  }
};

/// Close: |got - ref| <= abs_tol + rel_tol * |ref|, both finite or both not; NaN never passes.
struct close_rule {
  double abs_tol, rel_tol;
  template <class T, class R>
  __device__ bool operator()(const T& got, const R& expected) const {
    const double g = double(got), r = double(expected);
    return bool(isfinite(g)) == bool(isfinite(r)) && fabs(g - r) <= abs_tol + rel_tol * fabs(r);
  }
};

__device__ inline unsigned long long warp_sum(unsigned long long v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}
__device__ inline unsigned long long warp_min(unsigned long long v) {
  for (int o = 16; o > 0; o /= 2) v = min(v, __shfl_down_sync(0xffffffffu, v, o));
  return v;
}
__device__ inline unsigned long long warp_max(unsigned long long v) {
  for (int o = 16; o > 0; o /= 2) v = max(v, __shfl_down_sync(0xffffffffu, v, o));
  return v;
}

/// The bits of a non-negative double, for atomicMax (NaN counts as 0: it is counted as a mismatch).
__device__ inline unsigned long long order_bits(double d) {
  return d >= 0.0 ? static_cast<unsigned long long>(__double_as_longlong(d)) : 0ull;
}

/// One pass over every element: mismatch count, lowest mismatching index, worst absolute and relative
/// error (arithmetic types). Lanes combine by shuffles; one atomic per warp and quantity.
template <class T, class Expected, class Rule>
__global__ void compare_kernel(const T* got, std::uint64_t n, Expected expected, Rule rule, compare_tally* tally) {
  unsigned long long count = 0, first = ~0ull, max_abs = 0, max_rel = 0;
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  // Every lane runs the same number of trips, so the shuffles below see full warps.
  for (std::uint64_t base = std::uint64_t(blockIdx.x) * blockDim.x; base < n; base += stride) {
    const std::uint64_t i = base + threadIdx.x;
    if (i >= n) continue;
    const T g = got[i];
    const auto e = expected(i);
    if (!rule(g, e)) {
      ++count;
      first = min(first, static_cast<unsigned long long>(i));
    }
    if constexpr (std::is_arithmetic_v<T> && std::is_arithmetic_v<decltype(e)>) {
      const double d = fabs(double(g) - double(e));
      max_abs = max(max_abs, order_bits(d));
      if (double(e) != 0.0) max_rel = max(max_rel, order_bits(d / fabs(double(e))));
    }
  }
  count = warp_sum(count);
  first = warp_min(first);
  max_abs = warp_max(max_abs);
  max_rel = warp_max(max_rel);
  if (threadIdx.x % 32 != 0) return;
  if (count != 0) {
    atomicAdd(&tally->mismatches, count);
    atomicMin(&tally->first, first);
  }
  if (max_abs != 0) atomicMax(&tally->max_abs_bits, max_abs);
  if (max_rel != 0) atomicMax(&tally->max_rel_bits, max_rel);
}

/// The lowest mismatching index above `after` (a pass run only when something failed).
template <class T, class Expected, class Rule>
__global__ void next_mismatch_kernel(const T* got, std::uint64_t n, Expected expected, Rule rule,
                                     unsigned long long after, compare_tally* tally) {
  for (std::uint64_t i = after + 1 + std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x)
    if (!rule(got[i], expected(i))) {
      atomicMin(&tally->first, static_cast<unsigned long long>(i));
      return;  // later indices of this thread are larger
    }
}

/// Element i's value and reference, for the report.
template <class T, class Expected, class R>
__global__ void sample_kernel(const T* got, std::uint64_t i, Expected expected, T* got_out, R* expected_out) {
  *got_out = got[i];
  *expected_out = expected(i);
}

template <class T>
T download_one(const device_buffer<T>& d, cudaStream_t stream) {
  T v{};
  d.download(&v, stream);
  CUDALAB_CUDA_CHECK(cudaStreamSynchronize(stream));
  return v;
}

template <class T, class Expected, class Rule>
verification compare_on_device(const T* got, std::uint64_t n, Expected expected, Rule rule, cudaStream_t stream) {
  using R = std::decay_t<decltype(expected(std::uint64_t(0)))>;
  constexpr unsigned block = 256;
  verification v;
  v.checked = n;
  if (n == 0) {
    v.passed = true;
    return v;
  }
  device_buffer<compare_tally> d_tally(1);
  const compare_tally start{0, ~0ull, 0, 0};
  CUDALAB_CUDA_CHECK(cudaMemcpyAsync(d_tally.data(), &start, sizeof start, cudaMemcpyHostToDevice, stream));
  compare_kernel<<<grid_for(n, block), block, 0, stream>>>(got, n, expected, rule, d_tally.data());
  CUDALAB_CHECK_LAUNCH();
  compare_tally tally = download_one(d_tally, stream);
  v.mismatches = tally.mismatches;
  std::memcpy(&v.max_abs_error, &tally.max_abs_bits, sizeof(double));
  std::memcpy(&v.max_rel_error, &tally.max_rel_bits, sizeof(double));
  v.passed = v.mismatches == 0;
  // The first mismatches in index order, with both values.
  device_buffer<T> d_got(1);
  device_buffer<R> d_expected(1);
  std::uint64_t index = tally.first;
  while (index < n && v.first_mismatches.size() < max_reported_mismatches) {
    sample_kernel<<<1, 1, 0, stream>>>(got, index, expected, d_got.data(), d_expected.data());
    CUDALAB_CHECK_LAUNCH();
    const T g = download_one(d_got, stream);
    const R e = download_one(d_expected, stream);
    v.first_mismatches.push_back("[" + std::to_string(index) + "] got " + format_value(g) + ", expected " +
                                 format_value(e));
    if (v.first_mismatches.size() == v.mismatches) break;
    const compare_tally again{0, ~0ull, 0, 0};
    CUDALAB_CUDA_CHECK(cudaMemcpyAsync(d_tally.data(), &again, sizeof again, cudaMemcpyHostToDevice, stream));
    next_mismatch_kernel<<<grid_for(n, block), block, 0, stream>>>(got, n, expected, rule, index, d_tally.data());
    CUDALAB_CHECK_LAUNCH();
    index = download_one(d_tally, stream).first;
  }
  return v;
}

}  // namespace detail

/// Checks got[i] == expected(i) for every i < n on the GPU and waits for the answer. `expected` is a
/// copyable functor with a `__device__ R operator()(std::uint64_t i) const` (it may read device
/// buffers, such as the input). `got` may be device or mapped host memory. Throws cuda_error.
template <class T, class Expected>
verification compare_exact_on_device(const T* got, std::uint64_t n, Expected expected, cudaStream_t stream) {
  verification v = detail::compare_on_device(got, n, expected, detail::exact_rule{}, stream);
  v.tolerance = "exact";
  return v;
}

/// Checks |got[i] - expected(i)| <= abs_tol + rel_tol * |expected(i)| for every i < n on the GPU, as
/// compare_close does on the host. Throws cuda_error.
template <class T, class Expected>
verification compare_close_on_device(const T* got, std::uint64_t n, Expected expected, double abs_tol, double rel_tol,
                                     cudaStream_t stream) {
  verification v = detail::compare_on_device(got, n, expected, detail::close_rule{abs_tol, rel_tol}, stream);
  std::ostringstream rule;
  rule << "|got - ref| <= " << abs_tol << " + " << rel_tol << " * |ref|";
  v.tolerance = rule.str();
  return v;
}

}  // namespace cudalab
