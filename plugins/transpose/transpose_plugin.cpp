// The transpose lab: coalescing a matrix transpose through shared memory, and the bank conflicts it risks.
#include <stdexcept>
#include <string>
#include <utility>

#include "cudalab/lab.hpp"
#include "cudalab/plugin.hpp"
#include "cudalab/trace_loops.hpp"
#include "cudalab/variant_table.hpp"
#include "transpose.hpp"
#include "transpose_kernels.cuh"
#include "transpose_slot_sources.hpp"

namespace transpose {

namespace {

/// How a variant runs: which kernel (none for the library copy), how many thread rows its blocks
/// have (0: the lab's block_rows parameter), how many stacked tiles a block moves, and whether its
/// output is a copy or a transpose.
struct plan {
  bool library_copy;
  kernel k;
  unsigned fixed_block_rows;
  unsigned strip;
  bool transposes;
};

const cudalab::variant_table<plan> variants = {
    {"copy",
     "tile copy, rows in and rows out, same strips and geometry as padded_rows (the ceiling)",
     {false, kernel::copy_tile, 0, tuned_strip, false}},
    {"copy_shared",
     "tile copy staged through shared memory, rows in and rows out",
     {false, kernel::copy_shared, 0, tuned_strip, false}},
    {"memcpy", "cudaMemcpyAsync device to device (the device's copy ceiling)", {true, kernel::copy_tile, 0, 1, false}},
    {"naive_row",
     "read input rows (coalesced), write output columns (one sector per lane)",
     {false, kernel::naive_row, tile_dim, 1, true}},
    {"naive_col",
     "read input columns (one sector per lane), write output rows (coalesced)",
     {false, kernel::naive_col, tile_dim, 1, true}},
    {"tile",
     "shared tile[32][32], one element per thread: coalesced, but 32-way conflicts on the column read",
     {false, kernel::tile, tile_dim, 1, true}},
    {"padded",
     "shared tile[32][33], one element per thread: coalesced, no bank conflicts",
     {false, kernel::padded, tile_dim, 1, true}},
    {"swizzled",
     "shared tile[32][32] with column c ^ row: coalesced, no conflicts, no padding",
     {false, kernel::swizzled, tile_dim, 1, true}},
    {"padded_rows",
     "padded tiles, 32 x block_rows threads each moving 64/block_rows rows of a two-tile strip",
     {false, kernel::padded, 0, tuned_strip, true}},
    {"diagonal",
     "padded_rows with diagonal block order over the strips",
     {false, kernel::diagonal, 0, tuned_strip, true}},
    {"padded_hinted",
     "padded_rows with cache hints: loads prefetch 256 B into L2, stores evict first",
     {false, kernel::hinted, 0, tuned_strip, true}},
};

/// Thread rows of a block of the transpose_tile slot: 32 x 8 threads per 32x32 tile, each thread
/// moving four elements of it (the launch slots/transpose_tile.cu documents).
constexpr unsigned slot_block_rows = 8;

/// The thread rows of a block of `pl` when the block_rows parameter is `param`.
unsigned block_rows_of(const plan& pl, unsigned param) {
  return pl.fixed_block_rows != 0 ? pl.fixed_block_rows : param;
}

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

/// The grid of strips a launch of `k` covers, as (strip rows, tile columns): strips of `strip` stacked
/// tiles of the input, or of the output (cols x rows) for naive_col. blocks_for() is their product.
std::pair<unsigned, unsigned> strip_grid(kernel k, unsigned rows, unsigned cols, unsigned strip) {
  if (k == kernel::naive_col) return {strips_along(cols, strip), tiles_along(rows)};
  return {strips_along(rows, strip), tiles_along(cols)};
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

/// One sweep point: the input (made on the GPU from the seed) and the output; verify() compares every
/// output element on the GPU with the input moved where it belongs. Only rows and cols shape the data:
/// block_rows is a tuning parameter (retune()). Its destructor frees the buffers.
class transpose_point final : public cudalab::lab_point {
 public:
  transpose_point(const cudalab::params& p, cudalab::session& s)
      : rows_(static_cast<unsigned>(p.integer("rows"))),
        cols_(static_cast<unsigned>(p.integer("cols"))),
        block_rows_(static_cast<unsigned>(p.integer("block_rows"))) {
    const std::size_t n = std::size_t(rows_) * cols_;
    d_in_ = cudalab::device_buffer<float>(n);
    fill_input(d_in_.data(), n, s.seed(), s.stream());
    s.register_input(d_in_.data(), d_in_.bytes(), cudalab::memory_kind::device);
    d_out_ = s.output<float>(n);
  }

  void retune(const cudalab::params& p) override { block_rows_ = static_cast<unsigned>(p.integer("block_rows")); }

  void run(cudalab::variant_index v, cudaStream_t stream) override {
    const plan& pl = variants[v];
    if (pl.library_copy) {
      CUDALAB_CUDA_CHECK(cudaMemcpyAsync(d_out_.data(), d_in_.data(), d_in_.bytes(), cudaMemcpyDeviceToDevice, stream));
      return;
    }
    launch(pl.k, d_in_.data(), d_out_.data(), rows_, cols_, block_rows_of(pl, block_rows_), pl.strip, stream);
  }

  // Slot transpose_tile (padded's job): a 2-D grid of one block per tile, 32 x slot_block_rows threads.
  void run_slot(const std::string&, const cudalab::slot_code& code, cudaStream_t stream) override {
    const float* in = d_in_.data();
    float* out = d_out_.data();
    unsigned rows = rows_, cols = cols_;
    void* args[] = {&in, &out, &rows, &cols};
    code.launch(dim3(tiles_along(cols_), tiles_along(rows_)), dim3(tile_dim, slot_block_rows), 0, stream, args);
  }

  cudalab::verification verify(cudalab::variant_index v, const cudalab::lab_context& ctx) override {
    const bool transposes = variants[v].transposes;
    cudalab::verification c = compare_output(d_out_.data(), d_in_.data(), rows_, cols_, transposes, ctx.stream);
    c.note = transposes ? "compared on the GPU with the input transposed; output is cols x rows; element i = row "
                          "i / rows, column i % rows"
                        : "compared on the GPU with the input";
    return c;
  }

 private:
  unsigned rows_, cols_, block_rows_;
  cudalab::device_buffer<float> d_in_, d_out_;
};

}  // namespace

class transpose_lab final : public cudalab::lab {
 public:
  cudalab::lab_spec spec() const override {
    cudalab::lab_spec s;
    s.name = "transpose";
    s.title = "Matrix transpose: coalescing through shared memory, and bank conflicts";
    s.summary =
        "Transposes a rows x cols float matrix. The naive kernels coalesce either their reads or their writes, "
        "never both; staging 32x32 tiles in shared memory coalesces both, but reading a tile column from a "
        "plain tile[32][32] puts all 32 lanes in one bank (32-way conflict). Padding the tile to [32][33] or "
        "XOR-swizzling its columns removes the conflicts. A tile copy with the same geometry is the ceiling.";
    s.params = {
        cudalab::param_spec::integer("rows", 16384, 1, std::int64_t(1) << 20, "elements", "rows of the input matrix"),
        cudalab::param_spec::integer("cols", 16384, 1, std::int64_t(1) << 20, "elements",
                                     "columns of the input matrix (row-major, floats)"),
        cudalab::param_spec::integer("block_rows", 8, 1, 32, "threads",
                                     "thread rows per 32-wide block for copy, copy_shared, padded_rows, "
                                     "diagonal and padded_hinted (each block moves a 64x32 strip of two "
                                     "tiles, each thread 64/block_rows rows of it); must divide 32")
            .only(block_rows_choices::values())
            .tunes(),
    };
    s.variants = variants.specs();
    s.baseline = "copy";
    s.slots = {{"transpose_tile", cudalab::slot_kind::kernel, "padded",
                "transpose through a conflict-free shared 32x32 tile, partial edge tiles included (32 x 8 threads "
                "per tile)",
                "transpose_tile", "transpose_tile.cu", cudalab_slot_source::transpose_tile_cu}};
    return s;
  }

