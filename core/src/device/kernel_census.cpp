// The kernel census through CUPTI's activity API, loaded at run time with dlopen (kernel_census.hpp).
#include "device/kernel_census.hpp"

#include <cxxabi.h>
#include <dlfcn.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "device/cupti_api.hpp"

namespace cudalab::host {

using namespace cupti_api;

namespace {

// The CUPTI functions the census calls, from the first library that loads and has them all. Loaded once
// and never unloaded: CUPTI keeps hooks in the driver that outlive a dlclose (CUDA 13.0 and 13.1 crash
// at exit when it is closed).
struct cupti_library {
  std::string path;    ///< the library loaded
  std::string reason;  ///< why there is none ("" : loaded)
  cuptiGetResultString_fn result_string = nullptr;
  cuptiActivityRegisterCallbacks_fn register_callbacks = nullptr;
  cuptiActivityEnable_fn enable = nullptr;
  cuptiActivityDisable_fn disable = nullptr;
  cuptiActivityFlushAll_fn flush_all = nullptr;
  cuptiActivityGetNextRecord_fn next_record = nullptr;
  cuptiActivityGetNumDroppedRecords_fn dropped = nullptr;
  cuptiGetStreamIdEx_fn stream_id = nullptr;
  cuptiFinalize_fn finalize = nullptr;

  std::string error_text(const char* call, CUptiResult r) const {
    const char* text = nullptr;
    if (result_string == nullptr || result_string(r, &text) != CUPTI_SUCCESS || text == nullptr) text = "unknown error";
    return fmt::format("{}: {} (CUPTI error {})", call, text, r);
  }
};

// Where libcupti may be: the loader's path (LD_LIBRARY_PATH, the executable's RUNPATH, which holds the
// toolkit's library folder), the folder CMake found it in, and the toolkit's usual places.
std::vector<std::string> library_candidates() {
  const char* chosen = std::getenv("CUDALAB_CUPTI_LIBRARY");
  if (chosen != nullptr && *chosen != '\0') return {chosen};
  std::vector<std::string> out = {"libcupti.so.13"};
#ifdef CUDALAB_CUPTI_DIR
  out.push_back(std::string(CUDALAB_CUPTI_DIR) + "/libcupti.so.13");
#endif
  for (const char* dir : {"/usr/local/cuda/extras/CUPTI/lib64", "/usr/local/cuda/lib64",
                          "/usr/local/cuda/targets/x86_64-linux/lib", "/usr/local/cuda/targets/sbsa-linux/lib"})
    out.push_back(std::string(dir) + "/libcupti.so.13");
  out.push_back("libcupti.so");
  return out;
}

template <typename Fn>
bool find(void* library, Fn& fn, const char* name) {
  fn = reinterpret_cast<Fn>(::dlsym(library, name));  // POSIX: dlsym's pointer converts to a function's
  return fn != nullptr;
}

cupti_library load_library() {
  cupti_library lib;
  std::string first_error;
  for (const std::string& candidate : library_candidates()) {
    void* handle = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      if (first_error.empty()) {
        const char* e = ::dlerror();
        first_error = e != nullptr ? e : "cannot load " + candidate;
      }
      continue;
    }
    lib.path = candidate;
    const auto need = [&](auto& fn, const char* name) {
      if (find(handle, fn, name)) return true;
      lib.reason = fmt::format("{} has no function {}", candidate, name);
      return false;
    };
    if (need(lib.result_string, "cuptiGetResultString") &&
        need(lib.register_callbacks, "cuptiActivityRegisterCallbacks") && need(lib.enable, "cuptiActivityEnable") &&
        need(lib.disable, "cuptiActivityDisable") && need(lib.flush_all, "cuptiActivityFlushAll") &&
        need(lib.next_record, "cuptiActivityGetNextRecord") && need(lib.dropped, "cuptiActivityGetNumDroppedRecords") &&
        need(lib.stream_id, "cuptiGetStreamIdEx") && need(lib.finalize, "cuptiFinalize"))
      lib.reason.clear();
    return lib;  // the first library that loads decides: another one would be another CUPTI
  }
  const char* chosen = std::getenv("CUDALAB_CUPTI_LIBRARY");
  lib.reason = chosen != nullptr && *chosen != '\0'
                   ? "CUPTI cannot be loaded from CUDALAB_CUPTI_LIBRARY: " + first_error
                   : "CUPTI (the CUDA toolkit's libcupti.so.13) cannot be loaded: " + first_error +
                         " (set CUDALAB_CUPTI_LIBRARY to its path)";
  return lib;
}

const cupti_library& library() {
  static const cupti_library lib = load_library();
  return lib;
}

// Another CUDA tool in this process - compute-sanitizer, Nsight Systems or Compute, injected through
// the driver or LD_PRELOAD - holds CUPTI's one activity subscriber: the census stays out of its way.
std::string other_cuda_tool() {
  const char* injected = std::getenv("CUDA_INJECTION64_PATH");
  if (injected != nullptr && *injected != '\0')
    return fmt::format("another CUDA tool is attached to this process (CUDA_INJECTION64_PATH={})", injected);
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    for (const char* tool : {"libsanitizer-collection", "libTreeLauncher", "libToolsInjection"})
      if (line.find(tool) != std::string::npos)
        return fmt::format("another CUDA tool is loaded in this process ({})", line.substr(line.find('/')));
  return "";
}

std::string demangled(const char* name) {
  if (name == nullptr) return "(unnamed)";
  int status = 0;
  char* plain = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string out = status == 0 && plain != nullptr ? plain : name;
  std::free(plain);
  return out;
}

std::uint64_t duration(std::uint64_t start, std::uint64_t end) { return end > start ? end - start : 0; }

const char* kind_name(CUpti_ActivityKind kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      return "CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL";
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      return "CUPTI_ACTIVITY_KIND_MEMCPY";
    case CUPTI_ACTIVITY_KIND_MEMSET:
      return "CUPTI_ACTIVITY_KIND_MEMSET";
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
      return "CUPTI_ACTIVITY_KIND_MEMCPY2";
    default:
      return "?";
  }
}

