// Launcher of the bank-conflict micro-lab: picks the read width, sizes the shared buffer, launches, checks.
#include "bank_conflicts.hpp"

#include <stdexcept>
#include <string>

#include "bank_conflicts_kernels.cuh"
#include "cudalab/cuda_error.hpp"

namespace bank_conflicts {

void launch_strided_read(unsigned width_bytes, const unsigned* d_words, unsigned* d_out, unsigned stride,
                         unsigned iterations, unsigned blocks, unsigned threads, cudaStream_t stream) {
  if (blocks == 0) return;
  const std::size_t shared_bytes = std::size_t(shared_elements(stride)) * width_bytes;
  switch (width_bytes) {
    case 4:
      strided_shared_read_kernel<unsigned><<<blocks, threads, shared_bytes, stream>>>(d_words, d_out, stride, iterations);
      break;
    case 8:
      strided_shared_read_kernel<uint2><<<blocks, threads, shared_bytes, stream>>>(d_words, d_out, stride, iterations);
      break;
    case 16:
      strided_shared_read_kernel<uint4><<<blocks, threads, shared_bytes, stream>>>(d_words, d_out, stride, iterations);
      break;
    default:
      throw std::invalid_argument("bank_conflicts: read width must be 4, 8 or 16 bytes, not " +
                                  std::to_string(width_bytes));
  }
  CUDALAB_CHECK_LAUNCH();
}

}  // namespace bank_conflicts
