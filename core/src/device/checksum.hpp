// Checksums of a lab's registered inputs, so the host can tell after a run whether a variant changed
// them. Device memory is summed on the GPU (a read at memory speed); host memory on the CPU.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace cudalab::host {

/// A 64-bit checksum of `bytes` bytes of device memory at `d_ptr`: the sum, modulo 2^64, of a mix of
/// each 8-byte word with its position, so a changed, swapped or moved word changes it. Waits for the
/// stream. Throws cuda_error.
std::uint64_t device_checksum(const void* d_ptr, std::size_t bytes, cudaStream_t stream);

/// The same checksum of `bytes` bytes of host memory at `h_ptr`.
std::uint64_t host_checksum(const void* h_ptr, std::size_t bytes);

}  // namespace cudalab::host
