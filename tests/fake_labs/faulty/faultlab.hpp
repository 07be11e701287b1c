// Host-side declarations of the fault lab's launchers (the only door to its kernels).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace faultlab {

/// d_out[i] = d_in[i] for i < n.
void launch_copy(const float* d_in, float* d_out, std::uint64_t n, int block, cudaStream_t stream);

/// Writes far past the end of d_out (illegal address when the kernel runs).
void launch_oob_write(float* d_out, std::uint64_t n, int block, cudaStream_t stream);

/// One block spinning until *d_flag != 0, which never happens (d_flag holds 0).
void launch_spin_forever(const int* d_flag, float* d_out, cudaStream_t stream);

/// d_out[i] = d_in[i] + 1 (verification must fail).
void launch_wrong_value(const float* d_in, float* d_out, std::uint64_t n, int block, cudaStream_t stream);

}  // namespace faultlab
