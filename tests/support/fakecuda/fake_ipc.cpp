// The fake CUDA runtime's CUDA IPC (fake_cudart.cpp's header says what it does): device memory and events that
// another process opens by handle, and the driver's cuMemGetAddressRange, which finds where an allocation starts.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "fake_shm.h"
#include "fake_state.h"

using fakecuda::allocations;
using fakecuda::device_range;
using fakecuda::fail;
using fakecuda::fake_event;
using fakecuda::lock;
using fakecuda::opened_allocation;
using fakecuda::opened_allocations;
using fakecuda::shared_event_state;
using fakecuda::sticky_error;
using fakecuda::sticky_or;

namespace {

// What a cudaIpcMemHandle_t carries here: the allocation's shared-memory object and its size.
struct mem_handle {
  char magic[8];
  std::uint64_t bytes;
  char name[48];
};
static_assert(sizeof(mem_handle) == sizeof(cudaIpcMemHandle_t) && fakecuda::shm_name_most < sizeof mem_handle{}.name);
constexpr char mem_magic[8] = "fakemem";

// What a cudaIpcEventHandle_t carries here: the event's shared-memory object.
struct event_handle {
  char magic[8];
  char name[56];
};
static_assert(sizeof(event_handle) == sizeof(cudaIpcEventHandle_t) &&
              fakecuda::shm_name_most < sizeof event_handle{}.name);
constexpr char event_magic[8] = "fakeevt";

template <class Handle, class Ipc>
bool read_handle(const Ipc& ipc, const char (&magic)[8], Handle* handle) {
  std::memcpy(handle, &ipc, sizeof *handle);
  return std::memcmp(handle->magic, magic, sizeof magic) == 0 &&
         std::memchr(handle->name, '\0', sizeof handle->name) != nullptr;
}

// The driver's types, declared here rather than by cuda.h, which would bring the whole driver API.
using driver_result = int;                      // CUresult
using driver_pointer = unsigned long long;      // CUdeviceptr
constexpr driver_result driver_success = 0;     // CUDA_SUCCESS
constexpr driver_result driver_bad_value = 1;   // CUDA_ERROR_INVALID_VALUE
constexpr unsigned address_range_since = 3020;  // cuMemGetAddressRange_v2, the one with 64-bit sizes

// cuMemGetAddressRange: the base and size of the device memory holding `ptr` (either may be null, as the
// driver allows).
driver_result mem_get_address_range(driver_pointer* base, std::size_t* bytes, driver_pointer ptr) {
  std::lock_guard<std::mutex> g(lock());
  char* start = nullptr;
  std::size_t size = 0;
  // A CUdeviceptr is the address itself: with unified addressing, the fake's device memory is at it.
  const auto* address = reinterpret_cast<const void*>(ptr);  // NOLINT(performance-no-int-to-ptr)
  if (!device_range(address, &start, &size)) return driver_bad_value;
  if (base != nullptr) *base = reinterpret_cast<driver_pointer>(start);
  if (bytes != nullptr) *bytes = size;
  return driver_success;
}

}  // namespace

extern "C" {

cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t* handle, void* ptr) {
  std::lock_guard<std::mutex> g(lock());
  if (sticky_error() != cudaSuccess) return fail(sticky_error());
  const auto it = allocations().find(ptr);
  if (handle == nullptr || it == allocations().end()) return fail(cudaErrorInvalidValue);  // not an allocation's base
  if (it->second.shared.address == nullptr) return fail(cudaErrorNotSupported);
  mem_handle h{};
  std::memcpy(h.magic, mem_magic, sizeof h.magic);
  h.bytes = it->second.bytes;
  std::memcpy(h.name, it->second.shared.name.c_str(), it->second.shared.name.size() + 1);
  std::memcpy(handle, &h, sizeof h);
  return cudaSuccess;
}

