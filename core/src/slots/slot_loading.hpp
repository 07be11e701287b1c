// Loading a built submission into this process so a lab can run it (slot_code): a kernel slot's CUBIN
// through the CUDA runtime's library management (cudaLibraryLoadData, cudaLibraryGetKernel; launched
// with cudaLaunchKernel), a launcher slot's shared library through Boost.DLL. Both stay loaded until
// the process ends, like the plugins: the runtime keeps pointers into them.
#pragma once

#include <memory>
#include <string>

#include "cudalab/slot.hpp"

namespace cudalab::host {

/// Loads the built submission at `artifact` (a CUBIN for a kernel slot, a shared library for a
/// launcher slot) and finds `entry` in it. Throws cuda_error when the runtime refuses the CUBIN (built
/// for another GPU), std::runtime_error when the file cannot be read or has no `entry`.
std::unique_ptr<slot_code> load_slot_code(slot_kind kind, const std::string& artifact, const std::string& entry);

}  // namespace cudalab::host
