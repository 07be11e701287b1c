// Launchers of the aos_soa lab's kernels: pick the record type, size the grid, launch, check.
#include "aos_soa.hpp"

#include <cstdio>
#include <ostream>
#include <sstream>

#include "aos_soa_kernels.cuh"
#include "cudalab/cuda_error.hpp"
#include "cudalab/device_compare.cuh"
#include "cudalab/device_fill.cuh"

namespace aos_soa {

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

namespace {

/// An input's words (fill_words).
struct input_words {
  word_rule rule;
  __device__ std::uint32_t operator()(std::uint64_t w) const { return expected_word(rule, w).bits; }
};

/// What each word of an output must hold (compare_words).
struct output_words {
  word_rule rule;
  __device__ word_expectation operator()(std::uint64_t w) const { return expected_word(rule, w); }
};

std::string hex(std::uint32_t bits) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", bits);
  return text;
}

}  // namespace

std::ostream& operator<<(std::ostream& os, const output_word& w) { return os << hex(w.bits); }

std::ostream& operator<<(std::ostream& os, const word_expectation& e) {
  std::ostringstream what;
  what << hex(e.bits) << " (";
  if (e.at.field < 0) {
    what << (e.bits == 0 ? "padding, zero" : "padding, poison: not written");
  } else {
    what << "element " << e.at.element << " field " << e.at.field;
    if (e.field_bytes == 8) what << (e.at.part == 0 ? " low half" : " high half");
    if (e.written) {
      what.precision(17);
      what << " = " << e.value;
    } else {
      what << ", poison: not written";
    }
  }
  what << ")";
  return os << what.str();
}

void fill_words(std::uint32_t* d_words, const word_rule& rule, cudaStream_t stream) {
  cudalab::fill_on_device(d_words, rule.where.words, input_words{rule}, stream);
}

cudalab::verification compare_words(const std::uint32_t* d_words, const word_rule& rule, cudaStream_t stream) {
  return cudalab::compare_exact_on_device(reinterpret_cast<const output_word*>(d_words), rule.where.words,
                                          output_words{rule}, stream);
}

}  // namespace aos_soa
