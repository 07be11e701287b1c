// A test double of CUPTI's activity API (libcupti.so.13) for the kernel census on the fake CUDA runtime: it
// hears of the runtime's kernels, copies and memsets (fakecuda_set_activity_hook, fake_activity.h) while
// their kinds are enabled, and delivers them at a flush as the records of the toolkit's cupti_activity.h -
// built from those headers, so that cudalab's own declarations (device/cupti_api.hpp) read real layouts.
// It sits beside the fake runtime, where runs on the fake runtime load it.
//
// Faults on demand, through the environment:
//   FAKECUPTI_REFUSE=1   cuptiActivityEnable fails with CUPTI_ERROR_INSUFFICIENT_PRIVILEGES
//   FAKECUPTI_LOG=FILE   each call that attaches or detaches, and each piece of work heard while attached,
//                        is appended to FILE as a line (enable KIND, work KIND NAME, finalize)
//   FAKECUPTI_RUNS_ON=NAME:NS  a kernel whose name holds NAME ends NS nanoseconds after it starts (the fake
//                        runtime's work ends as it starts): work still running when the run has finished
// As the real CUPTI's, cuptiGetTimestamp is the CPU's clock (CLOCK_REALTIME); the records here are stamped by
// another clock (the real CUPTI interpolates the GPU's times onto the CPU's afterwards): the census compares
// records with records only.
#include <cupti_activity.h>
#include <cupti_result.h>
#include <cupti_version.h>
#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "fake_activity.h"

