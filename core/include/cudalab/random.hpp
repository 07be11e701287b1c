// Counter-based random inputs: element i of a stream is a pure function of (seed, stream, i), so a
// kernel fills a buffer at memory speed with any launch shape, and the host computes the same value
// of any element for a CPU reference. The same seed gives the same inputs on every device.
#pragma once

#include <cstdint>

#include "cudalab/host_device.hpp"

namespace cudalab {

/// splitmix64's finaliser: a bijection on 64-bit words that scatters neighbouring inputs.
CUDALAB_HD std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// splitmix64's counter step (2^64 / the golden ratio): mix64(key + (i + 1) * counter_step) is word i
/// of the sequence that starts at `key`.
inline constexpr std::uint64_t counter_step = 0x9E3779B97F4A7C15ull;

/// One independent sequence of random words: a point's inputs use one stream per buffer or field
/// (random_stream(seed, 0), random_stream(seed, 1), ...), so they never repeat each other.
struct random_stream {
  std::uint64_t key = 0;

  random_stream() = default;
  CUDALAB_HD random_stream(std::uint64_t seed, std::uint64_t stream) : key(mix64(mix64(seed) ^ (stream + 1))) {}

  /// Word i: splitmix64 at counter i (its output sequence, read at any position).
  CUDALAB_HD std::uint64_t bits(std::uint64_t i) const { return mix64(key + (i + 1) * counter_step); }

  /// A float in [0, 1): a multiple of 2^-24, so exact in float and in double.
  CUDALAB_HD float unit_float(std::uint64_t i) const { return float(bits(i) >> 40) * 0x1p-24f; }

  /// A float in [-1, 1): a multiple of 2^-23, exact.
  CUDALAB_HD float signed_float(std::uint64_t i) const { return float(bits(i) >> 40) * 0x1p-23f - 1.0f; }

  /// A double in [-1, 1): a multiple of 2^-52, exact.
  CUDALAB_HD double signed_double(std::uint64_t i) const { return double(bits(i) >> 11) * 0x1p-52 - 1.0; }

  /// An integer in [lo, hi] (multiply-shift: unbiased to within 2^-32 for ranges below 2^32).
  /// REQUIRES: lo <= hi, hi - lo < 2^32.
  CUDALAB_HD std::int64_t integer(std::uint64_t i, std::int64_t lo, std::int64_t hi) const {
    const std::uint64_t span = std::uint64_t(hi - lo) + 1;
    return lo + std::int64_t(((bits(i) >> 32) * span) >> 32);
  }
};

}  // namespace cudalab
