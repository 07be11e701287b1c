// `cudalab --version`: what this executable is and what it runs on - its version and commit, the
// plugin ABI, the CUDA toolkit and GPU architectures it was built for, the CUDA runtime it loaded and
// the CUDA version the driver supports. Needs no GPU.
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <string>

#include "commands.hpp"
#include "cudalab/abi.hpp"
#include "cudalab_build_info.hpp"

namespace cudalab::cli {
namespace {

// "13.0" from CUDA's 13000.
std::string cuda_version_text(int v) { return fmt::format("{}.{}", v / 1000, (v % 1000) / 10); }

}  // namespace

std::string version_text() {
  std::string text = fmt::format("cudalab {} (git {})\n", CUDALAB_VERSION, CUDALAB_GIT_REVISION);
  text += fmt::format("plugin ABI {}\n", CUDALAB_ABI_VERSION);
  text += fmt::format("built with CUDA {} for GPU architectures {}\n", CUDALAB_CUDA_TOOLKIT_VERSION,
                      CUDALAB_CUDA_ARCHITECTURES);
  int runtime = 0, driver = 0;
  const bool has_runtime = cudaRuntimeGetVersion(&runtime) == cudaSuccess && runtime > 0;
  const bool has_driver = cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0;
  text += fmt::format("CUDA runtime {}; ", has_runtime ? cuda_version_text(runtime) : "unknown");
  text += has_driver ? fmt::format("the driver supports CUDA {}", cuda_version_text(driver))
                     : std::string("no NVIDIA driver found");
  return text;
}

}  // namespace cudalab::cli
