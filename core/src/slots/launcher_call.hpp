// Calling a launcher slot's entry function with a call given as data (slot_call): libffi builds the call the
// function's C signature needs from the arguments' kinds, so one path serves every launcher, in the process
// that loaded it.
#pragma once

#include <cuda_runtime_api.h>

#include "cudalab/slot.hpp"

namespace cudalab::host {

/// Calls `function` (an extern "C" function returning cudaError_t) with `call`'s arguments, each passed as the
/// C type its kind names (slot.hpp: a pointer, an int, a float, ...); gives what it returned. Throws
/// std::runtime_error when libffi cannot prepare the call. REQUIRES: `function` takes exactly those arguments.
cudaError_t call_launcher(void* function, const slot_call& call);

}  // namespace cudalab::host
