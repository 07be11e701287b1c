// Finding out whether a usable GPU is present, and if not, exactly why.
#include "device/gpu_probe.hpp"

#include <cuda_runtime_api.h>

#include "cudalab/cuda_error.hpp"

namespace cudalab::host {

gpu_status probe_gpu() {
  gpu_status s;
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  s.error_code = static_cast<int>(err);
  s.error_name = cudaGetErrorName(err);
  if (err == cudaSuccess && count > 0) {
    s.usable = true;
    s.device_count = count;
    s.error_name.clear();
    return s;
  }
  switch (err) {
    case cudaSuccess:
    case cudaErrorNoDevice:
      s.cause = "no CUDA device: the driver is loaded but sees no GPU";
      break;
    case cudaErrorInsufficientDriver:
      s.cause = "no NVIDIA driver: none is installed, or it is older than this CUDA runtime needs";
      break;
    case cudaErrorStubLibrary:
      s.cause = "only the CUDA stub library (libcuda.so from the toolkit's stubs folder) was found, not a real driver";
      break;
    default:
      s.cause = std::string("the CUDA runtime could not be initialised: ") + cudaGetErrorString(err);
  }
  if (err == cudaSuccess) s.error_name = "cudaErrorNoDevice";
  return s;
}

std::string no_gpu_message(const gpu_status& status) {
  return "no usable GPU: " + status.cause + " (" + status.error_name +
         ").\n  Without a GPU these still work: cudalab list, describe PLUGIN, validate FILE..., explain FILE...";
}

device_info read_device_info(int ordinal) {
  cudaDeviceProp prop{};
  CUDALAB_CUDA_CHECK(cudaGetDeviceProperties(&prop, ordinal));
  device_info info;
  info.ordinal = ordinal;
  info.name = prop.name;
  info.cc_major = prop.major;
  info.cc_minor = prop.minor;
  info.sm_count = prop.multiProcessorCount;
  info.global_memory_bytes = prop.totalGlobalMem;
  info.l2_cache_bytes = static_cast<std::uint64_t>(prop.l2CacheSize);
  info.shared_memory_per_block_optin_bytes = prop.sharedMemPerBlockOptin;
  info.max_threads_per_block = prop.maxThreadsPerBlock;
  info.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  info.memory_bus_width_bits = prop.memoryBusWidth;
  CUDALAB_CUDA_CHECK(cudaDeviceGetAttribute(&info.memory_clock_khz, cudaDevAttrMemoryClockRate, ordinal));
  info.can_map_host_memory = prop.canMapHostMemory != 0;
  return info;
}

std::string read_pci_bus_id(int ordinal) {
  char id[32] = {};  // "dddd:bb:dd.f" and its terminator need 13
  return cudaDeviceGetPCIBusId(id, sizeof id, ordinal) == cudaSuccess ? id : "";
}

}  // namespace cudalab::host