namespace {

std::mutex& lock() {
  static std::mutex m;
  return m;
}

struct state {
  CUpti_BuffersCallbackRequestFunc requested = nullptr;
  CUpti_BuffersCallbackCompleteFunc completed = nullptr;
  std::set<int> enabled;
  std::vector<std::vector<std::uint8_t>> pending;  // records heard, not yet delivered
  std::map<void*, std::uint32_t> stream_ids;
  std::uint32_t next_stream_id = 13;
};

state& s() {
  static state st;
  return st;
}

void log_line(const char* what, const char* detail = "") {
  const char* file = std::getenv("FAKECUPTI_LOG");
  if (file == nullptr || *file == '\0') return;
  if (FILE* f = std::fopen(file, "a")) {
    std::fprintf(f, "%s%s%s\n", what, *detail ? " " : "", detail);
    std::fclose(f);
  }
}

std::uint64_t now_ns() {
  return std::uint64_t(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

// The id of a stream, as the real CUPTI gives one: unique per stream; the legacy default stream is 7.
std::uint32_t id_of(void* stream) {
  if (stream == nullptr) return 7;
  auto it = s().stream_ids.find(stream);
  if (it == s().stream_ids.end()) it = s().stream_ids.emplace(stream, s().next_stream_id++).first;
  return it->second;
}

template <typename Record>
void keep(const Record& r) {
  std::vector<std::uint8_t> bytes(sizeof r);
  std::memcpy(bytes.data(), &r, sizeof r);
  s().pending.push_back(std::move(bytes));
}

std::uint8_t copy_kind(int runtime_kind) {
  switch (runtime_kind) {  // cudaMemcpyKind
    case 0:
      return CUPTI_ACTIVITY_MEMCPY_KIND_HTOH;
    case 1:
      return CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    case 2:
      return CUPTI_ACTIVITY_MEMCPY_KIND_DTOH;
    case 3:
      return CUPTI_ACTIVITY_MEMCPY_KIND_DTOD;
    default:
      return CUPTI_ACTIVITY_MEMCPY_KIND_UNKNOWN;
  }
}

// Names must outlive the records until a flush: kept for the process, as CUPTI keeps its own.
const char* kept_name(const char* name) {
  static std::set<std::string> names;
  return names.insert(name).first->c_str();
}

// A copy's or memset's record: the fields they share, filled alike.
template <typename Record>
void keep_copy(Record& m, CUpti_ActivityKind kind, const fakecuda_activity& a, std::uint64_t t) {
  m.kind = kind;
  m.bytes = a.bytes;
  m.start = t;
  m.end = t;
  m.streamId = id_of(a.stream);
  keep(m);
}

// FAKECUPTI_RUNS_ON's nanoseconds for a kernel of this name, else 0.
std::uint64_t runs_on_ns(const char* name) {
  const char* knob = std::getenv("FAKECUPTI_RUNS_ON");
  if (knob == nullptr) return 0;
  const std::string k = knob;
  const std::size_t colon = k.rfind(':');
  if (colon == std::string::npos || std::string(name).find(k.substr(0, colon)) == std::string::npos) return 0;
  return std::strtoull(k.c_str() + colon + 1, nullptr, 10);
}

void heard(const fakecuda_activity* a) {
  std::lock_guard<std::mutex> g(lock());
  const std::uint64_t t = now_ns();
  if (a->kind == 0 && s().enabled.count(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)) {
    CUpti_ActivityKernel10 k{};
    k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k.registersPerThread = 32;
    k.start = t;
    k.end = t + runs_on_ns(a->name);
    k.streamId = id_of(a->stream);
    k.gridX = int32_t(a->grid[0]), k.gridY = int32_t(a->grid[1]), k.gridZ = int32_t(a->grid[2]);
    k.blockX = int32_t(a->block[0]), k.blockY = int32_t(a->block[1]), k.blockZ = int32_t(a->block[2]);
    k.dynamicSharedMemory = int32_t(a->shared);
    k.name = kept_name(a->name);
    keep(k);
    log_line("work kernel", a->name);
  } else if (a->kind == 1 && s().enabled.count(CUPTI_ACTIVITY_KIND_MEMCPY)) {
    CUpti_ActivityMemcpy6 m{};
    m.copyKind = copy_kind(a->copy_kind);
    keep_copy(m, CUPTI_ACTIVITY_KIND_MEMCPY, *a, t);
    log_line("work copy");
  } else if (a->kind == 2 && s().enabled.count(CUPTI_ACTIVITY_KIND_MEMSET)) {
    CUpti_ActivityMemset4 m{};
    keep_copy(m, CUPTI_ACTIVITY_KIND_MEMSET, *a, t);
    log_line("work memset");
  }
}

void set_hook(fakecuda_activity_hook h) {
  using setter = void (*)(fakecuda_activity_hook);
  if (auto set = reinterpret_cast<setter>(::dlsym(RTLD_DEFAULT, "fakecuda_set_activity_hook"))) set(h);
}

std::size_t record_size(const CUpti_Activity* r) {
  switch (r->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      return sizeof(CUpti_ActivityKernel10);
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      return sizeof(CUpti_ActivityMemcpy6);
    default:
      return sizeof(CUpti_ActivityMemset4);
  }
}

}  // namespace

extern "C" {

CUptiResult CUPTIAPI cuptiGetVersion(uint32_t* version) {
  *version = CUPTI_API_VERSION;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetResultString(CUptiResult result, const char** str) {
  *str = result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ? "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (fake CUPTI)"
                                                       : "CUPTI error (fake CUPTI)";
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc requested,
                                                    CUpti_BuffersCallbackCompleteFunc completed) {
  if (requested == nullptr || completed == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  std::lock_guard<std::mutex> g(lock());
  s().requested = requested;
  s().completed = completed;
  set_hook(heard);
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityEnable(CUpti_ActivityKind kind) {
  const char* refuse = std::getenv("FAKECUPTI_REFUSE");
  if (refuse != nullptr && std::strcmp(refuse, "1") == 0) return CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
  std::lock_guard<std::mutex> g(lock());
  s().enabled.insert(kind);
  log_line("enable", std::to_string(int(kind)).c_str());
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityDisable(CUpti_ActivityKind kind) {
  std::lock_guard<std::mutex> g(lock());
  s().enabled.erase(kind);
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityFlushAll(uint32_t) {
  std::vector<std::vector<std::uint8_t>> records;
  CUpti_BuffersCallbackRequestFunc requested = nullptr;
  CUpti_BuffersCallbackCompleteFunc completed = nullptr;
  {
    std::lock_guard<std::mutex> g(lock());
    if (s().completed == nullptr) return CUPTI_ERROR_INVALID_OPERATION;
    records.swap(s().pending);
    requested = s().requested;
    completed = s().completed;
  }
  if (records.empty()) return CUPTI_SUCCESS;
  uint8_t* buffer = nullptr;
  size_t size = 0, max_records = 0;
  requested(&buffer, &size, &max_records);
  size_t used = 0;
  for (const auto& r : records) {
    const size_t at = (used + 7) / 8 * 8;
    if (buffer == nullptr || at + r.size() > size) break;  // a full buffer drops the rest, as CUPTI would
    std::memcpy(buffer + at, r.data(), r.size());
    used = at + r.size();
  }
  completed(nullptr, 0, buffer, size, used);
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNextRecord(uint8_t* buffer, size_t valid, CUpti_Activity** record) {
  size_t at = 0;
  if (*record != nullptr) {
    at = size_t(reinterpret_cast<uint8_t*>(*record) - buffer) + record_size(*record);
    at = (at + 7) / 8 * 8;
  }
  if (at >= valid) return CUPTI_ERROR_MAX_LIMIT_REACHED;
  *record = reinterpret_cast<CUpti_Activity*>(buffer + at);
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNumDroppedRecords(CUcontext, uint32_t, size_t* dropped) {
  *dropped = 0;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetStreamIdEx(CUcontext, CUstream stream, uint8_t, uint32_t* stream_id) {
  std::lock_guard<std::mutex> g(lock());
  *stream_id = id_of(stream);
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetTimestamp(uint64_t* timestamp) {
  *timestamp = std::uint64_t(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiFinalize() {
  {
    std::lock_guard<std::mutex> g(lock());
    s().requested = nullptr;
    s().completed = nullptr;
    s().enabled.clear();
    s().pending.clear();
  }
  set_hook(nullptr);
  log_line("finalize");
  return CUPTI_SUCCESS;
}

}  // extern "C"
