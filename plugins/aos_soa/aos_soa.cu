// Launchers of the aos_soa lab's kernels: pick the record type, size the grid, launch, check.
#include "aos_soa.hpp"

#include "aos_soa_kernels.cuh"
#include "cudalab/cuda_error.hpp"

namespace aos_soa {

namespace {
unsigned grid_for(std::uint64_t threads, int block) { return static_cast<unsigned>((threads + block - 1) / block); }
}  // namespace

void launch_record_copy(const void* d_in, void* d_out, std::uint64_t bytes, int block, cudaStream_t stream) {
  record_copy_kernel<<<grid_for((bytes + 15) / 16, block), block, 0, stream>>>(static_cast<const unsigned*>(d_in),
                                                                               static_cast<unsigned*>(d_out), bytes);
  CUDALAB_CHECK_LAUNCH();
}

void launch_aos_update_all(record_shape shape, const void* d_in, void* d_out, std::uint64_t n, int block,
                           cudaStream_t stream) {
  with_record(shape, [&](auto tag) {
    using S = typename decltype(tag)::type;
    aos_update_all_kernel<S>
        <<<grid_for(n, block), block, 0, stream>>>(static_cast<const S*>(d_in), static_cast<S*>(d_out), n);
    CUDALAB_CHECK_LAUNCH();
  });
}

void launch_aos_update_all_aligned(record_shape shape, const void* d_in, void* d_out, std::uint64_t n, int block,
                                   cudaStream_t stream) {
  with_record(shape, [&](auto tag) {
    using S = typename decltype(tag)::type;
    using A = aligned_record<S>;
    aos_update_all_aligned_kernel<S>
        <<<grid_for(n, block), block, 0, stream>>>(static_cast<const A*>(d_in), static_cast<A*>(d_out), n);
    CUDALAB_CHECK_LAUNCH();
  });
}

void launch_aos_update_one(record_shape shape, const void* d_in, void* d_out, std::uint64_t n, int field, int block,
                           cudaStream_t stream) {
  with_record(shape, [&](auto tag) {
    using S = typename decltype(tag)::type;
    aos_update_one_kernel<S>
        <<<grid_for(n, block), block, 0, stream>>>(static_cast<const S*>(d_in), static_cast<S*>(d_out), n, field);
    CUDALAB_CHECK_LAUNCH();
  });
}

void launch_soa_update_all(record_shape shape, soa_const_arrays d_in, soa_arrays d_out, std::uint64_t n, int block,
                           cudaStream_t stream) {
  with_record(shape, [&](auto tag) {
    using S = typename decltype(tag)::type;
    soa_update_all_kernel<S><<<grid_for((n + soa_group - 1) / soa_group, block), block, 0, stream>>>(d_in, d_out, n);
    CUDALAB_CHECK_LAUNCH();
  });
}

void launch_soa_update_one(record_shape shape, soa_const_arrays d_in, soa_arrays d_out, std::uint64_t n, int field,
                           int block, cudaStream_t stream) {
  const unsigned grid = grid_for((n + soa_group - 1) / soa_group, block);
  const bool is_double = with_record(shape, [&](auto tag) {
    using S = typename decltype(tag)::type;
    return record_traits<S>::size(field) == 8;
  });
  if (is_double)
    soa_update_one_kernel<double><<<grid, block, 0, stream>>>(static_cast<const double*>(d_in.field[field]),
                                                              static_cast<double*>(d_out.field[field]), n);
  else
    soa_update_one_kernel<float><<<grid, block, 0, stream>>>(static_cast<const float*>(d_in.field[field]),
                                                             static_cast<float*>(d_out.field[field]), n);
  CUDALAB_CHECK_LAUNCH();
}

void launch_aos_to_soa(record_shape shape, const void* d_in, soa_arrays d_out, std::uint64_t n, int block,
                       cudaStream_t stream) {
  with_record(shape, [&](auto tag) {
    using S = typename decltype(tag)::type;
    const std::size_t shared_bytes = std::size_t(block) * sizeof(S);
    aos_to_soa_kernel<S><<<grid_for(n, block), block, shared_bytes, stream>>>(static_cast<const S*>(d_in), d_out, n);
    CUDALAB_CHECK_LAUNCH();
  });
}

void launch_soa_to_aos(record_shape shape, soa_const_arrays d_in, void* d_out, std::uint64_t n, int block,
                       cudaStream_t stream) {
  with_record(shape, [&](auto tag) {
    using S = typename decltype(tag)::type;
    const std::size_t shared_bytes = std::size_t(block) * sizeof(S);
    soa_to_aos_kernel<S><<<grid_for(n, block), block, shared_bytes, stream>>>(d_in, static_cast<S*>(d_out), n);
    CUDALAB_CHECK_LAUNCH();
  });
}

}  // namespace aos_soa
