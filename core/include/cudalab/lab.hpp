// The plugin boundary: the lab interface every plugin implements and the types it exchanges with the
// host. Only std and cudalab types cross it; the ABI hash covers this header and what it includes.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cudalab/abi.hpp"
#include "cudalab/cuda_error.hpp"
#include "cudalab/device_buffer.hpp"
#include "cudalab/device_info.hpp"
#include "cudalab/param.hpp"
#include "cudalab/slot.hpp"
#include "cudalab/trace.hpp"
#include "cudalab/verification.hpp"

namespace cudalab {

/// A variant's position in lab_spec::variants: how the host names a variant in every call.
/// variant_table.hpp turns it back into what the variant does.
using variant_index = std::size_t;

/// One way of doing the lab's job (a kernel, a copy strategy, a library call).
struct variant_spec {
  std::string name;     ///< identifier used in lab files and --variant: lower case, digits, '_'
  std::string summary;  ///< one line: the access pattern it shows
};

/// What a lab declares about itself. CPU only: building it never touches the GPU. The host checks
/// it when the plugin loads: names unique and well formed, the baseline one of the variants,
/// defaults in range and among the allowed values, `name` the plugin file's name.
struct lab_spec {
  std::string name;     ///< plugin name; the plugin file is cudalab_<name>.so
  std::string title;    ///< one line
  std::string summary;  ///< a paragraph for `cudalab describe`
  std::vector<param_spec> params;
  std::vector<variant_spec> variants;
  std::string baseline;          ///< name of the variant other results are compared with ("" for none)
  std::vector<slot_spec> slots;  ///< holes a student fills (course assignments); none for most labs
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

/// Where a buffer lives.
enum class memory_kind { device, host };

/// How the host prepares an output before a variant runs.
enum class output_init {
  poison,  ///< written once per run: before each verified run every byte is 0xFF (NaN for floats,
           ///< -1 for signed integers), so an element the variant failed to write fails verification
  zero,    ///< accumulated into (histograms, counters): every byte is 0 before every run, verified or
           ///< timed, outside the timed region
};

/// What the host tells a lab in every call after spec().
struct lab_context {
  std::uint64_t seed = 0;         ///< for the lab's random inputs: the same seed gives the same inputs
  device_info device;             ///< the GPU of the run; in `explain` without a GPU, the model device
  cudaStream_t stream = nullptr;  ///< where every run is enqueued; nullptr in trace() (CPU only)
};

/// What the host offers a lab during setup(): the context, and the registration of the point's
/// inputs and outputs. Registrations end when the point is destroyed.
class CUDALAB_API session {
 public:
  virtual ~session() = default;

  virtual const lab_context& context() const = 0;
  cudaStream_t stream() const { return context().stream; }
  std::uint64_t seed() const { return context().seed; }
  const device_info& device() const { return context().device; }

  /// Declares an output buffer and how it is prepared before runs (output_init).
  /// REQUIRES: the buffer lives as long as the lab_point that setup() returns.
  virtual void register_output(void* ptr, std::size_t bytes, memory_kind where, output_init init) = 0;

  /// Declares an input no variant may change: the host checksums it once setup() has returned and
  /// checks it after every verified run (a variant that writes its input fails verification).
  /// REQUIRES: the buffer lives as long as the lab_point; its contents are final when setup() returns.
  virtual void register_input(const void* ptr, std::size_t bytes, memory_kind where) = 0;

  /// A device buffer of `count` T, registered as an output prepared by `init`.
  template <class T>
  device_buffer<T> output(std::size_t count, output_init init = output_init::poison) {
    device_buffer<T> d(count);
    register_output(d.data(), d.bytes(), memory_kind::device, init);
    return d;
  }

