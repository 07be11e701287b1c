// The CUDA software a run uses: the runtime it loaded and the CUDA version the driver supports, as
// "13.0" texts ("" when unknown). Needs no GPU; `--version` and every run's context say them.
#pragma once

#include <string>

namespace cudalab::host {

struct cuda_software {
  std::string runtime;  ///< the CUDA runtime loaded ("13.0")
  std::string driver;   ///< the newest CUDA the driver supports ("13.0"); "" without a driver
};

cuda_software read_cuda_software();

}  // namespace cudalab::host