  void check_params(const cudalab::params& p) const override {
    if (p.integer("rows") * p.integer("cols") > (std::int64_t(1) << 32))
      throw std::invalid_argument("rows * cols must be at most 2^32 elements");
  }

  cudalab::requirements requirements_of(const cudalab::params& p) const override {
    const auto bytes = static_cast<std::uint64_t>(p.integer("rows") * p.integer("cols")) * sizeof(float);
    return {2 * bytes, 0, 0};  // device: input, output; inputs are made and outputs checked on the GPU
  }

  cudalab::traffic traffic_of(const cudalab::params& p, cudalab::variant_index) const override {
    const auto bytes = static_cast<std::uint64_t>(p.integer("rows") * p.integer("cols")) * sizeof(float);
    return {bytes, bytes, cudalab::memory_path::device};
  }

  void trace(const cudalab::params& p, cudalab::variant_index v, const cudalab::lab_context&,
             cudalab::trace_sink& sink) const override {
    const plan& pl = variants[v];
    if (pl.library_copy) return;  // a library copy: nothing to model
    const auto rows = static_cast<unsigned>(p.integer("rows"));
    const auto cols = static_cast<unsigned>(p.integer("cols"));
    const unsigned block_rows = block_rows_of(pl, static_cast<unsigned>(p.integer("block_rows")));
    // Every block but those of the last strip row and the last tile column repeats block (0, 0)'s
    // pattern at an offset of whole 128-byte lines (strips start at multiples of 32 rows and columns,
    // so row y's start keeps its place in a line modulo 32 rows) in the same shared-memory words:
    // trace_grid traces the inner block, the two edges and the corner, each weighed by the blocks
    // it stands for. Diagonal order visits the same strips in another order: the same totals.
    const auto [strip_rows, tile_cols] = strip_grid(pl.k, rows, cols, pl.strip);
    cudalab::trace_grid(sink, strip_rows, tile_cols, [&](std::uint64_t r, std::uint64_t c) {
      const tile_origin t{static_cast<unsigned>(r) * pl.strip * tile_dim, static_cast<unsigned>(c) * tile_dim};
      for (unsigned w = 0; w < block_rows; ++w) trace_warp(pl.k, rows, cols, block_rows, pl.strip, t, w, sink);
    });
  }

  std::unique_ptr<cudalab::lab_point> setup(const cudalab::params& p, cudalab::session& s) const override {
    return std::make_unique<transpose_point>(p, s);
  }
};

}  // namespace transpose

CUDALAB_REGISTER_LAB(transpose::transpose_lab)
