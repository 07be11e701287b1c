// The transpose lab: coalescing a matrix transpose through shared memory, and the bank conflicts it risks.
#include <stdexcept>
#include <string>
#include <utility>

#include "cudalab/lab.hpp"
#include "cudalab/plugin.hpp"
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

/// One sweep point: the input (made on the GPU from the seed) and the output; verify() compares every
/// output element on the GPU with the input moved where it belongs. Only rows and cols shape the data:
/// block_rows is a tuning parameter (retune()). Its destructor frees the buffers.
class transpose_point final : public cudalab::lab_point {
 public:
  transpose_point(const settings& shape, cudalab::session& s)
      : rows_(shape.rows), cols_(shape.cols), block_rows_(shape.block_rows) {
    const std::size_t n = std::size_t(rows_) * cols_;
    d_in_ = cudalab::device_buffer<float>(n);
    fill_input(d_in_.data(), n, s.seed(), s.stream());
    s.register_input(d_in_.data(), d_in_.bytes(), cudalab::memory_kind::device);
    d_out_ = s.output<float>(n);
  }

  void retune(const cudalab::params& p) override { block_rows_ = parameters.read(p).block_rows; }

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
    s.params = parameters.specs();
    s.variants = variants.specs();
    s.baseline = "copy";
    s.slots = {{"transpose_tile", cudalab::slot_kind::kernel, "padded",
                "transpose through a conflict-free shared 32x32 tile, partial edge tiles included (32 x 8 threads "
                "per tile)",
                "transpose_tile", "transpose_tile.cu", cudalab_slot_source::transpose_tile_cu}};
    return s;
  }

  void check_params(const cudalab::params& p) const override {
    const settings s = parameters.read(p);
    if (std::uint64_t(s.rows) * s.cols > (std::uint64_t(1) << 32))
      throw std::invalid_argument("rows * cols must be at most 2^32 elements");
  }

  cudalab::requirements requirements_of(const cudalab::params& p) const override {
    const settings s = parameters.read(p);
    const std::uint64_t bytes = std::uint64_t(s.rows) * s.cols * sizeof(float);
    return {2 * bytes, 0, 0};  // device: input, output; inputs are made and outputs checked on the GPU
  }

  cudalab::traffic traffic_of(const cudalab::params& p, cudalab::variant_index) const override {
    const settings s = parameters.read(p);
    const std::uint64_t bytes = std::uint64_t(s.rows) * s.cols * sizeof(float);
    return {bytes, bytes, cudalab::memory_path::device};
  }

  void trace(const cudalab::params& p, cudalab::variant_index v, const cudalab::lab_context&,
             cudalab::trace_sink& sink) const override {
    const plan& pl = variants[v];
    if (pl.library_copy) return;  // a library copy: nothing to model
    const settings s = parameters.read(p);
    trace_launch({pl.k, s.rows, s.cols, block_rows_of(pl, s.block_rows), pl.strip}, sink);
  }

  std::unique_ptr<cudalab::lab_point> setup(const cudalab::params& p, cudalab::session& s) const override {
    return std::make_unique<transpose_point>(parameters.read(p), s);
  }
};

}  // namespace transpose

CUDALAB_REGISTER_LAB(transpose::transpose_lab)
