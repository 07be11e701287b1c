// Host-side declarations of the aos_soa lab: its launchers (the only door to its kernels), the record
// layout in numbers, and the trace of each kernel for the access model.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "aos_soa_kernels.cuh"
#include "cudalab/param.hpp"
#include "cudalab/trace.hpp"

namespace aos_soa {

/// Which kernel a variant launches.
enum class kernel { copy, aos_all, aos_all_aligned, aos_one, soa_all, soa_one, aos_to_soa, soa_to_aos };

/// Where each field of a record shape lies, in the three layouts.
struct layout {
  int fields = 0;
  unsigned record_bytes = 0;   ///< sizeof the natural record
  unsigned aligned_bytes = 0;  ///< sizeof aligned_record<>
  unsigned vector_bytes = 0;   ///< width of the aligned record's vector loads
  unsigned payload_bytes = 0;  ///< sum of the field sizes (no padding)
  unsigned offset[max_fields] = {};
  unsigned size[max_fields] = {};
};

/// The layout of the record type `shape` names.
inline layout layout_of(record_shape shape) {
  return with_record(shape, [](auto tag) {
    using S = typename decltype(tag)::type;
    using traits = record_traits<S>;
    layout l;
    l.fields = traits::fields;
    l.record_bytes = sizeof(S);
    l.aligned_bytes = sizeof(aligned_record<S>);
    l.vector_bytes = alignof(aligned_record<S>);
    for (int k = 0; k < traits::fields; ++k) {
      l.offset[k] = traits::offset(k);
      l.size[k] = traits::size(k);
      l.payload_bytes += l.size[k];
    }
    return l;
  });
}

/// Byte offset of each field array in the SoA allocation, and the allocation's size.
struct soa_offsets {
  std::uint64_t start[max_fields] = {};
  std::uint64_t bytes = 0;
};

/// Field arrays of n elements one after another, each starting on a 256-byte boundary.
inline soa_offsets soa_offsets_of(const layout& l, std::uint64_t n) {
  soa_offsets o;
  for (int k = 0; k < l.fields; ++k) {
    o.start[k] = o.bytes;
    o.bytes += soa_array_bytes(n, l.size[k]);
  }
  return o;
}

/// The parameters of one point, read once, and the layout they give.
struct settings {
  record_shape shape;
  layout l;
  std::uint64_t n;
  int field;
  int block;
  soa_offsets soa;
  explicit settings(const cudalab::params& p)
      : shape{p.choice("record") == "mixed", static_cast<int>(p.integer("fields"))},
        l(layout_of(shape)),
        n(static_cast<std::uint64_t>(p.integer("n"))),
        field(static_cast<int>(p.integer("field"))),
        block(static_cast<int>(p.integer("block"))),
        soa(soa_offsets_of(l, n)) {}
};

/// Feeds the warp accesses of kernel `k` at point `s` to the access model (aos_soa_trace.cpp).
void trace_kernel(kernel k, const settings& s, cudalab::trace_sink& sink);

// Every launcher REQUIRES n >= 1 (the n parameter's minimum) and enqueues one launch on `stream`.

/// Copies `bytes` bytes (REQUIRES: a multiple of 4) from d_in to d_out, 16 bytes per thread.
void launch_record_copy(const void* d_in, void* d_out, std::uint64_t bytes, int block, cudaStream_t stream);

/// Updates every field of n records of `shape` (natural alignment), one record per thread.
void launch_aos_update_all(record_shape shape, const void* d_in, void* d_out, std::uint64_t n, int block,
                           cudaStream_t stream);

/// Updates every field of n aligned_record<> records of `shape` with vector loads and stores.
void launch_aos_update_all_aligned(record_shape shape, const void* d_in, void* d_out, std::uint64_t n, int block,
                                   cudaStream_t stream);

/// Updates field `field` of n records of `shape`. REQUIRES: 0 <= field < shape.fields.
void launch_aos_update_one(record_shape shape, const void* d_in, void* d_out, std::uint64_t n, int field, int block,
                           cudaStream_t stream);

/// Updates every field array of an SoA of n elements, soa_group elements per thread.
void launch_soa_update_all(record_shape shape, soa_const_arrays d_in, soa_arrays d_out, std::uint64_t n, int block,
                           cudaStream_t stream);

/// Updates field array `field` of an SoA of n elements. REQUIRES: 0 <= field < shape.fields.
void launch_soa_update_one(record_shape shape, soa_const_arrays d_in, soa_arrays d_out, std::uint64_t n, int field,
                           int block, cudaStream_t stream);

/// Converts n records (natural alignment) to field arrays through shared memory.
/// REQUIRES: block is a multiple of 32.
void launch_aos_to_soa(record_shape shape, const void* d_in, soa_arrays d_out, std::uint64_t n, int block,
                       cudaStream_t stream);

/// Converts field arrays of n elements to records (natural alignment) through shared memory.
/// REQUIRES: block is a multiple of 32.
void launch_soa_to_aos(record_shape shape, soa_const_arrays d_in, void* d_out, std::uint64_t n, int block,
                       cudaStream_t stream);

}  // namespace aos_soa
