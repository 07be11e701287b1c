// Host-side declaration of the bank-conflict micro-lab's launcher (the only door to its kernel).
#pragma once

#include <cuda_runtime_api.h>

namespace bank_conflicts {

/// Enqueues strided_shared_read_kernel with `width_bytes`-wide reads: `blocks` blocks of `threads`
/// threads; thread t of the grid writes its sum to d_out[t].
/// REQUIRES: width_bytes one of read_widths; threads a multiple of 32; d_words holds 32 * stride *
/// width_bytes / 4 words; d_out holds blocks * threads words.
void launch_strided_read(unsigned width_bytes, const unsigned* d_words, unsigned* d_out, unsigned stride,
                         unsigned iterations, unsigned blocks, unsigned threads, cudaStream_t stream);

}  // namespace bank_conflicts
