// The workers of a run over several GPUs, each child seeing only its own GPU.
#include "isolation/gpu_workers.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace cudalab::host {

std::optional<std::string> only_device(int ordinal, const char* visible) {
  if (ordinal < 0) return std::nullopt;
  if (!visible) return std::to_string(ordinal);
  // CUDA reads the list up to its first invalid entry; an ordinal past it names no GPU either way.
  std::istringstream in(visible);
  std::string entry;
  for (int i = 0; std::getline(in, entry, ','); ++i) {
    if (entry.empty()) return std::nullopt;
    if (i == ordinal) return entry;
  }
  return std::nullopt;
}

std::vector<isolation_worker> gpu_workers(const std::vector<int>& devices, const char* visible) {
  std::vector<isolation_worker> workers;
  for (const int d : devices) {
    const auto value = only_device(d, visible);
    if (!value)
      throw std::invalid_argument("GPU " + std::to_string(d) + " is not among the GPUs CUDA_VISIBLE_DEVICES=" +
                                  (visible ? visible : "") + " shows this process (they count from 0)");
    workers.push_back(isolation_worker{d, {{"CUDA_VISIBLE_DEVICES", *value}}});
  }
  return workers;
}

void see_only_device(int ordinal) {
  const std::vector<isolation_worker> one = gpu_workers({ordinal}, std::getenv("CUDA_VISIBLE_DEVICES"));
  for (const auto& [name, value] : one.front().environment) ::setenv(name.c_str(), value.c_str(), 1);
}

std::vector<int> distinct_devices(const std::vector<int>& devices) {
  std::vector<int> once;
  for (const int d : devices)
    if (std::find(once.begin(), once.end(), d) == once.end()) once.push_back(d);
  return once;
}

}  // namespace cudalab::host
