// What the bank-conflict micro-lab's files share: a point's settings and the table that declares and reads
// them, the launcher (the only door to its kernel) and the trace of a read width.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cudalab/param_table.hpp"
#include "cudalab/trace.hpp"

namespace bank_conflicts {

/// The parameters of one point.
struct settings {
  unsigned stride, iterations, blocks, threads;
};

using settings_table = cudalab::param_table<settings>;

/// The lab's parameters, each said once: spec() lists them, read() gives a point's settings.
inline const settings_table parameters = {
    settings_table::integer(&settings::stride, "stride", 1, 1, 64, "elements",
                            "distance between neighbouring lanes' elements (4-byte words for read_4b)"),
    settings_table::integer(&settings::iterations, "iterations", 4096, 1, 16384, "reads", "shared reads per thread"),
    settings_table::integer(&settings::blocks, "blocks", 1056, 1, 1 << 20, "blocks",
                            "blocks in the grid (8 per H100 SM)"),
    settings_table::integer(&settings::threads, "threads", 256, 32, 1024, "threads",
                            "threads per block, a multiple of 32")
        .multiple(32),
};

/// 4-byte words in one element of a `width_bytes`-wide read.
inline unsigned words_per_element(unsigned width_bytes) { return width_bytes / 4; }

/// Enqueues strided_shared_read_kernel with `width_bytes`-wide reads: `blocks` blocks of `threads`
/// threads; thread t of the grid writes its sum to d_out[t].
/// REQUIRES: width_bytes one of read_widths; threads a multiple of 32; d_words holds 32 * stride *
/// width_bytes / 4 words; d_out holds blocks * threads words.
void launch_strided_read(unsigned width_bytes, const unsigned* d_words, unsigned* d_out, unsigned stride,
                         unsigned iterations, unsigned blocks, unsigned threads, cudaStream_t stream);

/// Feeds the warp accesses of the kernel reading `width_bytes`-wide elements at the point `s` to the
/// access model (bank_conflicts_trace.cpp).
void trace_read(unsigned width_bytes, const settings& s, cudalab::trace_sink& sink);

}  // namespace bank_conflicts
