// main() for GPU tests: exits 77 (CTest's skip) when no usable GPU is present, else runs GoogleTest.
#include <gtest/gtest.h>

#include <cstdio>

#include "device/gpu_probe.hpp"

int main(int argc, char** argv) {
  const auto status = cudalab::host::probe_gpu();
  if (!status.usable) {
    std::printf("skipped: %s\n", cudalab::host::no_gpu_message(status).c_str());
    return 77;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