// Opening the same handle again gives the same address and counts: each open needs its cudaIpcCloseMemHandle.
cudaError_t cudaIpcOpenMemHandle(void** ptr, cudaIpcMemHandle_t handle, unsigned flags) {
  std::lock_guard<std::mutex> g(lock());
  if (sticky_error() != cudaSuccess) return fail(sticky_error());
  mem_handle h{};
  if (ptr == nullptr || (flags & ~cudaIpcMemLazyEnablePeerAccess) != 0 || !read_handle(handle, mem_magic, &h))
    return fail(cudaErrorInvalidValue);
  const std::string name = h.name;
  if (fakecuda::shm_is_own(name)) return fail(cudaErrorDeviceUninitialized);  // the driver's "invalid context"
  for (auto& [base, o] : opened_allocations()) {
    if (o.shared.name == name) {
      ++o.opened;
      *ptr = base;
      return cudaSuccess;
    }
  }
  fakecuda::shm_mapping shared;
  if (!fakecuda::shm_attach(name, h.bytes, shared)) return fail(cudaErrorMapBufferObjectFailed);  // freed since
  void* base = shared.address;
  opened_allocations()[base] = opened_allocation{std::move(shared), 1};
  *ptr = base;
  return cudaSuccess;
}

cudaError_t cudaIpcCloseMemHandle(void* ptr) {
  std::lock_guard<std::mutex> g(lock());
  const auto it = opened_allocations().find(ptr);
  if (it == opened_allocations().end()) return fail(cudaErrorInvalidValue);
  if (--it->second.opened == 0) {
    fakecuda::shm_release(it->second.shared, false);
    opened_allocations().erase(it);
  }
  return sticky_or(cudaSuccess);
}

cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t* handle, cudaEvent_t event) {
  const auto* e = reinterpret_cast<const fake_event*>(event);
  if (handle == nullptr) return fail(cudaErrorInvalidValue);
  if (e == nullptr || (e->flags & cudaEventInterprocess) == 0) return fail(cudaErrorInvalidResourceHandle);
  if (e->shared == nullptr) return fail(cudaErrorNotSupported);
  event_handle h{};
  std::memcpy(h.magic, event_magic, sizeof h.magic);
  std::memcpy(h.name, e->mapping.name.c_str(), e->mapping.name.size() + 1);
  std::memcpy(handle, &h, sizeof h);
  return sticky_or(cudaSuccess);
}

// As the real one: the event behaves as one created here with cudaEventDisableTiming (and cudaEventInterprocess).
cudaError_t cudaIpcOpenEventHandle(cudaEvent_t* event, cudaIpcEventHandle_t handle) {
  event_handle h{};
  if (event == nullptr || !read_handle(handle, event_magic, &h)) return fail(cudaErrorInvalidValue);
  const std::string name = h.name;
  if (fakecuda::shm_is_own(name)) return fail(cudaErrorDeviceUninitialized);  // the driver's "invalid context"
  auto e = std::make_unique<fake_event>();
  if (!fakecuda::shm_attach(name, sizeof(shared_event_state), e->mapping))
    return fail(cudaErrorMapBufferObjectFailed);  // destroyed since
  e->flags = cudaEventDisableTiming | cudaEventInterprocess;
  e->shared = static_cast<shared_event_state*>(e->mapping.address);
  *event = reinterpret_cast<cudaEvent_t>(e.release());
  return sticky_or(cudaSuccess);
}

// One driver function: cuMemGetAddressRange. As the real one documents: a name it does not know, or one newer than
// the version asked for, is no error but a null function and the reason in driverStatus; a version above the
// driver's (13.0) is cudaErrorInvalidValue.
cudaError_t cudaGetDriverEntryPointByVersion(const char* symbol, void** function, unsigned version,
                                             unsigned long long flags, cudaDriverEntryPointQueryResult* driver_status) {
  if (symbol == nullptr || function == nullptr || version > 13000 || flags > cudaEnablePerThreadDefaultStream)
    return fail(cudaErrorInvalidValue);
  *function = nullptr;
  cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
  if (std::strcmp(symbol, "cuMemGetAddressRange") == 0) {
    status = version >= address_range_since ? cudaDriverEntryPointSuccess : cudaDriverEntryPointVersionNotSufficent;
    if (status == cudaDriverEntryPointSuccess) *function = reinterpret_cast<void*>(&mem_get_address_range);
  }
  if (driver_status != nullptr) *driver_status = status;
  return sticky_or(cudaSuccess);
}

}  // extern "C"
