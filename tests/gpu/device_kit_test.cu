// The plugin kit's GPU helpers: fill_on_device makes exactly the values random_stream gives on the
// host, whatever the size; compare_*_on_device checks every element and reports what compare.hpp
// reports on the host (count, worst error, the first mismatches in index order with both values).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "cudalab/compare.hpp"
#include "cudalab/device_buffer.hpp"
#include "cudalab/device_compare.cuh"
#include "cudalab/device_fill.cuh"
#include "cudalab/random.hpp"
#include "cudalab/stream.hpp"

namespace {

struct random_floats {
  cudalab::random_stream s;
  __device__ float operator()(std::uint64_t i) const { return s.signed_float(i); }
};

struct scaled_floats {
  cudalab::random_stream s;
  float factor;
  __device__ double operator()(std::uint64_t i) const { return double(s.signed_float(i)) * factor; }
};

class DeviceKit : public ::testing::Test {
 protected:
  cudalab::stream stream;
};

TEST_F(DeviceKit, FillMatchesTheHostAtEverySize) {
  for (std::uint64_t n : {1ull, 31ull, 257ull, 1000003ull, (1ull << 22) + 5}) {
    const cudalab::random_stream s(2026, 4);
    cudalab::device_buffer<float> d(n);
    cudalab::fill_on_device(d.data(), n, random_floats{s}, stream.get());
    const std::vector<float> h = cudalab::download(d, stream.get());
    std::uint64_t differ = 0;
    for (std::uint64_t i = 0; i < n; ++i) differ += h[i] != s.signed_float(i);
    EXPECT_EQ(differ, 0u) << "n = " << n;
  }
}

TEST_F(DeviceKit, ExactCompareCountsAndListsTheFirstMismatchesInOrder) {
  const std::uint64_t n = (1ull << 20) + 3;
  const cudalab::random_stream s(9, 0);
  cudalab::device_buffer<float> d(n);
  cudalab::fill_on_device(d.data(), n, random_floats{s}, stream.get());
  cudalab::verification ok = cudalab::compare_exact_on_device(d.data(), n, random_floats{s}, stream.get());
  EXPECT_TRUE(ok.passed);
  EXPECT_EQ(ok.checked, n);
  EXPECT_EQ(ok.mismatches, 0u);

  // Spoil 7 elements, scattered; the report lists the lowest five in order with both values.
  const std::vector<std::uint64_t> spoiled = {n - 1, 5, 0, 700000, 131072, 99, 1ull << 19};
  const float bad = 42.0f;
  for (std::uint64_t i : spoiled)
    CUDALAB_CUDA_CHECK(cudaMemcpy(d.data() + i, &bad, sizeof bad, cudaMemcpyHostToDevice));
  cudalab::verification v = cudalab::compare_exact_on_device(d.data(), n, random_floats{s}, stream.get());
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.mismatches, spoiled.size());
  ASSERT_EQ(v.first_mismatches.size(), cudalab::max_reported_mismatches);
  const std::uint64_t order[] = {0, 5, 99, 131072, 1ull << 19};
  for (std::size_t k = 0; k < 5; ++k) {
    const std::string want = "[" + std::to_string(order[k]) + "] got 42, expected ";
    EXPECT_EQ(v.first_mismatches[k].rfind(want, 0), 0u) << v.first_mismatches[k];
  }
  EXPECT_GT(v.max_abs_error, 40.0);
}

TEST_F(DeviceKit, CloseCompareAppliesTheToleranceLikeTheHost) {
  const std::uint64_t n = 100001;
  const cudalab::random_stream s(3, 1);
  cudalab::device_buffer<float> d(n);
  cudalab::fill_on_device(d.data(), n, random_floats{s}, stream.get());
  // The reference is 1.0001 times the data: a relative tolerance of 1e-3 passes, 1e-5 fails.
  const scaled_floats ref{s, 1.0001f};
  EXPECT_TRUE(cudalab::compare_close_on_device(d.data(), n, ref, 0.0, 1e-3, stream.get()).passed);
  cudalab::verification strict = cudalab::compare_close_on_device(d.data(), n, ref, 0.0, 1e-5, stream.get());
  EXPECT_FALSE(strict.passed);
  EXPECT_GT(strict.mismatches, n / 2);
  EXPECT_NEAR(strict.max_rel_error, 1e-4, 2e-5);
  // A NaN never passes.
  const float nan = std::nanf("");
  CUDALAB_CUDA_CHECK(cudaMemcpy(d.data() + 17, &nan, sizeof nan, cudaMemcpyHostToDevice));
  cudalab::verification with_nan = cudalab::compare_close_on_device(d.data(), n, ref, 1.0, 1.0, stream.get());
  EXPECT_EQ(with_nan.mismatches, 1u);
  EXPECT_EQ(with_nan.first_mismatches.at(0).rfind("[17] got nan", 0), 0u) << with_nan.first_mismatches.at(0);
}

TEST_F(DeviceKit, EmptyBuffersPass) {
  const cudalab::random_stream s(1, 1);
  EXPECT_TRUE(
      cudalab::compare_exact_on_device(static_cast<const float*>(nullptr), 0, random_floats{s}, stream.get()).passed);
}

}  // namespace
