// Slots: the holes of a lab that a student fills in a course assignment, and the compiled submission
// the host hands the lab to run in one. A submission runs as the variant "student:<slot>": the host
// prepares the outputs of the slot's `variant`, calls lab_point::run_slot, and verifies and counts
// traffic as for that variant, so a student's code gets what every variant gets.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

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

/// What one argument of a launcher call is (ABI 6): what the host needs to make the same call in another process.
enum class slot_arg_kind : std::uint8_t {
  pointer,  ///< an address: device memory, or pinned host memory the host can share (pinned_buffer)
  stream,   ///< a cudaStream_t
  streams,  ///< a const cudaStream_t* array, its length the next argument (an integer)
  i32,      ///< int
  u32,      ///< unsigned int
  i64,      ///< long, long long
  u64,      ///< unsigned long, unsigned long long, std::size_t
  f32,      ///< float
  f64,      ///< double
};

/// One argument of a launcher call: its kind and its bits (an integer's value, a float's bit pattern, an
/// address or a stream handle, zero-extended to 64 bits).
struct slot_arg {
  slot_arg_kind kind = slot_arg_kind::u64;
  std::uint64_t bits = 0;
};

/// A launcher call as data: its arguments in order (slot_entry builds it from a typed call).
struct slot_call {
  std::vector<slot_arg> args;
};

namespace detail {
template <class T>
slot_arg slot_arg_of(T* p) {
  return {slot_arg_kind::pointer, static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p))};
}
inline slot_arg slot_arg_of(cudaStream_t s) {
  return {slot_arg_kind::stream, static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(s))};
}
inline slot_arg slot_arg_of(const cudaStream_t* s) {
  return {slot_arg_kind::streams, static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(s))};
}
inline slot_arg slot_arg_of(float f) {
  std::uint32_t b = 0;
  std::memcpy(&b, &f, sizeof b);
  return {slot_arg_kind::f32, b};
}
inline slot_arg slot_arg_of(double d) {
  std::uint64_t b = 0;
  std::memcpy(&b, &d, sizeof b);
  return {slot_arg_kind::f64, b};
}
template <class T, std::enable_if_t<std::is_integral_v<T> || std::is_enum_v<T>, int> = 0>
slot_arg slot_arg_of(T value) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8,
                "a launcher's integer arguments are 32 or 64 bits wide (int, unsigned, long long, size_t)");
  constexpr bool is_signed = std::is_signed_v<std::conditional_t<std::is_enum_v<T>, int, T>>;
  if constexpr (sizeof(T) == 4)
    return {is_signed ? slot_arg_kind::i32 : slot_arg_kind::u32,
            static_cast<std::uint64_t>(static_cast<std::uint32_t>(value))};
  else
    return {is_signed ? slot_arg_kind::i64 : slot_arg_kind::u64, static_cast<std::uint64_t>(value)};
}
}  // namespace detail

class slot_code;

/// A launcher slot's entry as the lab calls it: `code.entry<F>()(args...)`, F the slot's documented function
/// type, returning cudaError_t. The call is handed to the host as data (slot_call), which makes it in this
/// process or in the submission's own process (docs/grading.md); so a launcher's parameters are pointers to
/// device memory or to pinned host memory (a pinned_buffer), streams, a `const cudaStream_t*` followed by its
/// length, and 32- or 64-bit integers and floats. Anything else does not compile.
template <class F>
class slot_entry;

template <class... A>
class slot_entry<cudaError_t(A...)> {
 public:
  explicit slot_entry(const slot_code& code) : code_(&code) {}
  cudaError_t operator()(A... args) const;

 private:
  const slot_code* code_;
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

  /// A launcher slot's entry function called with `call`'s arguments (in this process, or in the
  /// submission's process): what it returned. Throws std::runtime_error when the call cannot be made (an
  /// argument the host cannot hand over, the submission's process gone).
  virtual cudaError_t call(const slot_call& call) const = 0;

  /// A launcher slot's entry, called as the type the slot documents: `code.entry<F>()(args...)`.
  template <class F>
  slot_entry<F> entry() const {
    return slot_entry<F>(*this);
  }
};

template <class... A>
cudaError_t slot_entry<cudaError_t(A...)>::operator()(A... args) const {
  slot_call call;
  call.args.reserve(sizeof...(A));
  (call.args.push_back(detail::slot_arg_of(args)), ...);
  for (std::size_t i = 0; i < call.args.size(); ++i)
    if (call.args[i].kind == slot_arg_kind::streams &&
        (i + 1 == call.args.size() ||
         (call.args[i + 1].kind != slot_arg_kind::i32 && call.args[i + 1].kind != slot_arg_kind::u32 &&
          call.args[i + 1].kind != slot_arg_kind::i64 && call.args[i + 1].kind != slot_arg_kind::u64)))
      throw std::logic_error("a launcher's const cudaStream_t* argument must be followed by its length");
  return code_->call(call);
}

}  // namespace cudalab
