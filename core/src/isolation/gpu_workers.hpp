// The workers of a run over several GPUs (--devices): one per GPU listed, each of whose children sees
// only its own GPU, through CUDA_VISIBLE_DEVICES.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "isolation/isolated_run.hpp"

namespace cudalab::host {

/// The value of CUDA_VISIBLE_DEVICES that shows a child only GPU `ordinal` of the GPUs this process
/// sees, `visible` being this process's CUDA_VISIBLE_DEVICES (nullptr when unset: every GPU, so the
/// ordinal itself); nullopt when `visible` lists fewer GPUs than that.
std::optional<std::string> only_device(int ordinal, const char* visible);

/// One worker per entry of `devices` (a GPU listed twice gets two workers), in order. Throws
/// std::invalid_argument naming the first ordinal that `visible` does not list.
std::vector<isolation_worker> gpu_workers(const std::vector<int>& devices, const char* visible);

/// Shows this process GPU `ordinal` alone, as a child of its --devices worker sees it (--device N in
/// one process): sets CUDA_VISIBLE_DEVICES to what gpu_workers({ordinal}, the current value) gives
/// such a child, so that CUDA, once it starts, knows that GPU only, as device 0. Throws
/// std::invalid_argument as gpu_workers does. REQUIRES: no CUDA call in this process yet (CUDA reads
/// the variable once, when it starts).
void see_only_device(int ordinal);

/// `devices` without repeats, in the order first listed: the GPUs to probe.
std::vector<int> distinct_devices(const std::vector<int>& devices);

}  // namespace cudalab::host
