// Finding out whether a usable GPU is present, and if not, exactly why.
#pragma once

#include <string>

#include "cudalab/device_info.hpp"

namespace cudalab::host {

/// The answer to "can this process use a GPU?".
struct gpu_status {
  bool usable = false;
  int device_count = 0;
  int error_code = 0;      ///< the cudaError_t from cudaGetDeviceCount (0 when usable)
  std::string error_name;  ///< e.g. "cudaErrorNoDevice"
  std::string cause;       ///< a sentence: no driver / no device / stub library / ...
};

/// Asks the CUDA runtime for devices. Never throws; initialises the runtime only.
gpu_status probe_gpu();

/// A message for a user when no GPU is usable: the cause, then what still works without one.
std::string no_gpu_message(const gpu_status& status);

/// Reads the properties of device `ordinal`. Throws cuda_error.
device_info read_device_info(int ordinal);

/// The PCI bus id of device `ordinal` as cudaDeviceGetPCIBusId writes it ("0000:19:00.0"): how NVML finds
/// the GPU, whatever CUDA_VISIBLE_DEVICES made its ordinal; "" when the runtime cannot say. Never throws.
std::string read_pci_bus_id(int ordinal);

}  // namespace cudalab::host
