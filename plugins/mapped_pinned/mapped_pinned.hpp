// Host-side declarations of the mapped_pinned lab's launchers (the only door to its kernels).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace mapped_pinned {

/// d_out[i] = d_in[i] + increment * cycles for i < n, with add_unrolled_kernel<unroll>.
/// The pointers may be device memory or the device view of mapped host memory.
/// REQUIRES: unroll is one of `unrolls` (1, 2 or 4); block is a multiple of 32 in [32, 1024].
void launch_add_unrolled(const int* d_in, int* d_out, std::uint64_t n, int increment, int cycles, int unroll, int block,
                         cudaStream_t stream);

/// The same result with add_strided_kernel: neighbouring lanes `rows` elements apart (uncoalesced).
/// REQUIRES: stride >= 1; block is a multiple of 32 in [32, 1024].
void launch_add_strided(const int* d_in, int* d_out, std::uint64_t n, std::uint64_t stride, int increment, int cycles,
                        int block, cudaStream_t stream);

}  // namespace mapped_pinned
