// What the fake CUDA runtime's files share (fake_cudart.cpp, fake_ipc.cpp): its lock, its errors, its device
// memory (this process's allocations and other processes' it opened) and its events.
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

#include "fake_shm.h"

namespace fakecuda {

/// The lock over the runtime's tables: allocations, opened allocations, kernels, pinned ranges.
std::mutex& lock();

/// The error every call returns from the first one on (a lost context); cudaSuccess while there is none.
cudaError_t& sticky_error();

/// Makes `e` the last error (cudaGetLastError's) and returns it.
cudaError_t fail(cudaError_t e);

/// The sticky error where there is one, else `e`; either is made the last error unless it is cudaSuccess.
cudaError_t sticky_or(cudaError_t e);

/// A cudaMalloc allocation: a shared-memory object another process can open by its IPC handle, or, where the
/// system has none, host memory of this process alone.
struct allocation {
  std::size_t bytes = 0;         ///< as asked for
  fakecuda::shm_mapping shared;  ///< nothing mapped: std::aligned_alloc's memory
};

/// This process's allocations, by base address. REQUIRES: lock() held.
std::map<void*, allocation>& allocations();

/// Another process's allocation that cudaIpcOpenMemHandle mapped here, as often as it was opened.
struct opened_allocation {
  fakecuda::shm_mapping shared;  ///< its object, mapped
  int opened = 0;                ///< opens not closed yet
};

/// The other processes' allocations open here, by base address. REQUIRES: lock() held.
std::map<void*, opened_allocation>& opened_allocations();

/// The device memory holding `ptr`, an allocation of this process or one it opened: its start and size, bytes.
/// False where it is neither. REQUIRES: lock() held.
bool device_range(const void* ptr, char** base, std::size_t* bytes);

/// An interprocess event's state, in a shared-memory object that every process holding the event maps: the
/// stream time of its latest record.
struct shared_event_state {
  std::atomic<double> ms;               ///< the recording stream's clock, ms
  std::atomic<std::uint32_t> recorded;  ///< 1 once recorded; written after ms
  std::atomic<std::int32_t> recorder;   ///< the pid of the process that recorded it last
};
static_assert(std::atomic<double>::is_always_lock_free && std::atomic<std::uint32_t>::is_always_lock_free &&
                  std::atomic<std::int32_t>::is_always_lock_free,
              "an interprocess event's state is shared between processes, so its atomics must take no lock");

/// What a cudaEvent_t points to.
struct fake_event {
  unsigned flags = 0;                    ///< cudaEventCreateWithFlags's
  double ms = 0;                         ///< a process-local event's record, ms
  bool recorded = false;                 ///< whether it has one
  shared_event_state* shared = nullptr;  ///< an interprocess event's record, in `mapping`
  fakecuda::shm_mapping mapping;         ///< an interprocess event's object
  bool created_here = false;             ///< the creator of an interprocess event removes its object's name
};

}  // namespace fakecuda
