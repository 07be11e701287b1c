// A test double of NVML (libnvidia-ml.so.1) so CI, which has no NVIDIA driver, can check what a run
// records of the GPUs' clocks and throttling: the functions cudalab calls, with the C signatures of the
// NVML API Reference, over fake GPUs found by PCI bus id (GPU p at 0000:(0x18 + p):00.0, as the fake CUDA
// runtime places them). It lies in the fake runtime's folder, so a run on the fake runtime loads it.
//
// Values on demand, through the environment. Each value is a comma-separated list: the k-th call of a
// function (for one GPU and one clock or policy) answers the k-th entry, the last entry once the list
// is used up, so "0,2500000000" makes a run's end sample differ from its start sample.
//   FAKENVML_INIT_ERROR=N          nvmlInit_v2 fails with nvmlReturn_t N (9: the driver is not loaded)
//   FAKENVML_GPU=p                 the values below are GPU p's alone; the others keep the defaults
//   FAKENVML_SM_CLOCK_MHZ, FAKENVML_MEMORY_CLOCK_MHZ, FAKENVML_MAX_SM_CLOCK_MHZ, FAKENVML_MAX_MEMORY_CLOCK_MHZ,
//   FAKENVML_APPLICATIONS_SM_CLOCK_MHZ, FAKENVML_APPLICATIONS_MEMORY_CLOCK_MHZ   (defaults 1980 and 2619)
//   FAKENVML_REASONS               the clocks event reasons' bits (default 0; hex with 0x)
//   FAKENVML_POWER_MW, FAKENVML_POWER_LIMIT_MW                                   (defaults 120000, 700000)
//   FAKENVML_TEMPERATURE_C, FAKENVML_PSTATE                                       (defaults 40, 0)
//   FAKENVML_POWER_VIOLATION_NS, FAKENVML_THERMAL_VIOLATION_NS                    (default 0)
//   FAKENVML_NOT_SUPPORTED=F,...   the functions named answer NVML_ERROR_NOT_SUPPORTED
// Built a second time with FAKENVML_BEFORE_RENAME: a driver from before nvmlDeviceGetCurrentClocksEventReasons,
// with only its older name nvmlDeviceGetCurrentClocksThrottleReasons.
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>

extern "C" {
struct nvmlDevice_st {  // the fake's own record of a GPU, which its handles point at
  int gpu;
};
typedef nvmlDevice_st* nvmlDevice_t;
typedef int nvmlReturn_t;
typedef struct {
  unsigned long long referenceTime;  // microseconds
  unsigned long long violationTime;  // nanoseconds
} nvmlViolationTime_t;
}

