// What the reduction lab's files share: a point's settings and the table that declares and reads them, the
// passes of each kernel, its launchers (the only door to its kernels), the memory a point needs, and the trace.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cudalab/device_info.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/param_table.hpp"
#include "reduction_kernels.cuh"

namespace reduction {

/// The element type a point sums.
enum class element_type { float32, int32 };

/// The type parameter's choices.
inline const cudalab::choice_names<element_type> element_types = {{"float", element_type::float32},
                                                                  {"int", element_type::int32}};

/// The parameters of one point.
struct settings {
  std::uint64_t n;
  unsigned block;
  element_type type;
};

using settings_table = cudalab::param_table<settings>;

/// The lab's parameters, each said once: spec() lists them, read() gives a point's settings. `block` is
/// a tuning parameter (lab_point::retune).
inline const settings_table parameters = {
    settings_table::integer(&settings::n, "n", std::int64_t(1) << 28, 1, std::int64_t(1) << 31, "elements",
                            "elements to sum"),
    settings_table::integer(&settings::block, "block", 256, 64, 1024, "threads",
                            "threads per block, a power of two (the unrolled kernels need it)")
        .only(block_sizes::values())
        .tunes(),
    settings_table::choice(&settings::type, "type", element_type::float32, element_types,
                           "element type: float (checked against the exact sum with a stated bound) "
                           "or int (checked exactly)"),
};

/// Bytes of one element: float and int alike.
constexpr unsigned element_bytes = 4;

/// One launch of a multi-pass reduction: it reads `count` elements and writes `blocks` partials
/// (the result itself when blocks == 1).
struct pass {
  std::uint64_t count;
  std::uint64_t blocks;
};

/// The launches kernel `k` needs to reduce n elements to one; kernel 9 always needs one.
inline std::vector<pass> reduction_passes(kernel k, std::uint64_t n, unsigned block, std::uint64_t wave_blocks) {
  std::vector<pass> out;
  std::uint64_t count = n;
  for (;;) {
    const std::uint64_t blocks = pass_blocks(k, count, block, wave_blocks);
    out.push_back({count, blocks});
    if (blocks == 1 || k == kernel::vector_single_pass) break;
    count = blocks;
  }
  return out;
}

/// One pass of kernel `k` (any but vector_single_pass): reduces d_in[0, n) to one partial per
/// block in d_out[0, blocks), `block` threads per block. REQUIRES: block one of block_sizes;
/// n >= 1; blocks == pass_blocks(k, n, block, ...); d_out holds `blocks` elements.
/// Instantiated for float and int.
template <class T>
void launch_pass(kernel k, const T* d_in, T* d_out, std::uint64_t n, std::uint64_t blocks, unsigned block,
                 cudaStream_t stream);

/// The whole reduction in one launch of kernel 9: *d_result = sum of d_in[0, n).
/// REQUIRES: d_in 16-byte aligned; d_partials holds `blocks` elements; *d_counter == 0 (it is
/// left at 0); block a multiple of 32 in [64, 1024]. Instantiated for float and int.
template <class T>
void launch_vector_single_pass(const T* d_in, T* d_partials, unsigned* d_counter, T* d_result, std::uint64_t n,
                               std::uint64_t blocks, unsigned block, cudaStream_t stream);

/// Blocks of grid-stride kernel `k` (for element type T) one SM keeps resident at `block` threads,
/// from the CUDA occupancy calculator; they launch sm_count times this (one wave).
/// REQUIRES: is_grid_stride(k); block one of block_sizes.
template <class T>
int resident_blocks_per_sm(kernel k, unsigned block);

/// Scratch bytes cub::DeviceReduce::Sum needs for n elements of T.
template <class T>
std::size_t cub_sum_temp_bytes(std::uint64_t n);

/// *d_result = cub::DeviceReduce::Sum of d_in[0, n). REQUIRES: d_temp holds
/// cub_sum_temp_bytes<T>(n) bytes.
template <class T>
void launch_cub_sum(void* d_temp, std::size_t temp_bytes, const T* d_in, T* d_result, std::uint64_t n,
                    cudaStream_t stream);

/// Fills d_in[0, n) on the GPU with the lab's input from `seed` (cudalab::random_stream(seed, 0)):
/// floats are multiples of 2^-24 in [0, 1) (exact in float and in double), ints are in [-100, 100]
/// (no partial sum comes near 2^31). Instantiated for float and int.
template <class T>
void fill_input(T* d_in, std::uint64_t n, std::uint64_t seed, cudaStream_t stream);

/// The exact sums of an input, in units of 2^-24 for float (every input float is a whole number of
/// them) and of 1 for int.
struct exact_sums {
  std::int64_t sum = 0;       ///< sum of x
  std::uint64_t abs_sum = 0;  ///< sum of |x|
};

/// The reference: the sums of d_in[0, n) computed on the GPU in 64-bit integers by a kernel of its
/// own (no variant's code or order), so exact whatever the order; enqueued on `stream`, then waits
/// for the answer. The device memory that held the sums is cleared before it is freed. REQUIRES: for float, every
/// element a multiple of 2^-24 in [0, 1) (fill_input's). Instantiated for float and int.
template <class T>
exact_sums reference_sums(const T* d_in, std::uint64_t n, cudaStream_t stream);

/// The memory a point of n elements (float or int, 4 bytes alike) needs at most: on the device the
/// input, the two ping-pong partial arrays (at most n/64 + n/4096 elements, at the smallest block: a
/// sweep over block sizes keeps the largest it needed), a wave's partials (64 Ki elements allowed)
/// and CUB's scratch (a few KB; 1 MiB allowed, with the reference's two sums). Nothing on the host:
/// the input is made and the reference computed on the GPU.
inline cudalab::requirements requirements_at(std::uint64_t n) {
  const std::uint64_t input = n * 4;
  const std::uint64_t scratch = ((n + 63) / 64 + (n + 4095) / 4096 + 2 + 64 * 1024) * 4 + (1u << 20);
  return {input + scratch, 0, 0};
}

/// Feeds the warp accesses of every launch of kernel `k` at the point `s` on `device` to the access model
/// (reduction_trace.cpp): later passes reduce the partials of the one before, and Nsight Compute counts
/// them all too.
void trace_kernel(kernel k, const settings& s, const cudalab::device_info& device, cudalab::trace_sink& sink);

}  // namespace reduction
