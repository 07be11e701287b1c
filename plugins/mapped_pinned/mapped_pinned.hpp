// Host-side declarations of the mapped_pinned lab's launchers (the only door to its kernels).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cudalab/host_device.hpp"
#include "cudalab/random.hpp"
#include "cudalab/verification.hpp"

namespace mapped_pinned {

/// The range of the input values.
inline constexpr int input_min = -1000000, input_max = 1000000;

/// Input element i of the point seeded `seed`: uniform in [input_min, input_max], from
/// cudalab::random_stream(seed, 0); every input buffer holds the same values.
CUDALAB_HD int input_value(const cudalab::random_stream& s, std::uint64_t i) {
  return static_cast<int>(s.integer(i, input_min, input_max));
}

/// d_out[i] = d_in[i] + increment * cycles for i < n, with add_unrolled_kernel<unroll>.
/// The pointers may be device memory or the device view of mapped host memory.
/// REQUIRES: unroll is one of `unrolls` (1, 2 or 4); block is a multiple of 32 in [32, 1024].
void launch_add_unrolled(const int* d_in, int* d_out, std::uint64_t n, int increment, int cycles, int unroll, int block,
                         cudaStream_t stream);

/// The same result with add_strided_kernel: neighbouring lanes `rows` elements apart (uncoalesced).
/// REQUIRES: stride >= 1; block is a multiple of 32 in [32, 1024].
void launch_add_strided(const int* d_in, int* d_out, std::uint64_t n, std::uint64_t stride, int increment, int cycles,
                        int block, cudaStream_t stream);

/// Enqueues d_out[i] = input_value(random_stream(seed, 0), i) for i < n. d_out may be device memory
/// or the device view of mapped host memory (then the kernel writes it over the bus).
void fill_input(int* d_out, std::uint64_t n, std::uint64_t seed, cudaStream_t stream);

/// Compares got[i] with add_reference(input_value(i), increment, cycles) for every i < n on the GPU,
/// exactly, and waits for the answer. got may be device memory or the device view of mapped host memory.
cudalab::verification compare_sums(const int* got, std::uint64_t n, std::uint64_t seed, int increment, int cycles,
                                   cudaStream_t stream);

}  // namespace mapped_pinned
