// Host-side declarations of the test lab's launchers (the only door to its kernels).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace testlab {

/// d_out[i] = d_in[i] for i < n, one thread per element.
void launch_copy(const float* d_in, float* d_out, std::uint64_t n, int block, cudaStream_t stream);

/// d_out[i] = d_in[i] halved `rounds` times.
void launch_scale(const float* d_in, float* d_out, std::uint64_t n, int rounds, int block, cudaStream_t stream);

}  // namespace testlab
