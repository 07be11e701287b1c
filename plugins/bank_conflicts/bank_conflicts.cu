// Launcher of the bank-conflict micro-lab: picks the read width, sizes the shared buffer, launches, checks.
#include "bank_conflicts.hpp"

#include "bank_conflicts_kernels.cuh"
#include "cudalab/cuda_error.hpp"
#include "cudalab/dispatch.hpp"

namespace bank_conflicts {

void launch_strided_read(unsigned width_bytes, const unsigned* d_words, unsigned* d_out, unsigned stride,
                         unsigned iterations, unsigned blocks, unsigned threads, cudaStream_t stream) {
  if (blocks == 0) return;
  const std::size_t shared_bytes = std::size_t(shared_elements(stride)) * width_bytes;
  cudalab::dispatch(read_widths{}, width_bytes, "read width (bytes)", [&](auto width) {
    using word_t = typename word_of<width>::type;
    strided_shared_read_kernel<word_t><<<blocks, threads, shared_bytes, stream>>>(d_words, d_out, stride, iterations);
  });
  CUDALAB_CHECK_LAUNCH();
}

}  // namespace bank_conflicts
