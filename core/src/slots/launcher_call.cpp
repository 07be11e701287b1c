// Calling a launcher with a call given as data (launcher_call.hpp), through libffi.
#include "slots/launcher_call.hpp"

#include <ffi.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace cudalab::host {

namespace {

ffi_type* ffi_type_of(slot_arg_kind kind) {
  switch (kind) {
    case slot_arg_kind::pointer:
    case slot_arg_kind::stream:
    case slot_arg_kind::streams:
      return &ffi_type_pointer;
    case slot_arg_kind::i32:
      return &ffi_type_sint32;
    case slot_arg_kind::u32:
      return &ffi_type_uint32;
    case slot_arg_kind::i64:
      return &ffi_type_sint64;
    case slot_arg_kind::u64:
      return &ffi_type_uint64;
    case slot_arg_kind::f32:
      return &ffi_type_float;
    case slot_arg_kind::f64:
      return &ffi_type_double;
  }
  throw std::runtime_error("a launcher argument of an unknown kind");
}

// One argument's value in the C type libffi passes: libffi reads each through a pointer to storage of that type.
union arg_value {
  void* pointer;
  std::int32_t i32;
  std::uint32_t u32;
  std::int64_t i64;
  std::uint64_t u64;
  float f32;
  double f64;
};

arg_value value_of(const slot_arg& a) {
  arg_value v{};
  switch (a.kind) {
    case slot_arg_kind::pointer:
    case slot_arg_kind::stream:
    case slot_arg_kind::streams:
      static_assert(sizeof v.pointer == sizeof a.bits);
      std::memcpy(&v.pointer, &a.bits, sizeof a.bits);  // copied, not cast: the pointer it was
      break;
    case slot_arg_kind::i32:
      v.i32 = static_cast<std::int32_t>(static_cast<std::uint32_t>(a.bits));
      break;
    case slot_arg_kind::u32:
      v.u32 = static_cast<std::uint32_t>(a.bits);
      break;
    case slot_arg_kind::i64:
      v.i64 = static_cast<std::int64_t>(a.bits);
      break;
    case slot_arg_kind::u64:
      v.u64 = a.bits;
      break;
    case slot_arg_kind::f32: {
      const auto b = static_cast<std::uint32_t>(a.bits);
      static_assert(sizeof b == sizeof v.f32);
      std::memcpy(&v.f32, &b, sizeof b);
      break;
    }
    case slot_arg_kind::f64:
      std::memcpy(&v.f64, &a.bits, sizeof a.bits);
      break;
  }
  return v;
}

}  // namespace

cudaError_t call_launcher(void* function, const slot_call& call) {
  const std::size_t n = call.args.size();
  std::vector<ffi_type*> types(n);
  std::vector<arg_value> values(n);
  std::vector<void*> addresses(n);
  for (std::size_t i = 0; i < n; ++i) {
    types[i] = ffi_type_of(call.args[i].kind);
    values[i] = value_of(call.args[i]);
    addresses[i] = &values[i];
  }
  ffi_cif cif;
  if (ffi_prep_cif(&cif, FFI_DEFAULT_ABI, static_cast<unsigned>(n), &ffi_type_sint32, types.data()) != FFI_OK)
    throw std::runtime_error("libffi could not prepare a call with " + std::to_string(n) + " arguments");
  ffi_arg result = 0;  // a return value narrower than a register is widened to ffi_arg
  ffi_call(&cif, FFI_FN(function), &result, addresses.data());
  return static_cast<cudaError_t>(static_cast<std::int32_t>(result));
}

}  // namespace cudalab::host
