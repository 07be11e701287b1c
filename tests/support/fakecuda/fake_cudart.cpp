// A test double of the CUDA runtime (libcudart.so.13) so CI, which has no GPU, can run `cudalab run`
// end to end: one fake device, memory that is host memory, streams and events that complete at once,
// and kernel launches that do nothing, except the fake labs' kernels, which it runs as host loops by
// name. Put its folder first on LD_LIBRARY_PATH (cudalab_add_fake_gpu_test does): the executable and
// every plugin then bind to it instead of the real runtime. A fake CUPTI (tests/support/fakecupti) hears of
// every kernel launch, copy and memset through fakecuda_set_activity_hook (fake_activity.h).
//
// Faults on demand, through the environment:
//   FAKECUDA_NO_DEVICE=1            cudaGetDeviceCount fails with cudaErrorNoDevice
//   FAKECUDA_GPUS=N                 the fake host has N GPUs (default 1), of which CUDA_VISIBLE_DEVICES
//                                   shows some, as the real runtime does; GPU p > 0 is named "Fake GPU p";
//                                   GPU p is at PCI bus id 0000:(0x18 + p):00.0, where the fake NVML
//                                   (tests/support/fakenvml) finds it
//   FAKECUDA_HANG_PROBE=1           cudaGetDeviceCount never returns (a stuck driver)
//   FAKECUDA_HANG_SYNC=1            every synchronisation after a kernel launch never returns
//   FAKECUDA_STICKY=1               the first kernel launch leaves cudaErrorIllegalAddress, for good
//   FAKECUDA_SEGV_LAUNCH=1          the first kernel launch raises SIGSEGV
//   FAKECUDA_MALLOC_FAIL_ABOVE=N    cudaMalloc of more than N bytes fails (cudaErrorMemoryAllocation)
//   FAKECUDA_SPEW=N                 the first kernel launch writes N bytes without a newline to stdout
//   FAKECUDA_MS=X                   each kernel launch takes X ms of event time (default 0.5)
//   FAKECUDA_LAUNCH_GAP_MS=X        the host's launch interval (default 0): each kernel launch spends X ms of
//                                   the host's wall time, and on a stream that cudalab's blocking kernel does
//                                   not hold the GPU waits for it, so the launch takes max(FAKECUDA_MS, X) of
//                                   event time; held launches (the blocking kernel's flag still 0 when they
//                                   are enqueued) run back to back, FAKECUDA_MS each
//   (cudaStreamSynchronize of a stream the blocking kernel holds ends the hold as its timeout does, flag 1 set)
//   FAKECUDA_SWITCH_MS=X            a stream that waits on an interprocess event another process recorded goes on
//                                   X ms after that record (default 0): the real GPU switches between the two
//                                   processes' contexts
//   FAKECUDA_GBPS=X                 copies and memsets take bytes / X GB/s of event time (default 10, slow on
//                                   purpose: timing loops then repeat large copies few times on the host)
//   FAKECUDA_MEMORY=N               the device's memory in bytes (default 2 GiB: the ceilings copy a quarter)
//   FAKECUDA_SKIP_COPIES_ABOVE=N    copies and memsets of more than N bytes take their event time but
//                                   move nothing (the ceilings' large copies then cost no wall time)
//   FAKECUDA_PERSISTING_L2=N        the most L2 the device sets aside for persisting accesses, bytes
//                                   (cudaDevAttrMaxPersistingL2CacheSize; default 37.5 MiB, three quarters of
//                                   the fake L2; 0: a device without persisting L2). cudaDeviceSetLimit of
//                                   cudaLimitPersistingL2CacheSize keeps what it is given up to that,
//                                   cudaDeviceGetLimit reads it back, as cudaStreamGetAttribute reads back a
//                                   stream's access policy window; cudaCtxResetPersistingL2Cache succeeds (on
//                                   a device without persisting L2 all of them fail, as the real ones do)
//
// Its clock: each stream counts the event time of its work (kernel launches, copies, memsets) from 0, and an
// event records its stream's count, so elapsed time is the difference of two records. cudaStreamWaitEvent moves
// the waiting stream's count on to the event's record where it is behind, as the GPU holds the stream's later work
// until then: forked and joined streams time the whole overlapped work. Two processes' counts meet the same way,
// through an interprocess event (a Lamport clock): a parent records "go" at T, a child that waits on it starts
// its kernel at T, records "done" at T + FAKECUDA_MS, and the parent, waiting on "done", goes on from there, so its
// elapsed time holds the child's kernel. Work a process did before its first wait counts from 0 on its own clock.
//
// CUDA IPC, as the real runtime's API (two processes, each with this library, sharing buffers and events):
//   cudaMalloc                      each allocation is a POSIX shared-memory object, sparse until written,
//                                   /dev/shm/fakecuda.<pid namespace>.<pid>.<token>.<n>, its name removed at
//                                   cudaFree; without a writable /dev/shm with room free for all of it (Docker's
//                                   is 64 MiB), memory of this process alone. A process killed before its
//                                   cudaFree leaves its objects: the next process of its pid namespace to create
//                                   one removes them. cudaPointerGetAttributes says cudaMemoryTypeDevice of it,
//                                   cudaFree refuses any other address
//   cudaIpcGetMemHandle             the handle of an allocation's base (the object's name and size); any other
//                                   address: cudaErrorInvalidValue; memory of this process alone: NotSupported
//   cudaIpcOpenMemHandle            maps another process's allocation as device memory here (copies, memsets, the
//                                   fake labs' kernels, cudaPointerGetAttributes); the same handle again: the same
//                                   address, each open to be closed; a handle of this process:
//                                   cudaErrorDeviceUninitialized ("invalid device context", the driver's
//                                   CUDA_ERROR_INVALID_CONTEXT); a freed allocation's: MapBufferObjectFailed
//   cudaIpcCloseMemHandle           unmaps it, at its last close
//   cudaEventCreateWithFlags        cudaEventInterprocess needs cudaEventDisableTiming (else InvalidValue); such an
//                                   event's record is a shared-memory object too; cudaEventElapsedTime refuses
//                                   every event without timing (InvalidResourceHandle), as the real one does
//   cudaIpcGetEventHandle,          give another process the same event, which records, waits, queries and
//   cudaIpcOpenEventHandle          synchronises there (a plain event: InvalidResourceHandle; this process's own
//                                   handle: DeviceUninitialized; one without shared memory: NotSupported)
//   cudaGetDriverEntryPointByVersion  one driver function, cuMemGetAddressRange (base and size of the device
//                                   memory holding a pointer: this process's allocations and opened ones); any
//                                   other name: a null function and cudaDriverEntryPointSymbolNotFound, no error
// Pinned host memory of a memfd that two processes map and cudaHostRegister is the same pages in both.
// Stream capture records a stream's work into a graph whose launch takes that work's time at once and computes
// nothing ("stream capture and graphs" below: what a capture refuses).
// CUDA IPC's functions are in fake_ipc.cpp, the shared-memory objects in fake_shm.cpp, and what the files share
// in fake_state.h.
#include <cuda_runtime_api.h>

