// NVML loaded at run time with dlopen, and a run's GPUs sampled through it at its start and end.
#include "device/nvml.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>

#include "device/nvml_api.hpp"

namespace cudalab::host {

using namespace nvml_api;

// The functions cudalab calls: init, shutdown, error_string and handle_by_bus_id are needed; any other
// may be missing (an older driver), and the values it reads are then left out of the samples.
struct nvml_library::functions {
  nvmlInit_v2_fn init = nullptr;
  nvmlShutdown_fn shutdown = nullptr;
  nvmlErrorString_fn error_string = nullptr;
  nvmlSystemGetDriverVersion_fn driver_version = nullptr;
  nvmlDeviceGetHandleByPciBusId_v2_fn handle_by_bus_id = nullptr;
  clock_fn clock = nullptr, max_clock = nullptr, applications_clock = nullptr;
  reasons_fn event_reasons = nullptr, throttle_reasons = nullptr;
  milliwatts_fn power = nullptr, power_limit = nullptr;
  nvmlDeviceGetTemperature_fn temperature = nullptr;
  nvmlDeviceGetPerformanceState_fn performance_state = nullptr;
  nvmlDeviceGetViolationStatus_fn violation = nullptr;
  bool initialised = false;

  std::string error_text(nvmlReturn_t r) const {
    const char* text = error_string(r);
    return fmt::format("{} (NVML error {})", text ? text : "unknown error", r);
  }
};

namespace {

// `fn` set to the library's function `name`; false when it has none.
template <typename Fn>
bool find(void* library, Fn& fn, const char* name) {
  // POSIX guarantees that dlsym's object pointer converts to the function's pointer.
  fn = reinterpret_cast<Fn>(::dlsym(library, name));
  return fn != nullptr;
}

// What `fn(args..., &value)` gives, or nullopt when the function is missing or fails (a GPU that does
// not support the query answers NVML_ERROR_NOT_SUPPORTED).
template <typename T, typename Fn, typename... Args>
std::optional<T> ask(Fn fn, Args... args) {
  T value{};
  if (fn == nullptr || fn(args..., &value) != NVML_SUCCESS) return std::nullopt;
  return value;
}

std::optional<std::uint64_t> violation_ns(nvmlDeviceGetViolationStatus_fn fn, nvmlDevice_t device,
                                          nvmlPerfPolicyType_t policy) {
  const auto v = ask<nvmlViolationTime_t>(fn, device, policy);
  if (!v) return std::nullopt;
  return v->violationTime;
}

std::optional<double> watts(const std::optional<unsigned>& milliwatts) {
  if (!milliwatts) return std::nullopt;
  return *milliwatts / 1e3;
}

std::string gpu_label(int ordinal, const device_info& device) {
  return fmt::format("GPU {} ({})", ordinal, device.name);
}

// Calls `f(state, label)` for each GPU of `context`: each of its devices (context.gpu then mirrors the
// first), or its one GPU.
template <typename F>
void each_gpu(run_context& context, F f) {
  if (context.devices.empty()) {
    f(context.gpu, gpu_label(context.device.ordinal, context.device));
    return;
  }
  for (run_device& d : context.devices) f(d.gpu, gpu_label(d.ordinal, d.device));
  context.gpu = context.devices.front().gpu;
}

// `into` sampled now; the first reason a sample of the GPU is missing is kept.
void take(const nvml_library& nvml, gpu_state& gpu, std::optional<gpu_sample>& into) {
  std::string why;
  into = nvml.sample(gpu.pci_bus_id, why);
  if (!into && gpu.unavailable.empty()) gpu.unavailable = why;
}

}  // namespace

void nvml_library::library_closer::operator()(void* handle) const noexcept { ::dlclose(handle); }

nvml_library::nvml_library() : fn_(std::make_unique<functions>()) {
  const char* chosen = std::getenv("CUDALAB_NVML_LIBRARY");
  status_.library = chosen != nullptr && *chosen != '\0' ? chosen : "libnvidia-ml.so.1";
  library_.reset(::dlopen(status_.library.c_str(), RTLD_NOW | RTLD_LOCAL));
  if (!library_) {
    const char* error = ::dlerror();
    status_.reason = error ? error : "cannot load " + status_.library;
    return;
  }
  void* lib = library_.get();
  const auto need = [&](auto& fn, const char* name) {
    if (find(lib, fn, name)) return true;
    status_.reason = fmt::format("{} has no function {}", status_.library, name);
    return false;
  };
  if (!need(fn_->init, "nvmlInit_v2") || !need(fn_->shutdown, "nvmlShutdown") ||
      !need(fn_->error_string, "nvmlErrorString") || !need(fn_->handle_by_bus_id, "nvmlDeviceGetHandleByPciBusId_v2"))
    return;
  find(lib, fn_->driver_version, "nvmlSystemGetDriverVersion");
  find(lib, fn_->clock, "nvmlDeviceGetClockInfo");
  find(lib, fn_->max_clock, "nvmlDeviceGetMaxClockInfo");
  find(lib, fn_->applications_clock, "nvmlDeviceGetApplicationsClock");
  find(lib, fn_->event_reasons, "nvmlDeviceGetCurrentClocksEventReasons");
  find(lib, fn_->throttle_reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
  find(lib, fn_->power, "nvmlDeviceGetPowerUsage");
  find(lib, fn_->power_limit, "nvmlDeviceGetEnforcedPowerLimit");
  find(lib, fn_->temperature, "nvmlDeviceGetTemperature");
  find(lib, fn_->performance_state, "nvmlDeviceGetPerformanceState");
  find(lib, fn_->violation, "nvmlDeviceGetViolationStatus");

  if (const nvmlReturn_t r = fn_->init(); r != NVML_SUCCESS) {
    status_.reason = "nvmlInit_v2 failed: " + fn_->error_text(r);
    return;
  }
  fn_->initialised = true;
  status_.available = true;
  char version[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE] = {};
  if (fn_->driver_version && fn_->driver_version(version, sizeof version) == NVML_SUCCESS)
    status_.driver_version = version;
}

nvml_library::~nvml_library() {
  if (fn_->initialised) fn_->shutdown();  // what it returns changes nothing now
}

std::optional<gpu_sample> nvml_library::sample(const std::string& pci_bus_id, std::string& why) const {
  if (!status_.available) {
    why = "NVML is unavailable: " + status_.reason;
    return std::nullopt;
  }
  if (pci_bus_id.empty()) {
    why = "the CUDA runtime gave no PCI bus id for it";
    return std::nullopt;
  }
  nvmlDevice_t device = nullptr;
  if (const nvmlReturn_t r = fn_->handle_by_bus_id(pci_bus_id.c_str(), &device); r != NVML_SUCCESS) {
    why = fmt::format("NVML finds no GPU at PCI bus id {}: {}", pci_bus_id, fn_->error_text(r));
    return std::nullopt;
  }
  const functions& f = *fn_;
  gpu_sample s;
  s.taken_at_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  s.sm_clock_mhz = ask<unsigned>(f.clock, device, NVML_CLOCK_SM);
  s.memory_clock_mhz = ask<unsigned>(f.clock, device, NVML_CLOCK_MEM);
  s.max_sm_clock_mhz = ask<unsigned>(f.max_clock, device, NVML_CLOCK_SM);
  s.max_memory_clock_mhz = ask<unsigned>(f.max_clock, device, NVML_CLOCK_MEM);
  s.applications_sm_clock_mhz = ask<unsigned>(f.applications_clock, device, NVML_CLOCK_SM);
  s.applications_memory_clock_mhz = ask<unsigned>(f.applications_clock, device, NVML_CLOCK_MEM);
  auto reasons = ask<unsigned long long>(f.event_reasons, device);
  if (!reasons) reasons = ask<unsigned long long>(f.throttle_reasons, device);
  if (reasons) s.clocks_event_reasons = *reasons;
  s.power_w = watts(ask<unsigned>(f.power, device));
  s.power_limit_w = watts(ask<unsigned>(f.power_limit, device));
  s.temperature_c = ask<unsigned>(f.temperature, device, NVML_TEMPERATURE_GPU);
  if (const auto p = ask<nvmlPstates_t>(f.performance_state, device); p && *p >= 0 && *p <= 15)
    s.performance_state = unsigned(*p);
  s.power_violation_ns = violation_ns(f.violation, device, NVML_PERF_POLICY_POWER);
  s.thermal_violation_ns = violation_ns(f.violation, device, NVML_PERF_POLICY_THERMAL);
  return s;
}

std::vector<std::string> record_gpu_start(const nvml_library& nvml, run_context& context) {
  context.nvml = nvml.status();
  std::vector<std::string> notes;
  if (!nvml.status().available)
    notes.push_back("the GPUs' clocks and throttling are not recorded: NVML is unavailable: " + nvml.status().reason);
  each_gpu(context, [&](gpu_state& gpu, const std::string& label) {
    take(nvml, gpu, gpu.start);
    if (!gpu.start && nvml.status().available)
      notes.push_back(fmt::format("the clocks and throttling of {} are not recorded: {}", label, gpu.unavailable));
  });
  return notes;
}

std::vector<std::string> record_gpu_end(const nvml_library& nvml, run_context& context) {
  std::vector<std::string> warnings;
  each_gpu(context, [&](gpu_state& gpu, const std::string& label) {
    take(nvml, gpu, gpu.end);
    if (!gpu.start || !gpu.end) return;
    gpu.throttle = judge_throttling(*gpu.start, *gpu.end, label);
    if (gpu.throttle.throttled) warnings.push_back(gpu.throttle.warning);
  });
  return warnings;
}

}  // namespace cudalab::host
