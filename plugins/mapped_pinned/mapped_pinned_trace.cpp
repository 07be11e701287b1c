// The mapped_pinned lab's model side: the warp accesses of its add kernels, for the access model.
#include <cstdint>

#include "cudalab/trace_loops.hpp"
#include "mapped_pinned.hpp"
#include "mapped_pinned_kernels.cuh"

namespace mapped_pinned {

namespace {

/// Traces one add_unrolled_kernel launch over `n` elements. Whatever the block, grid and unroll
/// factor, each warp load and store of the kernel covers one aligned run of 32 elements (add_index:
/// tiles and their slots start at multiples of the block), and every run is covered once: the warp
/// steps of trace_warp_steps.
void trace_add_launch(cudalab::trace_sink& sink, std::uint64_t n) {
  cudalab::trace_warp_steps(sink, n, [&](std::uint64_t first, unsigned lanes) {
    auto address = [&](unsigned lane) -> long long {
      return lane < lanes ? static_cast<long long>((first + lane) * sizeof(int)) : -1;
    };
    sink.warp(cudalab::memory_space::global, cudalab::access_kind::load, 4, address);
    sink.warp(cudalab::memory_space::global, cudalab::access_kind::store, 4, address);
  });
}

/// Traces one add_strided_kernel launch: a grid-stride loop over the cells of the rows x stride
/// matrix, lane l of a warp step on cell first + l, which is element strided_index() (none past n).
void trace_strided_launch(cudalab::trace_sink& sink, std::uint64_t n, std::uint64_t stride) {
  const std::uint64_t rows = strided_rows(n, stride);
  cudalab::trace_warp_steps(sink, rows * stride, [&](std::uint64_t first, unsigned lanes) {
    auto address = [&](unsigned lane) -> long long {
      const std::uint64_t i = strided_index(first + lane, rows, stride);
      return lane < lanes && i < n ? static_cast<long long>(i * sizeof(int)) : -1;
    };
    sink.warp(cudalab::memory_space::global, cudalab::access_kind::load, 4, address);
    sink.warp(cudalab::memory_space::global, cudalab::access_kind::store, 4, address);
  });
}

}  // namespace

void trace_variant(const policy& v, const settings& s, cudalab::trace_sink& sink) {
  // Only the add kernels are traced. All the streams variant's chunks but the last are whole multiples
  // of 32 elements (chunk_elements), so the warp steps of its launches, one per chunk, are those of one
  // launch over all n elements.
  if (v.via == way::mapped_strided) return trace_strided_launch(sink, s.n, s.stride);
  trace_add_launch(sink, s.n);
}

}  // namespace mapped_pinned