#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "fake_activity.h"
#include "fake_shm.h"
#include "fake_state.h"

// ---- the state the fake's files share (fake_state.h) ------------------------------------------------------------

namespace fakecuda {
namespace {

cudaError_t& last_error() {
  static cudaError_t e = cudaSuccess;
  return e;
}

}  // namespace

std::mutex& lock() {
  static std::mutex m;
  return m;
}

cudaError_t& sticky_error() {
  static cudaError_t e = cudaSuccess;
  return e;
}

cudaError_t fail(cudaError_t e) {
  last_error() = e;
  return e;
}

cudaError_t sticky_or(cudaError_t e) {
  if (sticky_error() != cudaSuccess) return fail(sticky_error());
  return e == cudaSuccess ? e : fail(e);
}

std::map<void*, allocation>& allocations() {
  static std::map<void*, allocation> a;
  return a;
}

std::map<void*, opened_allocation>& opened_allocations() {
  static std::map<void*, opened_allocation> o;
  return o;
}

bool device_range(const void* ptr, char** base, std::size_t* bytes) {
  const auto* p = static_cast<const char*>(ptr);
  auto within = [&](const auto& ranges, auto size_of) {
    auto it = ranges.upper_bound(const_cast<char*>(p));
    if (it == ranges.begin()) return false;
    --it;
    const std::size_t size = size_of(it->second);
    if (p >= static_cast<const char*>(it->first) + size) return false;
    *base = static_cast<char*>(it->first);
    *bytes = size;
    return true;
  };
  return within(allocations(), [](const allocation& a) { return a.bytes; }) ||
         within(opened_allocations(), [](const opened_allocation& o) { return o.shared.bytes; });
}

}  // namespace fakecuda

using fakecuda::allocation;
using fakecuda::allocations;
using fakecuda::device_range;
using fakecuda::fail;
using fakecuda::fake_event;
using fakecuda::last_error;
using fakecuda::lock;
using fakecuda::shared_event_state;
using fakecuda::sticky_error;
using fakecuda::sticky_or;

extern "C" bool is_pinned_unlocked(const void* ptr);  // below, with the pinned ranges; REQUIRES lock() held

namespace {

// ---- this file's state: the environment's settings, the device, streams, events' records -----------

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

// The GPUs this process sees, by their numbers on the fake host: FAKECUDA_GPUS of them, filtered by
// CUDA_VISIBLE_DEVICES up to its first entry that names none.
std::vector<int> visible_gpus() {
  const char* count_text = std::getenv("FAKECUDA_GPUS");
  const int count = count_text ? std::atoi(count_text) : 1;
  std::vector<int> gpus;
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  if (!visible) {
    for (int g = 0; g < count; ++g) gpus.push_back(g);
    return gpus;
  }
  std::string list = visible;
  for (std::size_t start = 0; start <= list.size();) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string entry = list.substr(start, comma - start);
    char* end = nullptr;
    const long g = std::strtol(entry.c_str(), &end, 10);
    if (entry.empty() || *end != '\0' || g < 0 || g >= count) break;
    gpus.push_back(int(g));
    start = comma + 1;
  }
  return gpus;
}

bool no_such_device(int device) { return device < 0 || device >= int(visible_gpus().size()); }

std::uint64_t env_number(const char* name, std::uint64_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::strtoull(v, nullptr, 10) : fallback;
}

double copy_gbps() {
  const char* v = std::getenv("FAKECUDA_GBPS");
  return v != nullptr && *v != '\0' ? std::strtod(v, nullptr) : 10.0;
}

double launch_gap_ms() {
  const char* v = std::getenv("FAKECUDA_LAUNCH_GAP_MS");
  return v != nullptr && *v != '\0' ? std::strtod(v, nullptr) : 0.0;
}

double switch_ms() {
  const char* v = std::getenv("FAKECUDA_SWITCH_MS");
  return v != nullptr && *v != '\0' ? std::strtod(v, nullptr) : 0.0;
}

double launch_ms() {
  const char* v = std::getenv("FAKECUDA_MS");
  return v != nullptr && *v != '\0' ? std::strtod(v, nullptr) : 0.5;
}

std::uint64_t device_memory() { return env_number("FAKECUDA_MEMORY", std::uint64_t(2) << 30); }

std::uint64_t persisting_l2_most() { return env_number("FAKECUDA_PERSISTING_L2", std::uint64_t(75) << 19); }

std::size_t& persisting_set_aside() {  // cudaLimitPersistingL2CacheSize
  static std::size_t bytes = 0;
  return bytes;
}

std::uint64_t allocated_bytes() {
  std::uint64_t total = 0;
  for (const auto& [p, a] : allocations()) total += a.bytes;
  return total;
}

// The last work a stream was given, as the H100 places an event wait after it (submission_process.cpp).
enum class last_work { none, device_to_host, other };

// The event time a stream's work has taken so far: events record it, and elapsed time is the difference.
struct fake_stream {
  double ms = 0;
  last_work last = last_work::none;
  cudaAccessPolicyWindow window{};                  // cudaStreamAttributeAccessPolicyWindow, as set
  const volatile std::uint32_t* held_by = nullptr;  // the release flag of the blocking kernel holding it
  bool capturing = false;                           // between cudaStreamBeginCapture and cudaStreamEndCapture
  bool capture_broken = false;                      // a call the capture refuses was made during it
  double captured_ms = 0;                           // the event time of the work captured so far
  double time_of(std::size_t bytes) const { return double(bytes) / (copy_gbps() * 1e9) * 1e3; }
  void copied(std::size_t bytes) { ms += time_of(bytes); }
};
// The stream this thread captures (cudaStreamCaptureModeThreadLocal), null when none.
thread_local fake_stream* capturing_here = nullptr;