  /// A device buffer holding a copy of `h_values` (uploaded on the session stream), registered as an
  /// input. REQUIRES: h_values is not changed until the stream has synchronised (the host does).
  template <class T>
  device_buffer<T> input(const std::vector<T>& h_values) {
    device_buffer<T> d(h_values.size());
    if (!h_values.empty()) d.upload(h_values.data(), stream());
    register_input(d.data(), d.bytes(), memory_kind::device);
    return d;
  }
};

/// What a lab needs to run at given parameters, so the host can refuse before allocating.
struct requirements {
  std::uint64_t device_bytes = 0;       ///< device memory
  std::uint64_t host_pinned_bytes = 0;  ///< page-locked host memory
  std::uint64_t host_bytes = 0;         ///< ordinary host memory (references, pageable buffers)
};

/// One sweep point of a lab, made by lab::setup(): it owns the point's buffers, inputs and reference.
/// Its destructor is the teardown: it frees everything and must not throw.
class CUDALAB_API lab_point {
 public:
  virtual ~lab_point() = default;

  /// Enqueues ONE execution of variant `v` on `stream`: no synchronisation, no allocation. The host
  /// has prepared the registered outputs (output_init).
  virtual void run(variant_index v, cudaStream_t stream) = 0;

  /// Compares the last run's output with the reference. The host has synchronised ctx.stream.
  virtual verification verify(variant_index v, const lab_context& ctx) = 0;

  /// Makes the point run at `p`, which differs from the parameters it was set up with only in
  /// tuning parameters (param_spec::tunes()): the host calls it instead of destroying the point and
  /// calling setup() again, so the inputs are made once for a sweep of launch settings. It must not
  /// change the registered inputs; outputs are prepared again before every verified run.
  /// Default: throws, for a lab that declares no tuning parameter (the host never calls it then).
  virtual void retune(const params& p) {
    (void)p;
    throw std::logic_error("the lab declares a tuning parameter but its lab_point does not implement retune()");
  }

  /// Enqueues ONE execution of `code`, a submission for the slot called `slot` (lab_spec::slots), on
  /// `stream`, on the buffers of the slot's variant: as run() does for that variant, with the student's
  /// kernel (code.launch) or launcher (code.entry<F>()) in place of the lab's. The host has prepared
  /// the outputs; it verifies with verify(slot's variant). Default: throws, for a lab with no slot.
  virtual void run_slot(const std::string& slot, const slot_code& code, cudaStream_t stream) {
    (void)code;
    (void)stream;
    throw std::logic_error("the lab declares slot '" + slot + "' but its lab_point does not implement run_slot()");
  }
};

/// A lab: one loaded plugin. It holds no per-point state: every call gets what it needs, and every
/// call but setup() is CPU only, so `list`, `describe`, `validate` and `explain` need no GPU.
/// Any exception a call throws is reported as "LAB: FUNCTION(VARIANT, point): what".
class CUDALAB_API lab {
 public:
  virtual ~lab() = default;

  /// Declares the lab. CPU only.
  virtual lab_spec spec() const = 0;

  /// Rejects parameter combinations the declared ranges and allowed values cannot express (offset
  /// past n): throws std::invalid_argument naming the parameters. CPU only. The host calls it on
  /// every point before anything else sees the point. Default: accepts all.
  virtual void check_params(const params&) const {}

  /// The memory a run at `p` needs. CPU only. Default: unknown (zeros).
  virtual requirements requirements_of(const params&) const { return {}; }

  /// The fewest bytes a correct implementation of variant `v` moves at `p`. CPU only. Must be more
  /// than zero: the host refuses a zero (a result without a GB/s figure says nothing).
  virtual traffic traffic_of(const params& p, variant_index v) const = 0;

  /// Feeds the warp accesses of variant `v` at `p` to the access model. CPU only: ctx.stream is
  /// null, ctx.device is the run's GPU or, without one, the model device. A variant with nothing
  /// to model (a library call) records nothing.
  virtual void trace(const params& p, variant_index v, const lab_context& ctx, trace_sink& sink) const = 0;

  /// Allocates the point's buffers (session::input/output, or register_* by hand), fills inputs
  /// from ctx.seed, computes the CPU reference, and returns the point. It may enqueue work on
  /// s.stream(); the host synchronises before the first run.
  virtual std::unique_ptr<lab_point> setup(const params& p, session& s) const = 0;
};

}  // namespace cudalab
