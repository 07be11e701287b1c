// The transpose lab's model side: the warp accesses of a launch, tile by tile, for the access model.
#include "cudalab/trace_tiles.hpp"
#include "transpose.hpp"
#include "transpose_kernels.cuh"

namespace transpose {

namespace {

bool stages_in_shared(kernel k) { return k != kernel::copy_tile && k != kernel::naive_row && k != kernel::naive_col; }

/// Word index of (r, c) in the shared tile `k` uses.
unsigned shared_index(kernel k, unsigned r, unsigned c) {
  switch (k) {
    case kernel::padded:
    case kernel::diagonal:
    case kernel::hinted:
      return padded_tile_index(r, c);
    case kernel::swizzled:
      return swizzled_tile_index(r, c);
    default:
      return plain_tile_index(r, c);
  }
}

/// Emits the accesses of warp `warp` (threadIdx.y) of the block that works on the strip at `t` (for
/// naive_col, a strip of the output), row by row (the kernels issue all of a thread's loads first;
/// the model counts each request alone, so the order does not matter).
void trace_warp(kernel k, unsigned rows, unsigned cols, unsigned block_rows, unsigned strip, tile_origin t,
                unsigned warp, cudalab::trace_sink& sink) {
  using cudalab::access_kind;
  using cudalab::memory_space;
  const unsigned strip_rows = strip * tile_dim;
  constexpr long long word = sizeof(float);
  // Input rows: lane reads (row0 + j, col0 + lane); the same offset addresses the copy's output.
  auto row_walk = [&](unsigned j) {
    return [=](unsigned lane) -> long long {
      const unsigned y = t.row0 + j, x = t.col0 + lane;
      return y < rows && x < cols ? static_cast<long long>(element_offset(y, x, cols)) * word : -1;
    };
  };
  for (unsigned j = warp; j < strip_rows; j += block_rows) {
    if (k == kernel::naive_col) {
      auto valid = [=](unsigned lane) { return t.row0 + j < cols && t.col0 + lane < rows; };
      sink.warp(memory_space::global, access_kind::load, 4, [=](unsigned lane) -> long long {
        return valid(lane) ? static_cast<long long>(element_offset(t.col0 + lane, t.row0 + j, cols)) * word : -1;
      });
      sink.warp(memory_space::global, access_kind::store, 4, [=](unsigned lane) -> long long {
        return valid(lane) ? static_cast<long long>(element_offset(t.row0 + j, t.col0 + lane, rows)) * word : -1;
      });
      continue;
    }
    sink.warp(memory_space::global, access_kind::load, 4, row_walk(j));
    if (k == kernel::copy_tile) {
      sink.warp(memory_space::global, access_kind::store, 4, row_walk(j));
    } else if (k == kernel::naive_row) {
      sink.warp(memory_space::global, access_kind::store, 4, [=](unsigned lane) -> long long {
        const unsigned y = t.row0 + j, x = t.col0 + lane;
        return y < rows && x < cols ? static_cast<long long>(element_offset(x, y, rows)) * word : -1;
      });
    } else {
      sink.warp(memory_space::shared, access_kind::store, 4, [=](unsigned lane) -> long long {
        return row_walk(j)(lane) < 0 ? -1 : static_cast<long long>(shared_index(k, j, lane)) * word;
      });
    }
  }
  if (!stages_in_shared(k)) return;
  for (unsigned j = warp; j < strip_rows; j += block_rows) {
    if (k == kernel::copy_shared) {
      sink.warp(memory_space::shared, access_kind::load, 4, [=](unsigned lane) -> long long {
        return row_walk(j)(lane) < 0 ? -1 : static_cast<long long>(shared_index(k, j, lane)) * word;
      });
      sink.warp(memory_space::global, access_kind::store, 4, row_walk(j));
      continue;
    }
    // Transposes: strip row j is column c = j % 32 of tile s = j / 32; lane writes output
    // (col0 + c, row0 + s * 32 + lane) from tile[s * 32 + lane][c], a tile column.
    const unsigned s = j / tile_dim, c = j % tile_dim;
    auto valid = [=](unsigned lane) { return t.col0 + c < cols && t.row0 + s * tile_dim + lane < rows; };
    sink.warp(memory_space::shared, access_kind::load, 4, [=](unsigned lane) -> long long {
      return valid(lane) ? static_cast<long long>(shared_index(k, s * tile_dim + lane, c)) * word : -1;
    });
    sink.warp(memory_space::global, access_kind::store, 4, [=](unsigned lane) -> long long {
      return valid(lane) ? static_cast<long long>(element_offset(t.col0 + c, t.row0 + s * tile_dim + lane, rows)) * word
                         : -1;
    });
  }
}

}  // namespace

cudalab::tile_grid tiles_of(const launch_shape& launch) {
  // x runs along the rows a block's lanes walk (the input's, or the output's for naive_col), y down them.
  const bool over_output = launch.k == kernel::naive_col;
  const unsigned width = over_output ? launch.rows : launch.cols, height = over_output ? launch.cols : launch.rows;
  cudalab::tile_grid grid;
  grid.extent = {width, height, 1};
  grid.tile = {tile_dim, launch.strip * tile_dim, 1};
  constexpr std::uint64_t word = sizeof(float);
  // The array whose rows x walks, and the other one, whose columns it walks: the transpose's output,
  // or naive_col's input. The copies write their input's layout.
  grid.strides = {cudalab::row_major_strides(grid.extent, word)};
  const bool copies = launch.k == kernel::copy_tile || launch.k == kernel::copy_shared;
  if (!copies) grid.strides.push_back({word * height, word, 0});
  return grid;
}

void trace_block(const launch_shape& launch, cudalab::tile_block b, cudalab::trace_sink& sink) {
  const tile_origin t{static_cast<unsigned>(b.y) * launch.strip * tile_dim, static_cast<unsigned>(b.x) * tile_dim};
  for (unsigned w = 0; w < launch.block_rows; ++w)
    trace_warp(launch.k, launch.rows, launch.cols, launch.block_rows, launch.strip, t, w, sink);
}

void trace_launch(const launch_shape& launch, cudalab::trace_sink& sink) {
  // Diagonal order visits the same tiles in another order: the same totals.
  cudalab::trace_tiles(sink, tiles_of(launch), [&](cudalab::tile_block b) { trace_block(launch, b, sink); });
}

}  // namespace transpose
