// The few NVML declarations cudalab calls, declared here because nvml.h is not where cudalab builds (no
// Debian package ships it, and CI has no NVIDIA driver): libnvidia-ml is loaded at run time (device/nvml).
// Each is as the NVML API Reference (docs.nvidia.com/deploy/nvml-api) declares it, under NVML's own
// names so that it can be checked against it; NVML keeps this C ABI stable across drivers.
#pragma once

namespace cudalab::host::nvml_api {

using nvmlReturn_t = int;  ///< an enum: NVML_SUCCESS is 0, anything else an error
constexpr nvmlReturn_t NVML_SUCCESS = 0;
struct nvmlDevice_st;  ///< opaque
using nvmlDevice_t = nvmlDevice_st*;

using nvmlClockType_t = int;  ///< an enum
constexpr nvmlClockType_t NVML_CLOCK_SM = 1;
constexpr nvmlClockType_t NVML_CLOCK_MEM = 2;

using nvmlTemperatureSensors_t = int;  ///< an enum
constexpr nvmlTemperatureSensors_t NVML_TEMPERATURE_GPU = 0;

using nvmlPstates_t = int;  ///< an enum: NVML_PSTATE_0 (0) to NVML_PSTATE_15 (15), NVML_PSTATE_UNKNOWN (32)

using nvmlPerfPolicyType_t = int;  ///< an enum
constexpr nvmlPerfPolicyType_t NVML_PERF_POLICY_POWER = 0;
constexpr nvmlPerfPolicyType_t NVML_PERF_POLICY_THERMAL = 1;

/// nvmlViolationTime_t: how long a policy held the clocks below the applications clocks.
struct nvmlViolationTime_t {
  unsigned long long referenceTime;  ///< a CPU timestamp, microseconds
  unsigned long long violationTime;  ///< the time in violation, nanoseconds
};

constexpr unsigned NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE = 80;

// The functions, as pointer types for dlsym.
using nvmlInit_v2_fn = nvmlReturn_t (*)();
using nvmlShutdown_fn = nvmlReturn_t (*)();
using nvmlErrorString_fn = const char* (*)(nvmlReturn_t result);
using nvmlSystemGetDriverVersion_fn = nvmlReturn_t (*)(char* version, unsigned length);
using nvmlDeviceGetHandleByPciBusId_v2_fn = nvmlReturn_t (*)(const char* pciBusId, nvmlDevice_t* device);
/// nvmlDeviceGetClockInfo, nvmlDeviceGetMaxClockInfo, nvmlDeviceGetApplicationsClock: MHz.
using clock_fn = nvmlReturn_t (*)(nvmlDevice_t device, nvmlClockType_t type, unsigned* clockMHz);
/// nvmlDeviceGetCurrentClocksEventReasons, and its name before NVML renamed it,
/// nvmlDeviceGetCurrentClocksThrottleReasons: a mask of nvmlClocksEventReason* bits.
using reasons_fn = nvmlReturn_t (*)(nvmlDevice_t device, unsigned long long* clocksEventReasons);
/// nvmlDeviceGetPowerUsage, nvmlDeviceGetEnforcedPowerLimit: milliwatts.
using milliwatts_fn = nvmlReturn_t (*)(nvmlDevice_t device, unsigned* milliwatts);
using nvmlDeviceGetTemperature_fn = nvmlReturn_t (*)(nvmlDevice_t device, nvmlTemperatureSensors_t sensorType,
                                                     unsigned* temp);
using nvmlDeviceGetPerformanceState_fn = nvmlReturn_t (*)(nvmlDevice_t device, nvmlPstates_t* pState);
using nvmlDeviceGetViolationStatus_fn = nvmlReturn_t (*)(nvmlDevice_t device, nvmlPerfPolicyType_t perfPolicyType,
                                                         nvmlViolationTime_t* violTime);

}  // namespace cudalab::host::nvml_api