// A record kept with its times, until finish() knows when the session stream finished.
template <typename Record>
struct timed {
  Record record;
  std::uint64_t start = 0, end = 0;
};

constexpr std::size_t buffer_bytes = std::size_t(4) << 20;

// CUPTI's memcpy kinds as the census names them ("H2D", "D2H", "D2D", "P2P", ...; "unknown").
const char* copy_kind_name(unsigned cupti_copy_kind) {
  switch (cupti_copy_kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
      return "H2D";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
      return "D2H";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
      return "H2A";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
      return "A2H";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
      return "A2A";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
      return "A2D";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
      return "D2A";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
      return "D2D";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
      return "H2H";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
      return "P2P";
    default:
      return "unknown";
  }
}

}  // namespace

// The memset finish() puts on the session stream once the run has finished there: the GPU stamps its start
// with the clock of every other record, so work that ends after it outlived the session stream's work. (CUPTI's
// cuptiGetTimestamp reads the CPU's clock, onto which CUPTI maps the GPU's times by interpolation afterwards: a
// comparison across the two clocks carries the interpolation's error, one within the records does not.) Its
// size is the tag it is found by; it is not part of the census.
constexpr std::size_t marker_bytes = 4;

struct detail::census_state {
  const cupti_library* lib = nullptr;
  kernel_census census;
  bool attached = false;  ///< CUPTI's callbacks are registered: detach() must run
  std::vector<CUpti_ActivityKind> enabled;
  std::vector<timed<census_kernel>> kernels;
  std::vector<timed<census_copy>> copies;
  cudaStream_t session = nullptr;
  void* marker = nullptr;                    ///< marker_bytes of device memory the marker sets
  std::optional<timed<census_copy>> marked;  ///< the marker's record, once delivered

  census_state() = default;
  census_state(const census_state&) = delete;
  census_state& operator=(const census_state&) = delete;
  ~census_state() {
    if (marker != nullptr) (void)cudaFree(marker);
  }