namespace {

// nvmlReturn_t values.
constexpr nvmlReturn_t success = 0, uninitialized = 1, invalid_argument = 2, not_supported = 3, not_found = 6,
                       insufficient_size = 7, driver_not_loaded = 9;

std::mutex& lock() {
  static std::mutex m;
  return m;
}

int& init_count() {
  static int n = 0;
  return n;
}

// The number (hex with 0x) at `index` of the comma-separated `list`, the last one past its end.
unsigned long long entry(const std::string& list, int index) {
  std::size_t start = 0;
  for (int i = 0; i < index; ++i) {
    const std::size_t comma = list.find(',', start);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return std::strtoull(list.c_str() + start, nullptr, 0);
}

// The handle of fake GPU `gpu` (0-63): a pointer to its record, as NVML's handles are.
nvmlDevice_t handle_of(int gpu) {
  static std::array<nvmlDevice_st, 64> devices = [] {
    std::array<nvmlDevice_st, 64> d{};
    for (int i = 0; i < 64; ++i) d[std::size_t(i)].gpu = i;
    return d;
  }();
  return &devices[std::size_t(gpu)];
}

int gpu_of(nvmlDevice_t device) { return device ? device->gpu : -1; }

bool not_supported_here(const char* function) {
  const char* list = std::getenv("FAKENVML_NOT_SUPPORTED");
  if (list == nullptr) return false;
  const std::string names = std::string(",") + list + ",";
  return names.find(std::string(",") + function + ",") != std::string::npos;
}

// What `function` answers now for `device` (and `which` clock or policy): the next entry of the
// variable `name`, or `fallback`; counts the call.
nvmlReturn_t answer(const char* function, const char* name, nvmlDevice_t device, int which, unsigned long long fallback,
                    unsigned long long& value) {
  std::lock_guard<std::mutex> g(lock());
  if (init_count() == 0) return uninitialized;
  if (device == nullptr) return invalid_argument;
  if (not_supported_here(function)) return not_supported;
  static std::map<std::tuple<std::string, int, int>, int> calls;
  const int call = calls[{function, gpu_of(device), which}]++;
  const char* list = std::getenv(name);
  const char* only = std::getenv("FAKENVML_GPU");
  const bool applies = only == nullptr || *only == '\0' || std::atoi(only) == gpu_of(device);
  value = list != nullptr && *list != '\0' && applies ? entry(list, call) : fallback;
  return success;
}

template <typename T>
nvmlReturn_t answer_as(const char* function, const char* name, nvmlDevice_t device, int which,
                       unsigned long long fallback, T* out) {
  if (out == nullptr) return invalid_argument;
  unsigned long long value = 0;
  const nvmlReturn_t r = answer(function, name, device, which, fallback, value);
  if (r == success) *out = T(value);
  return r;
}

}  // namespace

extern "C" {

nvmlReturn_t nvmlInit_v2() {
  std::lock_guard<std::mutex> g(lock());
  if (const char* e = std::getenv("FAKENVML_INIT_ERROR"); e != nullptr && *e != '\0') return std::atoi(e);
  ++init_count();
  return success;
}

nvmlReturn_t nvmlShutdown() {
  std::lock_guard<std::mutex> g(lock());
  if (init_count() == 0) return uninitialized;
  --init_count();
  return success;
}

const char* nvmlErrorString(nvmlReturn_t result) {
  static const std::pair<nvmlReturn_t, const char*> texts[] = {{success, "Success"},
                                                               {uninitialized, "Uninitialized"},
                                                               {invalid_argument, "Invalid Argument"},
                                                               {not_supported, "Not Supported"},
                                                               {not_found, "Not Found"},
                                                               {insufficient_size, "Insufficient Size"},
                                                               {driver_not_loaded, "Driver Not Loaded"}};
  for (const auto& [code, text] : texts)
    if (code == result) return text;
  return "Unknown Error";
}

nvmlReturn_t nvmlSystemGetDriverVersion(char* version, unsigned length) {
  if (version == nullptr) return invalid_argument;
  const char* text = "999.99.99-fake";
  if (std::strlen(text) + 1 > length) return insufficient_size;
  std::memcpy(version, text, std::strlen(text) + 1);
  return success;
}

nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char* pci_bus_id, nvmlDevice_t* device) {
  std::lock_guard<std::mutex> g(lock());
  if (init_count() == 0) return uninitialized;
  unsigned domain = 0, bus = 0, slot = 0, function = 0;
  if (pci_bus_id == nullptr || device == nullptr ||
      std::sscanf(pci_bus_id, "%x:%x:%x.%x", &domain, &bus, &slot, &function) != 4)
    return invalid_argument;
  if (domain != 0 || bus < 0x18 || bus >= 0x18 + 64 || slot != 0 || function != 0) return not_found;
  *device = handle_of(int(bus - 0x18));
  return success;
}

nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, int type, unsigned* clock) {
  return type == 1 ? answer_as(__func__, "FAKENVML_SM_CLOCK_MHZ", device, type, 1980, clock)
                   : answer_as(__func__, "FAKENVML_MEMORY_CLOCK_MHZ", device, type, 2619, clock);
}

nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t device, int type, unsigned* clock) {
  return type == 1 ? answer_as(__func__, "FAKENVML_MAX_SM_CLOCK_MHZ", device, type, 1980, clock)
                   : answer_as(__func__, "FAKENVML_MAX_MEMORY_CLOCK_MHZ", device, type, 2619, clock);
}

nvmlReturn_t nvmlDeviceGetApplicationsClock(nvmlDevice_t device, int type, unsigned* clock) {
  return type == 1 ? answer_as(__func__, "FAKENVML_APPLICATIONS_SM_CLOCK_MHZ", device, type, 1980, clock)
                   : answer_as(__func__, "FAKENVML_APPLICATIONS_MEMORY_CLOCK_MHZ", device, type, 2619, clock);
}

#ifndef FAKENVML_BEFORE_RENAME
nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t device, unsigned long long* reasons) {
  return answer_as(__func__, "FAKENVML_REASONS", device, 0, 0, reasons);
}
#endif

nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t device, unsigned long long* reasons) {
  return answer_as(__func__, "FAKENVML_REASONS", device, 0, 0, reasons);
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned* milliwatts) {
  return answer_as(__func__, "FAKENVML_POWER_MW", device, 0, 120000, milliwatts);
}

nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t device, unsigned* milliwatts) {
  return answer_as(__func__, "FAKENVML_POWER_LIMIT_MW", device, 0, 700000, milliwatts);
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, int sensor, unsigned* celsius) {
  if (sensor != 0) return not_supported;  // NVML_TEMPERATURE_GPU only
  return answer_as(__func__, "FAKENVML_TEMPERATURE_C", device, sensor, 40, celsius);
}

nvmlReturn_t nvmlDeviceGetPerformanceState(nvmlDevice_t device, int* state) {
  return answer_as(__func__, "FAKENVML_PSTATE", device, 0, 0, state);
}

nvmlReturn_t nvmlDeviceGetViolationStatus(nvmlDevice_t device, int policy, nvmlViolationTime_t* time) {
  if (time == nullptr || (policy != 0 && policy != 1)) return invalid_argument;  // power and thermal only
  unsigned long long ns = 0;
  const nvmlReturn_t r = answer(__func__, policy == 0 ? "FAKENVML_POWER_VIOLATION_NS" : "FAKENVML_THERMAL_VIOLATION_NS",
                                device, policy, 0, ns);
  if (r != success) return r;
  time->referenceTime = 0;
  time->violationTime = ns;
  return success;
}

}  // extern "C"
