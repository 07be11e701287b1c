// What the mapped_pinned lab's files share: the ways its variants move data, a point's settings and the
// table that declares and reads them, the launchers (the only door to its kernels) and the trace.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cudalab/host_device.hpp"
#include "cudalab/param_table.hpp"
#include "cudalab/random.hpp"
#include "cudalab/trace.hpp"
#include "cudalab/verification.hpp"
#include "mapped_pinned_kernels.cuh"

namespace mapped_pinned {

/// How a variant moves its data between host and device.
enum class way { pageable, pinned, streams, mapped, registered, mapped_strided };

/// What a variant does: its way, and the unroll factor of its add kernel (0: the `unroll` parameter).
struct policy {
  way via;
  int unroll;
};

/// The parameters of one point.
struct settings {
  std::uint64_t n;
  int cycles, increment, unroll, streams;
  std::uint64_t chunks, stride;
  int block;
  /// The unroll factor of variant `v`'s add kernel.
  int unroll_of(const policy& v) const { return v.unroll != 0 ? v.unroll : unroll; }
};

using settings_table = cudalab::param_table<settings>;

/// The lab's parameters, each said once: spec() lists them, read() gives a point's settings. Only `n`
/// shapes the data; the others are tuning parameters (lab_point::retune).
inline const settings_table parameters = {
    settings_table::integer(&settings::n, "n", std::int64_t(1) << 25, 1, std::int64_t(1) << 33, "elements",
                            "ints in the input and in the output (each crosses the bus once)"),
    settings_table::integer(&settings::cycles, "cycles", 8, 0, 1 << 16, "adds",
                            "dependent adds per element (work per element)")
        .tunes(),
    settings_table::integer(&settings::increment, "increment", 1, -(std::int64_t(1) << 31), (std::int64_t(1) << 31) - 1,
                            "", "value added each cycle")
        .tunes(),
    settings_table::integer(&settings::unroll, "unroll", 4, 1, 4, "elements",
                            "unroll factor (" + unrolls::text() + ") of pageable, pinned, streams, registered")
        .only(unrolls::values())
        .tunes(),
    settings_table::integer(&settings::streams, "streams", 4, 1, 32, "streams",
                            "streams the streams variant spreads chunks over")
        .tunes(),
    settings_table::integer(&settings::chunks, "chunks", 16, 1, 4096, "chunks",
                            "pieces the streams variant cuts the data into (at least `streams`)")
        .tunes(),
    settings_table::integer(&settings::stride, "stride", 32, 1, 1 << 16, "elements",
                            "columns of mapped_strided's walk: lanes are n/stride elements apart")
        .tunes(),
    settings_table::integer(&settings::block, "block", 256, 32, 1024, "threads", "threads per block, whole warps")
        .multiple(32)
        .tunes(),
};

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

/// Feeds the warp accesses of the variant `v` does at the point `s` to the access model
/// (mapped_pinned_trace.cpp): its add kernels; its cudaMemcpy calls are library copies, not traced.
void trace_variant(const policy& v, const settings& s, cudalab::trace_sink& sink);

}  // namespace mapped_pinned
