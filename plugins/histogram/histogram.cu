// Launchers of the histogram lab's kernels, the input fill, and the CUB baseline.
#include "histogram.hpp"

#include <cub/cub.cuh>

#include <cstdint>
#include <stdexcept>

#include "cudalab/cuda_error.hpp"
#include "cudalab/device_fill.cuh"
#include "histogram_kernels.cuh"

namespace histogram {

void launch_histogram(kernel k, const std::uint32_t* d_values, std::uint64_t n, std::uint32_t* d_counts, unsigned bins,
                      unsigned blocks, unsigned block, cudaStream_t stream) {
  if (blocks == 0) throw std::invalid_argument("a histogram launch needs at least one block");
  switch (k) {
    case kernel::global_atomics:
      histogram_global_atomics_kernel<<<blocks, block, 0, stream>>>(d_values, n, d_counts);
      break;
    case kernel::shared_privatized:
      histogram_shared_privatized_kernel<<<blocks, block, std::size_t(bins) * sizeof(std::uint32_t), stream>>>(
          d_values, n, d_counts, bins);
      break;
    case kernel::shared_vectorized:
      histogram_shared_vectorized_kernel<<<blocks, block, std::size_t(bins) * sizeof(std::uint32_t), stream>>>(
          d_values, n, d_counts, bins);
      break;
    case kernel::warp_aggregated:
      histogram_warp_aggregated_kernel<<<blocks, block, 0, stream>>>(d_values, n, d_counts);
      break;
  }
  CUDALAB_CHECK_LAUNCH();
}

void fill_input(std::uint32_t* d_values, std::uint64_t n, const input_values& values, cudaStream_t stream) {
  cudalab::fill_on_device(d_values, n, values, stream);
}

namespace {

/// CUB's histogram with even levels 0, 1, ..., bins: the bin of an integer sample v is
/// (v - 0) * bins / (bins - 0) = v. A null d_temp asks for the scratch size.
cudaError_t cub_histogram_even(void* d_temp, std::size_t& temp_bytes, const std::uint32_t* d_values, std::uint64_t n,
                               std::uint32_t* d_counts, unsigned bins, cudaStream_t stream) {
  return cub::DeviceHistogram::HistogramEven(d_temp, temp_bytes, d_values, d_counts, static_cast<int>(bins) + 1,
                                             std::uint32_t(0), std::uint32_t(bins), static_cast<std::int64_t>(n),
                                             stream);
}

}  // namespace

std::size_t cub_histogram_temp_bytes(std::uint64_t n, unsigned bins) {
  std::size_t bytes = 0;
  CUDALAB_CUDA_CHECK(cub_histogram_even(nullptr, bytes, nullptr, n, nullptr, bins, nullptr));
  return bytes;
}

void launch_cub_histogram(void* d_temp, std::size_t temp_bytes, const std::uint32_t* d_values, std::uint64_t n,
                          std::uint32_t* d_counts, unsigned bins, cudaStream_t stream) {
  CUDALAB_CUDA_CHECK(cub_histogram_even(d_temp, temp_bytes, d_values, n, d_counts, bins, stream));
}

}  // namespace histogram
