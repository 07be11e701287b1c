// Named POSIX shared-memory objects, what backs the fake CUDA runtime's device allocations and interprocess
// events so that another process can map them by name: its CUDA IPC (fake_cudart.cpp).
#pragma once

#include <cstddef>
#include <string>

namespace fakecuda {

/// A shared-memory object mapped into this process.
struct shm_mapping {
  void* address = nullptr;  ///< where it is mapped (page aligned); nullptr: nothing is
  std::size_t bytes = 0;    ///< its size, bytes
  std::string name;         ///< its name for shm_open ("/fakecuda.<pid namespace>.<pid>.<token>.<n>")
};

/// The longest name shm_create gives, in characters (without the terminating NUL).
constexpr std::size_t shm_name_most = 47;

/// Creates an object of `bytes` bytes under a name no other process uses and maps it shared; no page is
/// touched, so it stays sparse until written. The first call of a process removes the names of objects whose
/// creator has died without removing them (killed, crashed), in its own pid namespace. False, creating nothing,
/// where the system has no shared memory for it: no writable /dev/shm, or less room free there than `bytes`.
/// REQUIRES: bytes > 0.
bool shm_create(std::size_t bytes, shm_mapping& out);

/// Maps the existing object `name`, `bytes` long. False where none of at least that size has that name.
bool shm_attach(const std::string& name, std::size_t bytes, shm_mapping& out);

/// Unmaps it; `remove` also removes its name (the creator's release): no process can attach it from then on,
/// while those that have it mapped keep it.
void shm_release(const shm_mapping& mapping, bool remove);

/// Whether this process created the object `name` (its name carries the creator's identity).
bool shm_is_own(const std::string& name);

}  // namespace fakecuda