// A graph of captured work, and its instantiation: their event time, which a launch of it adds to its stream.
struct fake_graph {
  double ms = 0;
};
fake_stream& default_stream() {
  static fake_stream s;
  return s;
}
// Whether a blocking kernel holds the stream still: its release flag is there (its pinned memory not unregistered
// and unmapped) and not yet set. REQUIRES lock() held.
bool still_held(const fake_stream& s) {
  return s.held_by != nullptr && is_pinned_unlocked(const_cast<const std::uint32_t*>(s.held_by)) && *s.held_by == 0;
}

fake_stream& stream_of(cudaStream_t s) { return s == nullptr ? default_stream() : *reinterpret_cast<fake_stream*>(s); }

// A call on `s` that a capture on this thread refuses, as the real runtime does: the legacy stream while another
// stream captures (cudaErrorStreamCaptureImplicit), or a call that a capturing stream cannot record (`refused`).
// The capture is then broken (its end gives cudaErrorStreamCaptureInvalidated). cudaSuccess when none is refused.
cudaError_t refused_by_capture(cudaStream_t s, bool records = true) {
  if (capturing_here == nullptr) return cudaSuccess;
  if (s == nullptr) {
    capturing_here->capture_broken = true;
    return cudaErrorStreamCaptureImplicit;
  }
  if (!records && stream_of(s).capturing) {
    stream_of(s).capture_broken = true;
    return cudaErrorStreamCaptureUnsupported;
  }
  return cudaSuccess;
}

// Events recorded on a stream after it waited on an interprocess event: a wait on one waits on the other process.
std::set<const fake_event*>& events_behind_across() {
  static std::set<const fake_event*> e;
  return e;
}
// Waits on such an event by a stream whose last work was not a device-to-host copy (fakecuda_waits_holding_gpu).
int waits_holding_gpu = 0;

void record_time(fake_event& e, double ms) {
  if (e.shared != nullptr) {
    e.shared->ms.store(ms, std::memory_order_relaxed);
    e.shared->recorder.store(static_cast<std::int32_t>(getpid()), std::memory_order_relaxed);
    e.shared->recorded.store(1, std::memory_order_release);
  } else {
    e.ms = ms;
    e.recorded = true;
  }
}

// The stream time of the event's latest record; false where it was never recorded.
bool recorded_time(const fake_event& e, double* ms) {
  if (e.shared != nullptr) {
    if (e.shared->recorded.load(std::memory_order_acquire) == 0) return false;
    *ms = e.shared->ms.load(std::memory_order_relaxed);
    return true;
  }
  *ms = e.ms;
  return e.recorded;
}

// The streams of this process that have waited on an interprocess event (fakecuda_streams_waiting_across).
std::set<cudaStream_t>& streams_waiting_across() {
  static std::set<cudaStream_t> s;
  return s;
}

bool hang_pending = false;  // a launch happened under FAKECUDA_HANG_SYNC

[[noreturn]] void hang() {
  for (;;) pause();
}

void wait_for_work() {
  if (hang_pending) hang();
}

// ---- the fake CUPTI's hook ----------------------------------------------------------------------------

fakecuda_activity_hook& activity_hook() {
  static fakecuda_activity_hook h = nullptr;
  return h;
}

void report(const fakecuda_activity& a) {
  if (activity_hook() != nullptr) activity_hook()(&a);
}

void report_copy(int kind, std::size_t bytes, int copy_kind, cudaStream_t stream) {
  fakecuda_activity a{};
  a.kind = kind;
  a.name = "";
  a.stream = stream;
  a.bytes = bytes;
  a.copy_kind = copy_kind;
  report(a);
}

// ---- kernels: registered names, and host loops for the fake labs' kernels --------------------------

struct kernel {
  std::string device_name;  // the mangled name nvcc registered
};

std::map<const void*, kernel>& kernels() {  // by host function
  static std::map<const void*, kernel> k;
  return k;
}

struct launch_config {
  dim3 grid, block;
  std::size_t shared = 0;
  cudaStream_t stream = nullptr;
};
thread_local std::vector<launch_config> configs;

bool named(const kernel& k, const char* lab, const char* function) {
  return k.device_name.find(lab) != std::string::npos && k.device_name.find(function) != std::string::npos;
}

template <class T>
T arg(void** args, int i) {
  T v;
  std::memcpy(&v, args[i], sizeof v);
  return v;
}

// Runs what the fake labs' kernels compute (tests/fake_labs): so a run of them verifies in CI.
void run_on_host(const kernel& k, void** args) {
  if (named(k, "testlab", "copy_kernel") || named(k, "faultlab", "copy_kernel")) {
    const auto* in = arg<const float*>(args, 0);
    auto* out = arg<float*>(args, 1);
    const auto n = arg<std::uint64_t>(args, 2);
    for (std::uint64_t i = 0; i < n; ++i) out[i] = in[i];
  } else if (named(k, "testlab", "scale_kernel")) {
    const auto* in = arg<const float*>(args, 0);
    auto* out = arg<float*>(args, 1);
    const auto n = arg<std::uint64_t>(args, 2);
    const int rounds = arg<int>(args, 3);
    for (std::uint64_t i = 0; i < n; ++i) {
      float v = in[i];
      for (int r = 0; r < rounds; ++r) v = v * 0.5f;
      out[i] = v;
    }
  } else if (named(k, "faultlab", "wrong_value_kernel")) {
    const auto* in = arg<const float*>(args, 0);
    auto* out = arg<float*>(args, 1);
    const auto n = arg<std::uint64_t>(args, 2);
    for (std::uint64_t i = 0; i < n; ++i) out[i] = in[i] + 1.0f;
  } else if (named(k, "faultlab", "oob_write_kernel")) {
    sticky_error() = cudaErrorIllegalAddress;
  } else if (named(k, "faultlab", "spin_forever_kernel")) {
    hang_pending = true;
  } else if (named(k, "checksum_kernel", "")) {
    // cudalab's input checksums (core/src/device/checksum.cu): FNV-1a of the bytes stands in for its mix,
    // which is compared only with itself, so that a changed input is seen on the fake too.
    const auto* bytes = arg<const unsigned char*>(args, 0);
    const auto count = arg<std::size_t>(args, 1);
    auto* sum = arg<unsigned long long*>(args, 2);
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::size_t i = 0; i < count; ++i) h = (h ^ bytes[i]) * 0x100000001b3ull;
    *sum += h;
  }
  // Any other kernel does nothing: its outputs keep what they held.
}

