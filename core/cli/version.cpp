// `cudalab --version`: what this executable is and what it runs on - its version and commit, the
// plugin ABI, the CUDA toolkit and GPU architectures it was built for, the CUDA runtime it loaded and
// the CUDA version the driver supports. Needs no GPU.
#include <fmt/format.h>

#include <string>

#include "command.hpp"
#include "cudalab/abi.hpp"
#include "cudalab_build_info.hpp"
#include "device/cuda_software.hpp"

namespace cudalab::cli {

std::string version_text() {
  std::string text = fmt::format("cudalab {} (git {})\n", CUDALAB_VERSION, CUDALAB_GIT_REVISION);
  text += fmt::format("plugin ABI {}\n", CUDALAB_ABI_VERSION);
  text += fmt::format("built with CUDA {} for GPU architectures {}\n", CUDALAB_CUDA_TOOLKIT_VERSION,
                      CUDALAB_CUDA_ARCHITECTURES);
  const host::cuda_software cuda = host::read_cuda_software();
  text += fmt::format("CUDA runtime {}; ", cuda.runtime.empty() ? "unknown" : cuda.runtime);
  text += !cuda.driver.empty() ? fmt::format("the driver supports CUDA {}", cuda.driver)
                               : std::string("no NVIDIA driver found");
  return text;
}

}  // namespace cudalab::cli