  void add(const CUpti_Activity* record);
  void detach();

  // A copy or memset record (CUpti_ActivityMemcpy or CUpti_ActivityMemset: the fields read are alike).
  template <typename Record>
  void add_copy(const char* kind, const Record& m) {
    timed<census_copy> t;
    t.record.kind = kind;
    t.record.bytes = m.bytes;
    t.record.stream = m.streamId;
    t.record.duration_ns = duration(m.start, m.end);
    t.start = m.start;
    t.end = m.end;
    // The marker is the last memset of its size on the session stream: the run's own (if any) started
    // before the session stream was waited for, so before the marker was even issued.
    if (std::string_view(kind) == "memset" && m.bytes == marker_bytes && m.streamId == census.session_stream) {
      if (!marked) {
        marked = std::move(t);
        return;
      }
      if (t.start > marked->start) std::swap(t, *marked);
    }
    ++census.copy_count;
    if (copies.size() < census_record_limit) copies.push_back(std::move(t));
  }
};

namespace {

// CUPTI's callbacks are plain functions: they find the census being taken here.
std::mutex& active_lock() {
  static std::mutex m;
  return m;
}
detail::census_state*& active() {
  static detail::census_state* a = nullptr;
  return a;
}

void buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, buffer_bytes));
  *size = *buffer != nullptr ? buffer_bytes : 0;
  *max_records = 0;  // as many as fit
}

void buffer_completed(CUcontext context, std::uint32_t stream, std::uint8_t* buffer, std::size_t, std::size_t valid) {
  {
    std::lock_guard<std::mutex> g(active_lock());
    detail::census_state* a = active();
    if (a != nullptr && buffer != nullptr) {
      CUpti_Activity* record = nullptr;
      while (a->lib->next_record(buffer, valid, &record) == CUPTI_SUCCESS && record != nullptr) a->add(record);
      std::size_t dropped = 0;
      if (a->lib->dropped(context, stream, &dropped) == CUPTI_SUCCESS) a->census.dropped_records += dropped;
    }
  }
  std::free(buffer);
}

}  // namespace

void detail::census_state::add(const CUpti_Activity* record) {
  switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel*>(record);
      ++census.kernel_count;
      if (kernels.size() >= census_record_limit) return;
      timed<census_kernel> t;
      t.record.name = demangled(k->name);
      t.record.stream = k->streamId;
      t.record.grid = {k->gridX, k->gridY, k->gridZ};
      t.record.block = {k->blockX, k->blockY, k->blockZ};
      t.record.registers = k->registersPerThread;
      t.record.static_shared_bytes = std::uint32_t(std::max(0, k->staticSharedMemory));
      t.record.dynamic_shared_bytes = std::uint32_t(std::max(0, k->dynamicSharedMemory));
      t.record.local_bytes_per_thread = k->localMemoryPerThread;
      t.record.duration_ns = duration(k->start, k->end);
      t.start = k->start;
      t.end = k->end;
      kernels.push_back(std::move(t));
      return;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY:
    case CUPTI_ACTIVITY_KIND_MEMCPY2: {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy*>(record);
      return add_copy(record->kind == CUPTI_ACTIVITY_KIND_MEMCPY2 ? "P2P" : copy_kind_name(m->copyKind), *m);
    }
    case CUPTI_ACTIVITY_KIND_MEMSET:
      return add_copy("memset", *reinterpret_cast<const CUpti_ActivityMemset*>(record));
    default:
      return;  // kinds the census did not enable
  }
}

// Everything CUPTI still holds delivered, recording stopped, CUPTI detached from the process. The caller
// has synchronised the device (cuptiFinalize's requirement, with the forced flush).
void detail::census_state::detach() {
  if (!attached) return;
  attached = false;
  lib->flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  for (const CUpti_ActivityKind kind : enabled) lib->disable(kind);
  enabled.clear();
  lib->finalize();
  std::lock_guard<std::mutex> g(active_lock());
  if (active() == this) active() = nullptr;
}

