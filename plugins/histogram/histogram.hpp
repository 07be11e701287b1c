// Host-side declarations of the histogram lab: a point's settings, its launchers (the only door to its kernels) and
// the memory a point needs.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "cudalab/lab.hpp"
#include "cudalab/random.hpp"
#include "histogram_kernels.cuh"

namespace histogram {

/// Which hand-written kernel a variant launches.
enum class kernel { global_atomics, shared_privatized, shared_vectorized, warp_aggregated };

/// The largest number of bins: the shared-memory histogram of one block is bins x 4 bytes (16 KiB).
constexpr std::int64_t max_bins = 4096;

/// The distribution a `distribution` choice names. Throws std::invalid_argument for another name.
inline distribution distribution_named(const std::string& name) {
  if (name == "uniform") return distribution::uniform;
  if (name == "skewed") return distribution::skewed;
  if (name == "cyclic") return distribution::cyclic;
  throw std::invalid_argument("distribution must be uniform, skewed or cyclic, not '" + name + "'");
}

/// The parameters of one point, read once.
struct settings {
  std::uint64_t n;
  unsigned bins;
  unsigned block;
  std::string distribution_name;
  distribution shape;
  double hot_fraction;
  explicit settings(const cudalab::params& p)
      : n(static_cast<std::uint64_t>(p.integer("n"))),
        bins(static_cast<unsigned>(p.integer("bins"))),
        block(static_cast<unsigned>(p.integer("block"))),
        distribution_name(p.choice("distribution")),
        shape(distribution_named(distribution_name)),
        hot_fraction(p.real("hot_fraction")) {}

  /// The input of this point for `seed` (random stream 0 of the seed).
  input_values values(std::uint64_t seed) const {
    input_values v;
    v.stream = cudalab::random_stream(seed, 0);
    v.bins = bins;
    v.hot_below = hot_threshold(hot_fraction);
    v.shape = shape;
    return v;
  }
};

/// Enqueues kernel `k` over d_values[0, n) on `stream`: `blocks` blocks of `block` threads (the
/// shared-memory kernel with bins x 4 bytes of dynamic shared memory), adding into d_counts[0, bins).
/// REQUIRES: every value < bins; block a multiple of 32; blocks >= 1.
void launch_histogram(kernel k, const std::uint32_t* d_values, std::uint64_t n, std::uint32_t* d_counts, unsigned bins,
                      unsigned blocks, unsigned block, cudaStream_t stream);

/// Fills d_values[0, n) on the GPU: element i is values(i).
void fill_input(std::uint32_t* d_values, std::uint64_t n, const input_values& values, cudaStream_t stream);

/// Scratch bytes cub::DeviceHistogram::HistogramEven needs for n values in `bins` bins.
std::size_t cub_histogram_temp_bytes(std::uint64_t n, unsigned bins);

/// d_counts[0, bins) = cub::DeviceHistogram::HistogramEven of d_values[0, n), levels 0, 1, ..., bins (CUB
/// writes every bin itself). REQUIRES: d_temp holds cub_histogram_temp_bytes(n, bins) bytes.
void launch_cub_histogram(void* d_temp, std::size_t temp_bytes, const std::uint32_t* d_values, std::uint64_t n,
                          std::uint32_t* d_counts, unsigned bins, cudaStream_t stream);

/// The memory a point needs: on the device the input (4 bytes a value), the counts and CUB's scratch
/// (a few KB: 1 MiB allowed); on the host the reference counts and a downloaded copy of the result.
inline cudalab::requirements requirements_at(std::uint64_t n, unsigned bins) {
  return {n * 4 + std::uint64_t(bins) * 4 + (1u << 20), 0, std::uint64_t(bins) * 4 * 2};
}

}  // namespace histogram
