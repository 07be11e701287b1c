// The device `explain` models when it runs without a GPU: trace() sizes grids from it.
#pragma once

#include "cudalab/device_info.hpp"

namespace cudalab::host {

/// An H100 SXM5 80GB, the GPU cudalab's figures come from: 132 SMs, 2048 resident threads per SM,
/// 50 MiB of L2. `explain` says it models this device; `run` traces with the real one.
device_info model_device();

}  // namespace cudalab::host
