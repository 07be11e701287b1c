// The kernel census of a verified run: every kernel, copy and memset it put on the GPU, as CUPTI's activity
// records saw them (device/kernel_census takes it; assignment/census_checks judges it).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cudalab::host {

/// The most kernels, and the most copies, a census keeps one by one; past them it only counts.
inline constexpr std::size_t census_record_limit = 1000;

/// A kernel that ran.
struct census_kernel {
  std::string name;                          ///< demangled ("void cub::DeviceReduceKernel<...>(...)", "scale_kernel")
  std::uint32_t stream = 0;                  ///< CUPTI's id of the stream it ran on
  std::array<std::int32_t, 3> grid{};        ///< blocks, x y z
  std::array<std::int32_t, 3> block{};       ///< threads per block, x y z
  std::uint32_t registers = 0;               ///< per thread
  std::uint32_t static_shared_bytes = 0;     ///< per block
  std::uint32_t dynamic_shared_bytes = 0;    ///< per block
  std::uint32_t local_bytes_per_thread = 0;  ///< local memory (register spills, stack arrays)
  std::uint64_t duration_ns = 0;
  bool after_session = false;  ///< still running when the session stream had finished its work
};

/// A copy or a memset that ran.
struct census_copy {
  std::string kind;  ///< H2D, D2H, D2D, H2H, P2P, H2A, A2H, A2A, A2D, D2A, memset, or unknown
  std::uint64_t bytes = 0;
  std::uint32_t stream = 0;  ///< CUPTI's id of the stream it ran on
  std::uint64_t duration_ns = 0;
  bool after_session = false;  ///< still running when the session stream had finished its work
};

/// The census of one verified run ([measure] census). A run without one has taken false.
struct kernel_census {
  bool taken = false;                ///< a census was asked for
  std::string unavailable;           ///< why it could not be taken ("" : it was)
  std::string library;               ///< the CUPTI library it was taken with
  std::uint32_t session_stream = 0;  ///< CUPTI's id of the session stream the run was given
  std::string module_loading;        ///< CUDA_MODULE_LOADING as the process had it ("EAGER"; "" : CUDA's lazy default)
  std::vector<census_kernel> kernels;  ///< in the order they started, at most census_record_limit
  std::vector<census_copy> copies;     ///< copies and memsets, likewise
  std::uint64_t kernel_count = 0;      ///< every kernel seen, kept or not
  std::uint64_t copy_count = 0;        ///< every copy and memset seen, kept or not
  std::uint64_t dropped_records = 0;   ///< records CUPTI dropped (its buffers were full): the census is short

  /// True when it was taken and holds what the run did.
  bool available() const { return taken && unavailable.empty(); }
};

/// A census that could not be taken, and why.
inline kernel_census unavailable_census(std::string why) {
  kernel_census c;
  c.taken = true;
  c.unavailable = std::move(why);
  return c;
}

}  // namespace cudalab::host
