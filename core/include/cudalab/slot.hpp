// Slots: the holes of a lab that a student fills in a course assignment, and the compiled submission
// the host hands the lab to run in one. A submission runs as the variant "student:<slot>": the host
// prepares the outputs of the slot's `variant`, calls lab_point::run_slot, and verifies and counts
// traffic as for that variant, so a student's code gets what every variant gets.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

#include "cudalab/abi.hpp"

namespace cudalab {

/// What a student writes for a slot.
enum class slot_kind {
  kernel,    ///< device code only: one extern "C" __global__ function, compiled by the host with NVRTC
             ///< and launched by the lab through slot_code::launch (the lab chooses the grid)
  launcher,  ///< host and device code: one extern "C" host function returning cudaError_t, built by the
             ///< host with nvcc into a shared library; the lab calls it (the student chooses the launches)
};

/// Which streams a slot's code may put its work on (ABI 5).
enum class slot_streams {
  session,  ///< only the stream lab_point::run_slot is given: the host's timing and census see all of it
  lab,      ///< streams of the lab's own too, which the lab hands it and joins into the session stream
            ///< before run_slot returns (mapped_pinned's add_overlapped): an assignment's census then
            ///< allows other streams ([anti_cheat] stream = "joined")
};

/// A hole of a lab, declared in lab_spec::slots.
struct slot_spec {
  std::string name;                    ///< identifier (lower case, digits, '_'); the variant is "student:<name>"
  slot_kind kind = slot_kind::kernel;  ///< what the student writes
  std::string variant;    ///< the lab variant whose job the slot does: its outputs, verify() and traffic_of()
  std::string summary;    ///< one line: what the student writes, and how the lab calls it
  std::string entry;      ///< the extern "C" function a submission defines (a C identifier)
  std::string file_name;  ///< the file the student edits ("offset_copy.cu")
  /// The staff solution: a whole submission that passes, its solution regions marked with
  /// "// BEGIN SOLUTION" and "// END SOLUTION" lines (and "// STARTER: code" lines for what the
  /// starter keeps), so that the starter kit is made from it. At least one region.
  std::string reference;
  slot_streams streams = slot_streams::session;  ///< which streams the submission's work may go on
};

/// A submission, compiled and loaded by the host, that lab_point::run_slot runs.
class CUDALAB_API slot_code {
 public:
  virtual ~slot_code() = default;

  virtual slot_kind kind() const = 0;

  /// A kernel slot's kernel, enqueued on `stream`; `args` holds a pointer to each kernel parameter, as
  /// for cudaLaunchKernel. Throws cuda_error when the launch is refused (a grid the kernel cannot run
  /// with); faults while it runs surface when the host synchronises.
  virtual void launch(dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream, void** args) const = 0;

  /// A launcher slot's entry function, to be cast to the type the slot documents: `entry<F>()`.
  virtual void* entry_address() const = 0;

  template <class F>
  F* entry() const {
    return reinterpret_cast<F*>(entry_address());
  }
};

}  // namespace cudalab
