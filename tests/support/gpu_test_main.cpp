// main() for GPU tests: exits 77 (CTest's skip) when no usable GPU is present, else runs GoogleTest.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "cudalab/testing.hpp"

int main(int argc, char** argv) {
  std::string why;
  if (!cudalab::testing::gpu_available(&why)) {
    fmt::print("skipped: no usable GPU ({})\n", why);
    return cudalab::testing::exit_skipped;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
