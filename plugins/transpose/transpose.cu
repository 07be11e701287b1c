// Launchers of the transpose lab's kernels: pick the compile-time rows per thread, launch, check.
#include "transpose.hpp"

#include <stdexcept>
#include <string>

#include "cudalab/cuda_error.hpp"
#include "transpose_kernels.cuh"

namespace transpose {

namespace {

template <unsigned block_rows>
void launch_with(kernel k, const float* d_in, float* d_out, unsigned rows, unsigned cols, cudaStream_t stream) {
  const dim3 block(tile_dim, block_rows);
  const unsigned grid = blocks_for(k, rows, cols);
  switch (k) {
    case kernel::copy_tile:
      copy_tile_kernel<block_rows><<<grid, block, 0, stream>>>(d_in, d_out, rows, cols);
      break;
    case kernel::copy_shared:
      copy_shared_kernel<block_rows><<<grid, block, 0, stream>>>(d_in, d_out, rows, cols);
      break;
    case kernel::naive_row:
      transpose_naive_row_kernel<block_rows><<<grid, block, 0, stream>>>(d_in, d_out, rows, cols);
      break;
    case kernel::naive_col:
      transpose_naive_col_kernel<block_rows><<<grid, block, 0, stream>>>(d_in, d_out, rows, cols);
      break;
    case kernel::tile:
      transpose_tile_kernel<block_rows><<<grid, block, 0, stream>>>(d_in, d_out, rows, cols);
      break;
    case kernel::padded:
      transpose_padded_kernel<block_rows><<<grid, block, 0, stream>>>(d_in, d_out, rows, cols);
      break;
    case kernel::swizzled:
      transpose_swizzled_kernel<block_rows><<<grid, block, 0, stream>>>(d_in, d_out, rows, cols);
      break;
    case kernel::diagonal:
      transpose_diagonal_kernel<block_rows><<<grid, block, 0, stream>>>(d_in, d_out, rows, cols);
      break;
  }
  CUDALAB_CHECK_LAUNCH();
}

}  // namespace

unsigned blocks_for(kernel, unsigned rows, unsigned cols) { return tiles_along(rows) * tiles_along(cols); }

void launch(kernel k, const float* d_in, float* d_out, unsigned rows, unsigned cols, unsigned block_rows,
            cudaStream_t stream) {
  if (rows == 0 || cols == 0) return;
  switch (block_rows) {
    case 1: return launch_with<1>(k, d_in, d_out, rows, cols, stream);
    case 2: return launch_with<2>(k, d_in, d_out, rows, cols, stream);
    case 4: return launch_with<4>(k, d_in, d_out, rows, cols, stream);
    case 8: return launch_with<8>(k, d_in, d_out, rows, cols, stream);
    case 16: return launch_with<16>(k, d_in, d_out, rows, cols, stream);
    case 32: return launch_with<32>(k, d_in, d_out, rows, cols, stream);
    default: throw std::invalid_argument("transpose: block_rows must divide 32, not " + std::to_string(block_rows));
  }
}

}  // namespace transpose
