// Host-side declarations of the aos_soa lab's launchers (the only door to its kernels).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "aos_soa_kernels.cuh"

namespace aos_soa {

/// Copies `bytes` bytes (REQUIRES: a multiple of 4) from d_in to d_out, 16 bytes per thread.
void launch_record_copy(const void* d_in, void* d_out, std::uint64_t bytes, int block, cudaStream_t stream);

/// Updates every field of n records of `shape` (natural alignment), one record per thread.
void launch_aos_update_all(record_shape shape, const void* d_in, void* d_out, std::uint64_t n, int block,
                           cudaStream_t stream);

/// Updates every field of n aligned_record<> records of `shape` with vector loads and stores.
void launch_aos_update_all_aligned(record_shape shape, const void* d_in, void* d_out, std::uint64_t n, int block,
                                   cudaStream_t stream);

/// Updates field `field` of n records of `shape`. REQUIRES: 0 <= field < shape.fields.
void launch_aos_update_one(record_shape shape, const void* d_in, void* d_out, std::uint64_t n, int field,
                           int block, cudaStream_t stream);

/// Updates every field array of an SoA of n elements, soa_group elements per thread.
void launch_soa_update_all(record_shape shape, soa_const_arrays d_in, soa_arrays d_out, std::uint64_t n, int block,
                           cudaStream_t stream);

/// Updates field array `field` of an SoA of n elements. REQUIRES: 0 <= field < shape.fields.
void launch_soa_update_one(record_shape shape, soa_const_arrays d_in, soa_arrays d_out, std::uint64_t n, int field,
                           int block, cudaStream_t stream);

/// Converts n records (natural alignment) to field arrays through shared memory.
/// REQUIRES: block is a multiple of 32.
void launch_aos_to_soa(record_shape shape, const void* d_in, soa_arrays d_out, std::uint64_t n, int block,
                       cudaStream_t stream);

/// Converts field arrays of n elements to records (natural alignment) through shared memory.
/// REQUIRES: block is a multiple of 32.
void launch_soa_to_aos(record_shape shape, soa_const_arrays d_in, void* d_out, std::uint64_t n, int block,
                       cudaStream_t stream);

}  // namespace aos_soa
