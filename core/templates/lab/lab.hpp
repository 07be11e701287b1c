// What the @LAB@ lab's files share: a point's settings and the table that declares and reads them, the
// launchers (the only door to its kernels) and the trace of each kernel for the access model.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "@LAB@_kernels.cuh"
#include "cudalab/param_table.hpp"
#include "cudalab/trace.hpp"
#include "cudalab/verification.hpp"

namespace @LAB@ {

/// The kernel a variant launches.
enum class kernel { one_per_thread, vectors };

/// The parameters of one point.
struct settings {
  std::uint64_t n;  ///< floats in the input and in the output
  float factor;     ///< what every element is multiplied by
  int block;        ///< threads per block
  int unroll;       ///< vectors in flight per thread in scale_vec4
};

using settings_table = cudalab::param_table<settings>;

/// The lab's parameters, each said once: spec() lists them, read() gives a point's settings. Only `n`
/// shapes the data; the others are tuning parameters, which a point takes without a new setup (retune).
inline const settings_table parameters = {
    settings_table::integer(&settings::n, "n", std::int64_t(1) << 26, 1, std::int64_t(1) << 31, "elements",
                            "floats in the input and in the output"),
    settings_table::real(&settings::factor, "factor", 2.5, -1e6, 1e6, "", "what every element is multiplied by")
        .tunes(),
    settings_table::integer(&settings::block, "block", 256, 32, 1024, "threads", "threads per block, whole warps")
        .multiple(32)
        .tunes(),
    settings_table::integer(&settings::unroll, "unroll", 1, 1, 4, "vectors",
                            "vectors in flight per thread in scale_vec4")
        .only(unrolls::values())
        .tunes(),
};

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

/// Feeds the warp accesses of kernel `k` at the point `s` to the access model (@LAB@_trace.cpp).
void trace_kernel(kernel k, const settings& s, cudalab::trace_sink& sink);

}  // namespace @LAB@