cudaError_t launch(const void* host_fun_or_handle, bool by_handle, dim3 grid, dim3 block, void** args,
                   cudaStream_t stream) {
  std::lock_guard<std::mutex> g(lock());
  if (sticky_error() != cudaSuccess) return fail(sticky_error());
  const std::uint64_t threads = std::uint64_t(block.x) * block.y * block.z;
  if (threads == 0 || threads > 1024 || grid.x == 0 || grid.y == 0 || grid.z == 0)
    return fail(cudaErrorInvalidConfiguration);
  static bool first = true;
  if (first) {
    first = false;
    if (env_flag("FAKECUDA_SEGV_LAUNCH")) std::raise(SIGSEGV);
    if (const std::uint64_t spew = env_number("FAKECUDA_SPEW", 0)) {
      std::string bytes(spew, 'x');
      std::fwrite(bytes.data(), 1, bytes.size(), stdout);
      std::fflush(stdout);
    }
    if (env_flag("FAKECUDA_STICKY")) sticky_error() = cudaErrorIllegalAddress;
  }
  if (const cudaError_t e = refused_by_capture(stream); e != cudaSuccess) return fail(e);
  if (stream != nullptr && stream_of(stream).capturing) {  // recorded, not run: a graph launch takes its time
    stream_of(stream).captured_ms += launch_ms();
    return cudaSuccess;
  }
  if (env_flag("FAKECUDA_HANG_SYNC")) hang_pending = true;
  const kernel* k = nullptr;
  if (by_handle) {
    k = static_cast<const kernel*>(host_fun_or_handle);
  } else {
    const auto it = kernels().find(host_fun_or_handle);
    if (it != kernels().end()) k = &it->second;
  }
  if (k != nullptr) run_on_host(*k, args);
  fake_stream& on = stream_of(stream);
  on.last = last_work::other;
  // The host's launch interval, and whether the GPU had to wait for it (blocking_kernel.cu's flags).
  const double gap_ms = launch_gap_ms();
  if (gap_ms > 0) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double, std::milli>(gap_ms);
    while (std::chrono::steady_clock::now() < until) {
    }
  }
  if (k != nullptr && named(*k, "cudalab_blocking_kernel", "")) {
    on.held_by = arg<const std::uint32_t*>(args, 0);
    on.ms += launch_ms();
  } else {
    // A blocker whose flag is gone (its pinned memory unregistered and unmapped) holds nothing any more.
    if (!still_held(on)) on.held_by = nullptr;
    on.ms += on.held_by != nullptr ? launch_ms() : std::max(launch_ms(), gap_ms);
  }
  fakecuda_activity a{};
  a.kind = 0;
  a.name = k != nullptr ? k->device_name.c_str() : "";
  a.stream = stream;
  a.grid[0] = grid.x, a.grid[1] = grid.y, a.grid[2] = grid.z;
  a.block[0] = block.x, a.block[1] = block.y, a.block[2] = block.z;
  report(a);
  return cudaSuccess;
}

const char* error_name(cudaError_t e) {
  switch (e) {
    case cudaSuccess:
      return "cudaSuccess";
    case cudaErrorInvalidValue:
      return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation:
      return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidConfiguration:
      return "cudaErrorInvalidConfiguration";
    case cudaErrorNoDevice:
      return "cudaErrorNoDevice";
    case cudaErrorIllegalAddress:
      return "cudaErrorIllegalAddress";
    case cudaErrorInvalidResourceHandle:
      return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady:
      return "cudaErrorNotReady";
    case cudaErrorDeviceUninitialized:
      return "cudaErrorDeviceUninitialized";
    case cudaErrorMapBufferObjectFailed:
      return "cudaErrorMapBufferObjectFailed";
    case cudaErrorNotSupported:
      return "cudaErrorNotSupported";
    case cudaErrorStreamCaptureUnsupported:
      return "cudaErrorStreamCaptureUnsupported";
    case cudaErrorStreamCaptureInvalidated:
      return "cudaErrorStreamCaptureInvalidated";
    case cudaErrorStreamCaptureImplicit:
      return "cudaErrorStreamCaptureImplicit";
    case cudaErrorIllegalState:
      return "cudaErrorIllegalState";
    default:
      return "cudaErrorUnknown";
  }
}

const char* error_text(cudaError_t e) {
  switch (e) {
    case cudaSuccess:
      return "no error";
    case cudaErrorInvalidValue:
      return "invalid argument";
    case cudaErrorMemoryAllocation:
      return "out of memory";
    case cudaErrorInvalidConfiguration:
      return "invalid configuration argument";
    case cudaErrorNoDevice:
      return "no CUDA-capable device is detected";
    case cudaErrorIllegalAddress:
      return "an illegal memory access was encountered";
    case cudaErrorInvalidResourceHandle:
      return "invalid resource handle";
    case cudaErrorNotReady:
      return "device not ready";
    case cudaErrorDeviceUninitialized:
      return "invalid device context";
    case cudaErrorMapBufferObjectFailed:
      return "mapping of buffer object failed";
    case cudaErrorNotSupported:
      return "operation not supported";
    case cudaErrorStreamCaptureUnsupported:
      return "operation not permitted when stream is capturing";
    case cudaErrorStreamCaptureInvalidated:
      return "operation failed due to a previous error during capture";
    case cudaErrorStreamCaptureImplicit:
      return "operation would make the legacy stream depend on a capturing blocking stream";
    case cudaErrorIllegalState:
      return "operation not permitted in the current state";
    default:
      return "unknown error (fake CUDA runtime)";
  }
}

}  // namespace

