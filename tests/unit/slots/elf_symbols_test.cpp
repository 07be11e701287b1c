// The ELF symbol check a built submission must pass: a CUBIN defines its kernels and nothing else, and what
// is not an ELF file (or is cut short) is refused.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "slots/elf_symbols.hpp"
#include "slots/kernel_compile.hpp"

using namespace cudalab::host;

TEST(ElfSymbols, ACubinDefinesItsKernelsOnly) {
  kernel_compile_request r;
  r.source = "extern \"C\" __global__ void scale(float* x) { x[threadIdx.x] *= 2.0f; }\n";
  r.file_name = "scale.cu";
  const kernel_compile_result out = compile_kernel(r);
  ASSERT_TRUE(out.ok) << out.log;
  const std::string bytes(out.cubin.begin(), out.cubin.end());
  EXPECT_TRUE(defines_function(bytes, "scale.cubin", "scale"));
  EXPECT_FALSE(defines_function(bytes, "scale.cubin", "copy"));
  EXPECT_THROW(defines_function("not an ELF file", "junk", "scale"), std::runtime_error);
  EXPECT_THROW(defines_function(std::string(bytes, 0, 80), "cut.cubin", "scale"), std::runtime_error);
}
