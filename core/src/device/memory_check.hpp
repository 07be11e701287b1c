// Memory checks before anything is allocated: every point's needs against the device's and the host's.
#pragma once

#include <cstdint>
#include <vector>

#include "labfile/problems.hpp"
#include "plan/planning.hpp"

namespace cudalab::host {

/// Memory free on this machine for a run's host buffers (MemAvailable), in bytes; 0 if unknown.
std::uint64_t host_memory_available();

/// Checks every point's requirements_of() against the device's memory and the host's, before anything is
/// allocated: returns one problem per point that does not fit, with the numbers. Throws
/// lab_call_error when the lab's requirements_of() throws.
std::vector<lab_problem> check_memory(const std::vector<planned_lab>& plans, std::uint64_t device_bytes,
                                      std::uint64_t host_bytes);

}  // namespace cudalab::host
