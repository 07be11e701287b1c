// Host-side declarations of the @LAB@ lab's launchers: the only door to its kernels.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cudalab/verification.hpp"

namespace @LAB@ {

/// d_out[i] = factor * d_in[i] for i < n, one thread per element, `block` threads per block.
void launch_scale(const float* d_in, float* d_out, std::uint64_t n, float factor, int block, cudaStream_t stream);

/// The same with 16-byte vectors: `blocks` x `block` threads walk the array, `unroll` vectors in
/// flight per thread. REQUIRES: d_in and d_out 16-byte aligned; unroll one of unrolls.
void launch_scale_vec4(const float* d_in, float* d_out, std::uint64_t n, float factor, int unroll, int blocks,
                       int block, cudaStream_t stream);

/// Fills d_in[0, n) on the GPU with random floats in [-1, 1) from `seed` (cudalab/random.hpp).
void fill_input(float* d_in, std::uint64_t n, std::uint64_t seed, cudaStream_t stream);

/// Checks on the GPU that d_out[i] == factor * d_in[i] for every i < n, bit for bit.
cudalab::verification compare_scaled(const float* d_out, const float* d_in, std::uint64_t n, float factor,
                                     cudaStream_t stream);

}  // namespace @LAB@
