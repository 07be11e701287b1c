// The CUDA software a run uses (cuda_software.hpp).
#include "device/cuda_software.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

namespace cudalab::host {

namespace {

// CUDA's version number (13000) as "13.0".
std::string cuda_version_text(int version) { return fmt::format("{}.{}", version / 1000, (version % 1000) / 10); }

}  // namespace

cuda_software read_cuda_software() {
  cuda_software s;
  int runtime = 0, driver = 0;
  if (cudaRuntimeGetVersion(&runtime) == cudaSuccess && runtime > 0) s.runtime = cuda_version_text(runtime);
  if (cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0) s.driver = cuda_version_text(driver);
  return s;
}

}  // namespace cudalab::host