census_recording::census_recording(cudaStream_t session) : impl_(std::make_unique<detail::census_state>()) {
  detail::census_state& s = *impl_;
  s.census.taken = true;
  s.lib = &library();
  s.census.library = s.lib->path;
  if (std::string tool = other_cuda_tool(); !tool.empty()) {
    s.census.unavailable = tool;
    return;
  }
  if (!s.lib->reason.empty()) {
    s.census.unavailable = s.lib->reason;
    return;
  }
  s.session = session;
  const char* loading = std::getenv("CUDA_MODULE_LOADING");
  s.census.module_loading = loading != nullptr ? loading : "";
  if (const cudaError_t e = cudaMalloc(&s.marker, marker_bytes); e != cudaSuccess) {
    s.marker = nullptr;
    s.census.unavailable = fmt::format("cudaMalloc of the census's marker: {}", cudaGetErrorName(e));
    return;
  }
  {
    std::lock_guard<std::mutex> g(active_lock());
    if (active() != nullptr) {
      s.census.unavailable = "another census is being taken in this process";
      return;
    }
    active() = impl_.get();
  }
  const cupti_library& lib = *s.lib;
  std::string failed;
  CUptiResult r = lib.register_callbacks(buffer_requested, buffer_completed);
  if (r != CUPTI_SUCCESS) failed = lib.error_text("cuptiActivityRegisterCallbacks", r);
  s.attached = true;  // registered or not, CUPTI may be initialised: detach() finalizes it
  for (const CUpti_ActivityKind kind : {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                        CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_MEMCPY2}) {
    if (!failed.empty()) break;
    r = lib.enable(kind);
    if (r == CUPTI_SUCCESS)
      s.enabled.push_back(kind);
    else
      failed = lib.error_text(fmt::format("cuptiActivityEnable({})", kind_name(kind)).c_str(), r);
  }
  if (failed.empty()) {
    r = lib.stream_id(nullptr, session, 0, &s.census.session_stream);
    if (r != CUPTI_SUCCESS) failed = lib.error_text("cuptiGetStreamIdEx", r);
  }
  if (!failed.empty()) {
    s.census.unavailable = failed;
    s.detach();
  }
}

census_recording::~census_recording() {
  if (!impl_->attached) return;
  (void)cudaDeviceSynchronize();  // a run that threw: what it left running, then CUPTI detached
  impl_->detach();
}

void load_kernels_eagerly() { ::setenv("CUDA_MODULE_LOADING", "EAGER", 1); }

kernel_census census_recording::finish() {
  detail::census_state& s = *impl_;
  if (!s.attached) return s.census;  // unavailable, and why
  // The marker: the session stream has finished, so it starts at once; work of the run still running
  // ends after its start. Then everything the run left on other streams is waited for.
  const cudaError_t marked = cudaMemsetAsync(s.marker, 0, marker_bytes, s.session);
  const cudaError_t waited = cudaDeviceSynchronize();
  s.detach();
  if (marked != cudaSuccess || waited != cudaSuccess) {
    s.census.unavailable = fmt::format("waiting for the device after the run failed: {}",
                                       cudaGetErrorName(marked != cudaSuccess ? marked : waited));
    return s.census;
  }
  // Without the marker's record (CUPTI dropped records), nothing is judged late.
  const bool timed_end = s.marked.has_value() && s.marked->start != 0;
  const std::uint64_t session_end = timed_end ? s.marked->start : 0;
  std::sort(s.kernels.begin(), s.kernels.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
  std::sort(s.copies.begin(), s.copies.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
  for (auto& k : s.kernels) {
    k.record.after_session = timed_end && k.end > session_end;
    s.census.kernels.push_back(std::move(k.record));
  }
  for (auto& c : s.copies) {
    c.record.after_session = timed_end && c.end > session_end;
    s.census.copies.push_back(std::move(c.record));
  }
  return s.census;
}

}  // namespace cudalab::host
