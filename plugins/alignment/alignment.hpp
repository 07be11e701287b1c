// What the alignment lab's files share: the variants' patterns, a point's settings and the table that
// declares and reads them, the launchers (the only door to its kernels) and the trace of each variant.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "alignment_kernels.cuh"
#include "cudalab/param_table.hpp"
#include "cudalab/trace.hpp"
#include "cudalab/verification.hpp"

namespace alignment {

/// The cache operator a misaligned read uses (see alignment_kernels.cuh).
enum class cache_operator { default_path, ldg, ldca, ldcg, ldcs };

/// Whether the grid-stride copy uses plain or streaming (evict-first) loads and stores.
enum class copy_hint { plain, streaming };

/// The access pattern family a variant belongs to.
enum class pattern { offset_read, offset_write, offset_copy, strided, vector_copy, grid_stride, library_copy };

/// What a variant does: its pattern and the template choice within it.
struct policy {
  pattern what;
  cache_operator op = cache_operator::default_path;  ///< offset_read family
  int vector_bytes = 4;                              ///< vector_copy
  copy_hint hint = copy_hint::plain;                 ///< grid_stride
};

/// The parameters of one point.
struct settings {
  std::uint64_t n;
  std::uint64_t offset;
  std::uint64_t stride;
  int block;
  int unroll;
  int blocks_per_sm;

  /// Floats the variant moves (reads, and writes as many).
  std::uint64_t moved(pattern what) const {
    switch (what) {
      case pattern::offset_read:
      case pattern::offset_write:
      case pattern::offset_copy:
        return offset_count(n, offset);
      case pattern::strided:
        return strided_count(n, stride);
      default:
        return n;
    }
  }
};

using settings_table = cudalab::param_table<settings>;

/// The lab's parameters, each said once: spec() lists them, read() gives a point's settings. Only `n`
/// shapes the data; the others are tuning parameters (lab_point::retune).
inline const settings_table parameters = {
    settings_table::integer(&settings::n, "n", std::int64_t(1) << 28, 1, std::int64_t(1) << 32, "elements",
                            "floats per buffer (input and output); the default is 1 GiB each"),
    settings_table::integer(&settings::offset, "offset", 0, 0, 1 << 20, "elements",
                            "shift of the misaligned side in the offset_* variants; elements that "
                            "would fall past n are not moved")
        .tunes(),
    settings_table::integer(&settings::stride, "stride", 2, 1, 1024, "elements",
                            "distance between elements read by the strided variant")
        .tunes(),
    settings_table::integer(&settings::block, "block", 256, 32, 1024, "threads", "threads per block (a multiple of 32)")
        .multiple(32)
        .tunes(),
    settings_table::integer(&settings::unroll, "unroll", 1, 1, 4, "items",
                            "independent elements (or vectors) per thread and pass: 1, 2 or 4")
        .only(unrolls::values())
        .tunes(),
    settings_table::integer(&settings::blocks_per_sm, "blocks_per_sm", 0, 0, 64, "blocks",
                            "grid of the grid-stride copies, per SM; 0 = as many as fit at once")
        .tunes(),
};

/// d_out[i] = d_in[i + offset] for i < count, loaded with `op`, `unroll` elements per thread.
/// REQUIRES: unroll is one of `unrolls`; block is a multiple of 32; d_in holds count + offset floats.
void launch_offset_read(const float* d_in, float* d_out, std::uint64_t count, std::uint64_t offset, cache_operator op,
                        int unroll, int block, cudaStream_t stream);

/// d_out[i + offset] = d_in[i] for i < count. REQUIRES: as launch_offset_read.
void launch_offset_write(const float* d_in, float* d_out, std::uint64_t count, std::uint64_t offset, int unroll,
                         int block, cudaStream_t stream);

/// d_out[i + offset] = d_in[i + offset] for i < count. REQUIRES: as launch_offset_read.
void launch_offset_copy(const float* d_in, float* d_out, std::uint64_t count, std::uint64_t offset, int unroll,
                        int block, cudaStream_t stream);

/// d_out[i] = d_in[i * stride] for i < count. REQUIRES: d_in holds (count - 1) * stride + 1 floats.
void launch_strided_read(const float* d_in, float* d_out, std::uint64_t count, std::uint64_t stride, int unroll,
                         int block, cudaStream_t stream);

/// Copies n floats as vectors of `vector_bytes` (4, 8 or 16) per lane, `unroll` vectors per thread.
/// REQUIRES: d_in and d_out are 16-byte aligned.
void launch_vector_copy(const float* d_in, float* d_out, std::uint64_t n, int vector_bytes, int unroll, int block,
                        cudaStream_t stream);

/// Copies n floats as float4 with a grid-stride loop over `grid` blocks, `unroll` vectors per pass.
/// REQUIRES: d_in and d_out are 16-byte aligned; grid >= 1; unroll is one of `unrolls`.
void launch_grid_stride_copy(const float* d_in, float* d_out, std::uint64_t n, copy_hint hint, int unroll, int grid,
                             int block, cudaStream_t stream);

/// How many blocks of `block` threads of the grid-stride copy fit on one SM at once (occupancy).
int grid_stride_blocks_per_sm(int block);

/// Fills d_in[0, n) with random floats in [-1, 1) (cudalab::random_stream(seed, 0)), as bit patterns.
void fill_input(std::uint32_t* d_in, std::uint64_t n, std::uint64_t seed, cudaStream_t stream);

/// Where each output element of a variant comes from: what verify() expects.
enum class movement {
  copy,           ///< out[i] = in[i] for every i
  read_shifted,   ///< out[i] = in[i + offset] for i < count
  write_shifted,  ///< out[i + offset] = in[i] for i < count
  both_shifted,   ///< out[i + offset] = in[i + offset] for i < count
  strided,        ///< out[i] = in[i * stride] for i < count
};

/// Compares every element of d_out[0, n) on the GPU, as bit patterns, with what `how` moves from d_in
/// (`count` elements; `offset` and `stride` as the variants use them); elements nothing moves must
/// hold `poison`.
cudalab::verification compare_moved(const std::uint32_t* d_out, const std::uint32_t* d_in, std::uint64_t n,
                                    movement how, std::uint64_t count, std::uint64_t offset, std::uint64_t stride,
                                    std::uint32_t poison, cudaStream_t stream);

/// Feeds the warp accesses of the variant `v` does at the point `s` to the access model
/// (alignment_trace.cpp); a library copy records nothing.
void trace_variant(const policy& v, const settings& s, cudalab::trace_sink& sink);

}  // namespace alignment
