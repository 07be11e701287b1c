// main() of a GoogleTest program of GPU tests (cudalab::gpu_test_main): exits 77, CTest's skip, when no
// usable GPU is present, else runs the tests.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "cudalab/testing.hpp"

int main(int argc, char** argv) {
  std::string why;
  if (!cudalab::testing::gpu_available(&why)) {
    std::printf("skipped: no usable GPU (%s)\n", why.c_str());
    return cudalab::testing::exit_skipped;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