extern "C" {

void fakecuda_set_activity_hook(fakecuda_activity_hook hook) { activity_hook() = hook; }
int fakecuda_streams_waiting_across() {
  std::lock_guard<std::mutex> g(lock());
  return static_cast<int>(streams_waiting_across().size());
}
int fakecuda_stream_waited_across(void* stream) {
  std::lock_guard<std::mutex> g(lock());
  return static_cast<int>(streams_waiting_across().count(static_cast<cudaStream_t>(stream)));
}
int fakecuda_waits_holding_gpu() {
  std::lock_guard<std::mutex> g(lock());
  return waits_holding_gpu;
}

// ---- registration, as nvcc's generated code calls it ------------------------------------------------
// The runtime's own entry points: their reserved names are the ones nvcc's generated code calls.
// NOLINTBEGIN(bugprone-reserved-identifier)

void** __cudaRegisterFatBinary(void* fat_cubin) {
  static void* handle = nullptr;
  handle = fat_cubin;
  return &handle;
}
void __cudaRegisterFatBinaryEnd(void**) {}
// Referenced by nvcc's registration code when the host side is built without optimisation (a student's
// launcher library): there is no module to initialise here.
char __cudaInitModule(void**) { return 1; }
void __cudaUnregisterFatBinary(void**) {}
void __cudaRegisterVar(void**, char*, char*, const char*, int, size_t, int, int) {}
void __cudaRegisterFunction(void**, const char* host_fun, char*, const char* device_name, int, uint3*, uint3*, dim3*,
                            dim3*, int*) {
  std::lock_guard<std::mutex> g(lock());
  kernels()[host_fun] = kernel{device_name};
}

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, struct CUstream_st* stream) {
  configs.push_back({grid, block, shared, stream});
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3* grid, dim3* block, size_t* shared, void* stream) {
  if (configs.empty()) return cudaErrorInvalidValue;
  const launch_config c = configs.back();
  configs.pop_back();
  *grid = c.grid;
  *block = c.block;
  *shared = c.shared;
  *static_cast<cudaStream_t*>(stream) = c.stream;
  return cudaSuccess;
}

cudaError_t __cudaGetKernel(cudaKernel_t* handle, const void* host_fun) {
  std::lock_guard<std::mutex> g(lock());
  auto it = kernels().find(host_fun);
  if (it == kernels().end()) it = kernels().emplace(host_fun, kernel{}).first;
  *handle = reinterpret_cast<cudaKernel_t>(&it->second);
  return cudaSuccess;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t handle, dim3 grid, dim3 block, void** args, size_t, cudaStream_t stream) {
  return launch(handle, true, grid, block, args, stream);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t handle, dim3 grid, dim3 block, void** args, size_t,
                                    cudaStream_t stream) {
  return launch(handle, true, grid, block, args, stream);
}
// NOLINTEND(bugprone-reserved-identifier)

cudaError_t cudaLaunchKernel(const void* fun, dim3 grid, dim3 block, void** args, size_t, cudaStream_t stream) {
  return launch(fun, false, grid, block, args, stream);
}

// The versions a CUDA 13 runtime on a CUDA 13 driver gives.
cudaError_t cudaRuntimeGetVersion(int* version) {
  *version = 13000;
  return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int* version) {
  *version = 13000;
  return cudaSuccess;
}

// A CUBIN holds device code the fake cannot run: loading one is refused, as on a GPU too old for it.
cudaError_t cudaLibraryLoadData(cudaLibrary_t*, const void*, cudaJitOption*, void**, unsigned int, cudaLibraryOption*,
                                void**, unsigned int) {
  return fail(cudaErrorNoKernelImageForDevice);
}
cudaError_t cudaLibraryGetKernel(cudaKernel_t*, cudaLibrary_t, const char*) {
  return fail(cudaErrorInvalidResourceHandle);
}

// ---- errors ---------------------------------------------------------------------------------------------

const char* cudaGetErrorName(cudaError_t e) { return error_name(e); }
const char* cudaGetErrorString(cudaError_t e) { return error_text(e); }
cudaError_t cudaPeekAtLastError() { return sticky_error() != cudaSuccess ? sticky_error() : last_error(); }
cudaError_t cudaGetLastError() {
  if (sticky_error() != cudaSuccess) return sticky_error();
  const cudaError_t e = last_error();
  last_error() = cudaSuccess;
  return e;
}

// ---- devices ----------------------------------------------------------------------------------------------

cudaError_t cudaGetDeviceCount(int* count) {
  if (env_flag("FAKECUDA_HANG_PROBE")) hang();
  if (env_flag("FAKECUDA_NO_DEVICE")) {
    *count = 0;
    return fail(cudaErrorNoDevice);
  }
  *count = int(visible_gpus().size());
  return *count > 0 ? cudaSuccess : fail(cudaErrorNoDevice);
}

cudaError_t cudaSetDevice(int device) {
  return sticky_or(no_such_device(device) ? cudaErrorInvalidDevice : cudaSuccess);
}
cudaError_t cudaGetDevice(int* device) {
  *device = 0;
  return sticky_or(cudaSuccess);
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (no_such_device(device)) return fail(cudaErrorInvalidDevice);
  *prop = cudaDeviceProp{};
  const int gpu = visible_gpus()[std::size_t(device)];
  if (gpu == 0)
    std::snprintf(prop->name, sizeof prop->name, "Fake GPU (cudalab's test double)");
  else
    std::snprintf(prop->name, sizeof prop->name, "Fake GPU %d (cudalab's test double)", gpu);
  prop->major = 9;
  prop->minor = 0;
  prop->multiProcessorCount = 132;
  prop->totalGlobalMem = device_memory();
  prop->l2CacheSize = 50 << 20;
  prop->sharedMemPerBlock = 48 << 10;
  prop->sharedMemPerBlockOptin = 227 << 10;
  prop->maxThreadsPerBlock = 1024;
  prop->maxThreadsPerMultiProcessor = 2048;
  prop->warpSize = 32;
  prop->memoryBusWidth = 5120;
  prop->canMapHostMemory = 1;
  return sticky_or(cudaSuccess);
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (no_such_device(device)) return fail(cudaErrorInvalidDevice);
  switch (attr) {
    case cudaDevAttrMemoryClockRate:
      *value = 2619000;
      break;
    case cudaDevAttrMultiProcessorCount:
      *value = 132;
      break;
    case cudaDevAttrMaxThreadsPerMultiProcessor:
      *value = 2048;
      break;
    case cudaDevAttrMaxThreadsPerBlock:
      *value = 1024;
      break;
    case cudaDevAttrWarpSize:
      *value = 32;
      break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
      *value = 227 << 10;
      break;
    case cudaDevAttrL2CacheSize:
      *value = 50 << 20;
      break;
    case cudaDevAttrGlobalMemoryBusWidth:
      *value = 5120;
      break;
    case cudaDevAttrMaxPersistingL2CacheSize:
      *value = static_cast<int>(persisting_l2_most());
      break;
    default:
      *value = 0;
      break;
  }
  return sticky_or(cudaSuccess);
}

