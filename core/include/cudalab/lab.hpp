// The plugin boundary: the lab interface every plugin implements, and the types it exchanges
// with the host. Only std and cudalab types cross it; changing any of them bumps CUDALAB_ABI_VERSION.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cudalab/abi.hpp"
#include "cudalab/device_info.hpp"
#include "cudalab/param.hpp"
#include "cudalab/trace.hpp"
#include "cudalab/verify.hpp"

namespace cudalab {

/// One way of doing the lab's job (a kernel, a copy strategy, a library call).
struct variant_spec {
  std::string name;     ///< identifier used in lab files and --variant, e.g. "offset_read"
  std::string summary;  ///< one line: the access pattern it shows
};

/// What a lab declares about itself. CPU only: building it never touches the GPU.
struct lab_spec {
  std::string name;      ///< plugin name; the plugin file is cudalab_<name>.so
  std::string title;     ///< one line
  std::string summary;   ///< a paragraph for `cudalab describe`
  std::vector<param_spec> params;
  std::vector<variant_spec> variants;
  std::string baseline;  ///< name of the variant other results are compared with ("" for none)
};

/// Which path the bytes of a variant travel, so results are compared with the matching ceiling.
enum class memory_path { device, host_bus };

/// The fewest bytes a correct implementation of a variant must move, for bandwidth figures.
struct traffic {
  std::uint64_t bytes_read = 0;
  std::uint64_t bytes_written = 0;
  memory_path path = memory_path::device;
  std::uint64_t total() const { return bytes_read + bytes_written; }
};

/// Where an output lives, so the host can poison it before a verified run.
enum class memory_kind { device, host };

/// What the host offers a lab during setup.
class CUDALAB_API session {
 public:
  virtual ~session() = default;
  /// The stream every run is enqueued on.
  virtual cudaStream_t stream() const = 0;
  /// Seed for the lab's random inputs; the same seed gives the same inputs.
  virtual std::uint64_t seed() const = 0;
  virtual const device_info& device() const = 0;
  /// Declares an output buffer. Before each verified run the host fills it with a poison pattern
  /// (every byte 0xFF: NaN for floats, -1 for signed integers), so an element the variant failed
  /// to write cannot pass verification. REQUIRES: the buffer lives until teardown().
  virtual void register_output(void* ptr, std::size_t bytes, memory_kind where) = 0;
};

/// What a lab needs to run at given parameters, so the host can refuse before allocating.
struct requirements {
  std::uint64_t device_bytes = 0;       ///< device memory
  std::uint64_t host_pinned_bytes = 0;  ///< page-locked host memory
  std::uint64_t host_bytes = 0;         ///< ordinary host memory (references, pageable buffers)
};

/// A lab: one loaded plugin, driven through setup -> (run, verify)* -> teardown per sweep point.
class CUDALAB_API lab {
 public:
  virtual ~lab() = default;

  /// Declares the lab. CPU only.
  virtual lab_spec spec() const = 0;

  /// Rejects parameter combinations the declared ranges cannot express (e.g. offset past n):
  /// throws std::invalid_argument naming the parameters. CPU only. Default: accepts all.
  virtual void check_params(const params&) const {}

  /// The memory a run at these parameters needs. CPU only. Default: unknown (zeros).
  virtual requirements require(const params&) const { return {}; }

  /// Allocates, fills inputs from session.seed(), computes the CPU reference, registers outputs.
  virtual void setup(const params& p, session& s) = 0;

  /// Bytes the variant must move at the parameters given to setup().
  virtual traffic traffic_of(const variant_spec& v) const = 0;

  /// Enqueues ONE execution of the variant on `stream`: no synchronisation, no allocation.
  virtual void run(const variant_spec& v, cudaStream_t stream) = 0;

  /// Compares the last run's output with the reference. The host has synchronised the stream.
  virtual check verify(const variant_spec& v) = 0;

  /// Feeds the warp accesses of the variant at parameters `p` to the access model. CPU only:
  /// callable without setup() and without a GPU.
  virtual void trace(const params& p, const variant_spec& v, trace_sink& sink) const = 0;

  /// Frees everything setup() allocated. Must not throw.
  virtual void teardown() noexcept = 0;
};

}  // namespace cudalab
