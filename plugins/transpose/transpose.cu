// Launchers of the transpose lab's kernels: pick the compile-time thread rows and strip, launch, check.
#include "transpose.hpp"

#include "cudalab/cuda_error.hpp"
#include "cudalab/device_compare.cuh"
#include "cudalab/device_fill.cuh"
#include "cudalab/dispatch.hpp"
#include "cudalab/random.hpp"
#include "transpose_kernels.cuh"

namespace transpose {

namespace {

template <unsigned block_rows, unsigned strip>
void launch_with(kernel k, const float* d_in, float* d_out, unsigned rows, unsigned cols, cudaStream_t stream) {
  const dim3 block(tile_dim, block_rows);
  const unsigned grid = blocks_for(k, rows, cols, strip);
  switch (k) {
    case kernel::copy_tile:
      copy_tile_kernel<block_rows, strip><<<grid, block, 0, stream>>>(d_in, d_out, rows, cols);
      break;
    case kernel::copy_shared:
      copy_shared_kernel<block_rows, strip><<<grid, block, 0, stream>>>(d_in, d_out, rows, cols);
      break;
    case kernel::naive_row:
      transpose_naive_row_kernel<block_rows, strip><<<grid, block, 0, stream>>>(d_in, d_out, rows, cols);
      break;
    case kernel::naive_col:
      transpose_naive_col_kernel<block_rows, strip><<<grid, block, 0, stream>>>(d_in, d_out, rows, cols);
      break;
    case kernel::tile:
      transpose_tile_kernel<block_rows, strip><<<grid, block, 0, stream>>>(d_in, d_out, rows, cols);
      break;
    case kernel::padded:
      transpose_padded_kernel<block_rows, strip><<<grid, block, 0, stream>>>(d_in, d_out, rows, cols);
      break;
    case kernel::swizzled:
      transpose_swizzled_kernel<block_rows, strip><<<grid, block, 0, stream>>>(d_in, d_out, rows, cols);
      break;
    case kernel::diagonal:
      transpose_diagonal_kernel<block_rows, strip><<<grid, block, 0, stream>>>(d_in, d_out, rows, cols);
      break;
    case kernel::hinted:
      transpose_hinted_kernel<block_rows, strip><<<grid, block, 0, stream>>>(d_in, d_out, rows, cols);
      break;
  }
  CUDALAB_CHECK_LAUNCH();
}

/// The input: random whole numbers in [0, 2^24), exact in float.
struct random_input {
  cudalab::random_stream s;
  __device__ float operator()(std::uint64_t i) const { return static_cast<float>(s.bits(i) >> 40); }
};

/// What output element i holds after a correct run: for a transpose, output (i / rows, i % rows) is
/// input (i % rows, i / rows); for a copy, input element i.
struct expected_output {
  const float* in;
  unsigned rows, cols;
  bool transposes;

  __device__ float operator()(std::uint64_t i) const {
    if (!transposes) return in[i];
    const auto out_row = static_cast<unsigned>(i / rows), out_col = static_cast<unsigned>(i % rows);
    return in[element_offset(out_col, out_row, cols)];
  }
};

}  // namespace

unsigned blocks_for(kernel k, unsigned rows, unsigned cols, unsigned strip) {
  // naive_col's blocks walk the output (cols x rows); every other kernel's walk the input.
  if (k == kernel::naive_col) return tiles_along(rows) * strips_along(cols, strip);
  return tiles_along(cols) * strips_along(rows, strip);
}

void launch(kernel k, const float* d_in, float* d_out, unsigned rows, unsigned cols, unsigned block_rows,
            unsigned strip, cudaStream_t stream) {
  if (rows == 0 || cols == 0) return;
  cudalab::dispatch(block_rows_choices{}, block_rows, "block_rows", [&](auto br) {
    cudalab::dispatch(strip_choices{}, strip, "strip",
                      [&](auto st) { launch_with<br, st>(k, d_in, d_out, rows, cols, stream); });
  });
}

void fill_input(float* d_in, std::uint64_t n, std::uint64_t seed, cudaStream_t stream) {
  cudalab::fill_on_device(d_in, n, random_input{cudalab::random_stream(seed, 0)}, stream);
}

cudalab::verification compare_output(const float* d_out, const float* d_in, unsigned rows, unsigned cols,
                                     bool transposes, cudaStream_t stream) {
  return cudalab::compare_exact_on_device(d_out, std::uint64_t(rows) * cols,
                                          expected_output{d_in, rows, cols, transposes}, stream);
}

}  // namespace transpose