cudaError_t cudaDeviceGetPCIBusId(char* pci_bus_id, int length, int device) {
  if (no_such_device(device)) return fail(cudaErrorInvalidDevice);
  if (pci_bus_id == nullptr || length < 13) return fail(cudaErrorInvalidValue);
  std::snprintf(pci_bus_id, std::size_t(length), "0000:%02x:00.0", 0x18 + visible_gpus()[std::size_t(device)]);
  return sticky_or(cudaSuccess);
}

cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  std::lock_guard<std::mutex> g(lock());
  *total_bytes = device_memory();
  *free_bytes = device_memory() - std::min<std::uint64_t>(device_memory(), allocated_bytes());
  return sticky_or(cudaSuccess);
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void*) {
  *attr = cudaFuncAttributes{};
  attr->maxThreadsPerBlock = 1024;
  attr->numRegs = 32;
  return sticky_or(cudaSuccess);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, const void*, int block_size, size_t,
                                                                   unsigned) {
  *blocks = block_size > 0 ? std::max(1, 2048 / block_size) : 0;
  return sticky_or(cudaSuccess);
}

// ---- memory (host memory throughout; device allocations in shared memory, for CUDA IPC) --------------------

cudaError_t cudaMalloc(void** ptr, size_t bytes) {
  std::lock_guard<std::mutex> g(lock());
  *ptr = nullptr;
  if (sticky_error() != cudaSuccess) return fail(sticky_error());
  const std::uint64_t limit = env_number("FAKECUDA_MALLOC_FAIL_ABOVE", UINT64_MAX);
  if (bytes > limit || allocated_bytes() + bytes > device_memory()) return fail(cudaErrorMemoryAllocation);
  allocation a{bytes, {}};
  void* p = nullptr;
  if (bytes > 0 && fakecuda::shm_create(bytes, a.shared))
    p = a.shared.address;
  else
    p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);  // no room in /dev/shm: no other process can open it
  if (p == nullptr) return fail(cudaErrorMemoryAllocation);
  allocations()[p] = std::move(a);
  *ptr = p;
  return cudaSuccess;
}

// Memory that is no allocation (an opened IPC mapping among it) is refused, as the real runtime does.
cudaError_t cudaFree(void* ptr) {
  std::lock_guard<std::mutex> g(lock());
  if (ptr == nullptr) return cudaSuccess;
  const auto it = allocations().find(ptr);
  if (it == allocations().end()) return fail(cudaErrorInvalidValue);
  if (it->second.shared.address != nullptr)
    fakecuda::shm_release(it->second.shared, true);
  else
    std::free(ptr);
  allocations().erase(it);
  return cudaSuccess;
}

// Host memory the device maps: what cudaHostAlloc gave and what cudaHostRegister pinned, by start and size
// (with unified addressing, every pinned allocation is mapped, at the same address).
std::map<const char*, std::size_t>& pinned_ranges() {
  static std::map<const char*, std::size_t> r;
  return r;
}
bool is_pinned(const void* ptr) {
  std::lock_guard<std::mutex> g(lock());
  return is_pinned_unlocked(ptr);
}
bool is_pinned_unlocked(const void* ptr) {
  const auto* p = static_cast<const char*>(ptr);
  auto it = pinned_ranges().upper_bound(p);
  if (it == pinned_ranges().begin()) return false;
  --it;
  return p < it->first + it->second;
}

cudaError_t cudaHostAlloc(void** ptr, size_t bytes, unsigned) {
  *ptr = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
  if (*ptr == nullptr) return fail(cudaErrorMemoryAllocation);
  std::lock_guard<std::mutex> g(lock());
  pinned_ranges()[static_cast<const char*>(*ptr)] = bytes;
  return sticky_or(cudaSuccess);
}
cudaError_t cudaMallocHost(void** ptr, size_t bytes) { return cudaHostAlloc(ptr, bytes, 0); }
cudaError_t cudaFreeHost(void* ptr) {
  {
    std::lock_guard<std::mutex> g(lock());
    pinned_ranges().erase(static_cast<const char*>(ptr));
  }
  std::free(ptr);
  return cudaSuccess;
}
cudaError_t cudaHostRegister(void* ptr, size_t bytes, unsigned) {
  std::lock_guard<std::mutex> g(lock());
  pinned_ranges()[static_cast<const char*>(ptr)] = bytes;
  return sticky_or(cudaSuccess);
}
cudaError_t cudaHostUnregister(void* ptr) {
  std::lock_guard<std::mutex> g(lock());
  pinned_ranges().erase(static_cast<const char*>(ptr));
  return cudaSuccess;
}
// Pageable memory has no device address: cudaErrorInvalidValue, as the real runtime says.
cudaError_t cudaHostGetDevicePointer(void** device_ptr, void* host_ptr, unsigned) {
  if (!is_pinned(host_ptr)) return fail(cudaErrorInvalidValue);
  *device_ptr = host_ptr;
  return sticky_or(cudaSuccess);
}

// As the real runtime since CUDA 11: pageable memory is no error, its type says what it is.
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  *attributes = cudaPointerAttributes{};
  bool on_device = false;
  {
    std::lock_guard<std::mutex> g(lock());
    char* base = nullptr;
    std::size_t bytes = 0;
    on_device = device_range(ptr, &base, &bytes);
  }
  if (on_device) {
    attributes->type = cudaMemoryTypeDevice;
    attributes->devicePointer = const_cast<void*>(ptr);
  } else if (is_pinned(ptr)) {
    attributes->type = cudaMemoryTypeHost;
    attributes->hostPointer = const_cast<void*>(ptr);
    attributes->devicePointer = const_cast<void*>(ptr);
  } else {
    attributes->type = cudaMemoryTypeUnregistered;
  }
  return sticky_or(cudaSuccess);
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, cudaStream_t stream) {
  if (sticky_error() != cudaSuccess) return fail(sticky_error());
  if (const cudaError_t e = refused_by_capture(stream); e != cudaSuccess) return fail(e);
  if (stream != nullptr && stream_of(stream).capturing) {
    stream_of(stream).captured_ms += stream_of(stream).time_of(bytes);
    return cudaSuccess;
  }
  if (bytes > 0 && bytes <= env_number("FAKECUDA_SKIP_COPIES_ABOVE", UINT64_MAX)) std::memmove(dst, src, bytes);
  stream_of(stream).copied(bytes);
  stream_of(stream).last = kind == cudaMemcpyDeviceToHost ? last_work::device_to_host : last_work::other;
  report_copy(1, bytes, int(kind), stream);
  return cudaSuccess;
}
cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  const cudaError_t e = cudaMemcpyAsync(dst, src, bytes, kind, nullptr);
  if (e == cudaSuccess) wait_for_work();
  return e;
}
cudaError_t cudaMemsetAsync(void* dst, int byte, size_t bytes, cudaStream_t stream) {
  if (sticky_error() != cudaSuccess) return fail(sticky_error());
  if (const cudaError_t e = refused_by_capture(stream); e != cudaSuccess) return fail(e);
  if (stream != nullptr && stream_of(stream).capturing) {
    stream_of(stream).captured_ms += stream_of(stream).time_of(bytes);
    return cudaSuccess;
  }
  if (bytes > 0 && bytes <= env_number("FAKECUDA_SKIP_COPIES_ABOVE", UINT64_MAX)) std::memset(dst, byte, bytes);
  stream_of(stream).copied(bytes);
  stream_of(stream).last = last_work::other;
  report_copy(2, bytes, 0, stream);
  return cudaSuccess;
}
cudaError_t cudaMemset(void* dst, int byte, size_t bytes) { return cudaMemsetAsync(dst, byte, bytes, nullptr); }

// ---- streams and events --------------------------------------------------------------------------------------

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned) {
  *stream = reinterpret_cast<cudaStream_t>(new fake_stream);
  return sticky_or(cudaSuccess);
}
cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, 0); }
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  {
    std::lock_guard<std::mutex> g(lock());  // a stream made later at the same address has waited on nothing
    streams_waiting_across().erase(stream);
  }
  delete reinterpret_cast<fake_stream*>(stream);
  return cudaSuccess;
}
// Waiting for a stream that cudalab's blocking kernel holds waits, on the GPU, until the kernel's timeout: it
// then says so in its second flag and lets the stream go on.
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (const cudaError_t e = refused_by_capture(stream, false); e != cudaSuccess) return fail(e);
  {
    std::lock_guard<std::mutex> g(lock());
    fake_stream& on = stream_of(stream);
    if (still_held(on)) const_cast<volatile std::uint32_t*>(on.held_by)[1] = 1;
    on.held_by = nullptr;
  }
  wait_for_work();
  return sticky_or(cudaSuccess);
}
// A host function runs when the stream reaches it: at once, as the fake's work completes at once.
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* user_data) {
  if (fn == nullptr) return fail(cudaErrorInvalidValue);
  if (const cudaError_t e = refused_by_capture(stream, false); e != cudaSuccess) return fail(e);
  fn(user_data);
  return sticky_or(cudaSuccess);
}
cudaError_t cudaDeviceSynchronize() {
  if (capturing_here != nullptr) {
    capturing_here->capture_broken = true;
    return fail(cudaErrorStreamCaptureUnsupported);
  }
  wait_for_work();
  return sticky_or(cudaSuccess);
}
// The stream's later work starts after the event's latest record: its clock moves on to that time, if it is behind
// (another stream's, or another process's for an interprocess event). An event never recorded holds nothing up.
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags) {
  if (event == nullptr) return fail(cudaErrorInvalidResourceHandle);
  if (const cudaError_t e = refused_by_capture(stream, false); e != cudaSuccess) return fail(e);
  if ((flags & ~unsigned(cudaEventWaitExternal)) != 0) return fail(cudaErrorInvalidValue);
  if (reinterpret_cast<const fake_event*>(event)->shared != nullptr) {
    std::lock_guard<std::mutex> g(lock());
    streams_waiting_across().insert(stream);
  } else {
    std::lock_guard<std::mutex> g(lock());
    if (events_behind_across().count(reinterpret_cast<const fake_event*>(event)) &&
        stream_of(stream).last != last_work::device_to_host)
      ++waits_holding_gpu;
  }
  double ms = 0;
  const auto& e = *reinterpret_cast<const fake_event*>(event);
  if (recorded_time(e, &ms)) {
    if (e.shared != nullptr && e.shared->recorder.load(std::memory_order_relaxed) != getpid()) ms += switch_ms();
    stream_of(stream).ms = std::max(stream_of(stream).ms, ms);
  }
  return sticky_or(cudaSuccess);
}

// ---- stream capture and graphs ----------------------------------------------------------------------------------
// Work enqueued on a capturing stream is recorded, not run: its event time adds up, and a launch of the graph adds
// that time to its stream at once, the launches back to back (no launch gap: the GPU runs a graph without the
// host). A graph launch computes nothing (the fake labs' host loops do not run again). A capture records only
// kernel launches, copies and memsets on the capturing stream: a synchronisation, a host function, an event record
// or wait on it, or the legacy stream meanwhile, break it, as some of them do on the real runtime.

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode) {
  if (stream == nullptr) return fail(cudaErrorStreamCaptureUnsupported);
  fake_stream& on = stream_of(stream);
  if (on.capturing || capturing_here != nullptr) return fail(cudaErrorIllegalState);
  on.capturing = true;
  on.capture_broken = false;
  on.captured_ms = 0;
  capturing_here = &on;
  return sticky_or(cudaSuccess);
}
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph) {
  if (stream == nullptr || !stream_of(stream).capturing) return fail(cudaErrorIllegalState);
  fake_stream& on = stream_of(stream);
  on.capturing = false;
  capturing_here = nullptr;
  *graph = nullptr;
  if (on.capture_broken) return fail(cudaErrorStreamCaptureInvalidated);
  *graph = reinterpret_cast<cudaGraph_t>(new fake_graph{on.captured_ms});
  return sticky_or(cudaSuccess);
}
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long) {
  if (graph == nullptr) return fail(cudaErrorInvalidValue);
  *exec = reinterpret_cast<cudaGraphExec_t>(new fake_graph{reinterpret_cast<fake_graph*>(graph)->ms});
  return sticky_or(cudaSuccess);
}
cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t) {
  return exec == nullptr ? fail(cudaErrorInvalidValue) : sticky_or(cudaSuccess);
}
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
  if (exec == nullptr) return fail(cudaErrorInvalidValue);
  if (const cudaError_t e = refused_by_capture(stream, false); e != cudaSuccess) return fail(e);
  fake_stream& on = stream_of(stream);
  on.ms += reinterpret_cast<fake_graph*>(exec)->ms;
  on.last = last_work::other;
  return sticky_or(cudaSuccess);
}
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
  delete reinterpret_cast<fake_graph*>(exec);
  return cudaSuccess;
}
cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  delete reinterpret_cast<fake_graph*>(graph);
  return cudaSuccess;
}

// ---- persisting L2: the set-aside, a stream's access policy window, the reset ---------------------------------

cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit) {
  if (limit != cudaLimitPersistingL2CacheSize) return fail(cudaErrorUnsupportedLimit);
  if (persisting_l2_most() == 0) return fail(cudaErrorUnsupportedLimit);
  std::lock_guard<std::mutex> g(lock());
  *value = persisting_set_aside();
  return sticky_or(cudaSuccess);
}
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  if (limit != cudaLimitPersistingL2CacheSize) return fail(cudaErrorUnsupportedLimit);
  if (persisting_l2_most() == 0) return fail(cudaErrorUnsupportedLimit);
  std::lock_guard<std::mutex> g(lock());
  persisting_set_aside() = std::min<std::size_t>(value, persisting_l2_most());  // the driver rounds and caps it
  return sticky_or(cudaSuccess);
}
cudaError_t cudaCtxResetPersistingL2Cache() {
  if (persisting_l2_most() == 0) return fail(cudaErrorNotSupported);
  return sticky_or(cudaSuccess);
}
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attr, cudaStreamAttrValue* value) {
  if (attr != cudaStreamAttributeAccessPolicyWindow) return fail(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> g(lock());
  *value = cudaStreamAttrValue{};
  value->accessPolicyWindow = stream_of(stream).window;
  return sticky_or(cudaSuccess);
}
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attr, const cudaStreamAttrValue* value) {
  if (attr != cudaStreamAttributeAccessPolicyWindow) return fail(cudaErrorInvalidValue);
  if (persisting_l2_most() == 0 && value->accessPolicyWindow.num_bytes > 0) return fail(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> g(lock());
  stream_of(stream).window = value->accessPolicyWindow;
  return sticky_or(cudaSuccess);
}

cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, cudaEventDefault); }
// An interprocess event keeps its record in a shared-memory object (another process opens it by name), or, where
// the system has none, in this process, and cudaIpcGetEventHandle refuses it.
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags) {
  const unsigned known = cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
  if ((flags & ~known) != 0) return fail(cudaErrorInvalidValue);
  if ((flags & cudaEventInterprocess) != 0 && (flags & cudaEventDisableTiming) == 0) return fail(cudaErrorInvalidValue);
  auto e = std::make_unique<fake_event>();
  e->flags = flags;
  if ((flags & cudaEventInterprocess) != 0 && fakecuda::shm_create(sizeof(shared_event_state), e->mapping)) {
    e->shared = new (e->mapping.address) shared_event_state{};
    e->created_here = true;
  }
  *event = reinterpret_cast<cudaEvent_t>(e.release());
  return sticky_or(cudaSuccess);
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  const auto* e = reinterpret_cast<fake_event*>(event);
  if (e != nullptr && e->shared != nullptr) fakecuda::shm_release(e->mapping, e->created_here);
  {
    std::lock_guard<std::mutex> g(lock());
    events_behind_across().erase(e);
  }
  delete e;
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (const cudaError_t e = refused_by_capture(stream, false); e != cudaSuccess) return fail(e);
  {
    std::lock_guard<std::mutex> g(lock());
    if (streams_waiting_across().count(stream))
      events_behind_across().insert(reinterpret_cast<const fake_event*>(event));
    else
      events_behind_across().erase(reinterpret_cast<const fake_event*>(event));
  }
  record_time(*reinterpret_cast<fake_event*>(event), stream_of(stream).ms);
  return sticky_or(cudaSuccess);
}
// Work completes at once, so an event has, unless a launch is to hang (FAKECUDA_HANG_SYNC).
cudaError_t cudaEventQuery(cudaEvent_t) {
  if (hang_pending) return fail(cudaErrorNotReady);
  return sticky_or(cudaSuccess);
}
cudaError_t cudaEventSynchronize(cudaEvent_t) {
  wait_for_work();
  return sticky_or(cudaSuccess);
}
// As the real runtime: an event created without timing (every interprocess one) times nothing.
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t stop) {
  const auto* a = reinterpret_cast<fake_event*>(start);
  const auto* b = reinterpret_cast<fake_event*>(stop);
  if (((a->flags | b->flags) & cudaEventDisableTiming) != 0) return fail(cudaErrorInvalidResourceHandle);
  double a_ms = 0, b_ms = 0;
  if (!recorded_time(*a, &a_ms) || !recorded_time(*b, &b_ms)) return fail(cudaErrorInvalidResourceHandle);
  *ms = static_cast<float>(b_ms - a_ms);
  return sticky_or(cudaSuccess);
}

}  // extern "C"
