// Compiling kernel-slot submissions with NVRTC, without a GPU: a good kernel gives a CUBIN, a compile
// error names the student's file and line, a denied header is refused before compiling, and a header
// outside the allowed folders is not found.
#include <gtest/gtest.h>

#include <string>

#include "slots/kernel_compile.hpp"

namespace cudalab::host {
namespace {

const char* const good_kernel = R"(// a student's copy
extern "C" __global__ void copy(const float* in, float* out, unsigned long long n) {
  const unsigned long long i = blockIdx.x * 1ull * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}
)";

TEST(KernelCompile, AGoodKernelGivesACubinForTheArchitecture) {
  kernel_compile_request r;
  r.source = good_kernel;
  r.file_name = "copy.cu";
  r.arch = "sm_90";
  r.options = {"-lineinfo"};
  const kernel_compile_result out = compile_kernel(r);
  ASSERT_TRUE(out.ok) << out.log;
  ASSERT_GT(out.cubin.size(), 4u);
  EXPECT_EQ(std::string(out.cubin.data() + 1, 3), "ELF");
  EXPECT_TRUE(out.diagnostics.empty());
}

TEST(KernelCompile, ACompileErrorNamesTheStudentsFileAndLine) {
  kernel_compile_request r;
  r.source = std::string(good_kernel) + "\n__global__ void broken(float* p) {\n  p[0] = undefined_name;\n}\n";
  r.file_name = "student.cu";
  const kernel_compile_result out = compile_kernel(r);
  EXPECT_FALSE(out.ok);
  EXPECT_TRUE(out.cubin.empty());
  ASSERT_FALSE(out.diagnostics.empty()) << out.log;
  const compile_diagnostic& d = out.diagnostics.front();
  EXPECT_EQ(d.file, "student.cu");
  EXPECT_EQ(d.line, 8);
  EXPECT_EQ(d.severity, diagnostic_severity::error);
  EXPECT_NE(d.message.find("undefined_name"), std::string::npos) << d.message;
  EXPECT_EQ(d.text().rfind("student.cu:8: error: ", 0), 0u) << d.text();
}

TEST(KernelCompile, ADeniedHeaderIsRefusedBeforeCompiling) {
  kernel_compile_request r;
  r.source = std::string("#include <cuda_fp16.h>\n  #  include \"cub/block/block_reduce.cuh\"\n") + good_kernel;
  r.file_name = "reduce.cu";
  r.deny_headers = {"cub/*", "thrust/*"};
  const kernel_compile_result out = compile_kernel(r);
  EXPECT_FALSE(out.ok);
  EXPECT_TRUE(out.log.empty());  // the compiler never ran
  ASSERT_EQ(out.diagnostics.size(), 1u);
  EXPECT_EQ(out.diagnostics[0].line, 2);
  EXPECT_EQ(out.diagnostics[0].severity, diagnostic_severity::denied);
  EXPECT_NE(out.diagnostics[0].message.find("cub/block/block_reduce.cuh"), std::string::npos);
  EXPECT_NE(out.diagnostics[0].message.find("cub/*"), std::string::npos);
}

TEST(KernelCompile, AHeaderOutsideTheAllowedFoldersIsNotFound) {
  kernel_compile_request r;
  r.source = std::string("#include \"my_helpers.cuh\"\n") + good_kernel;
  r.file_name = "copy.cu";
  const kernel_compile_result out = compile_kernel(r);
  EXPECT_FALSE(out.ok);
  ASSERT_FALSE(out.diagnostics.empty()) << out.log;
  EXPECT_EQ(out.diagnostics.front().line, 1);
  EXPECT_NE(out.diagnostics.front().message.find("my_helpers.cuh"), std::string::npos) << out.log;
}

TEST(KernelCompile, TheLogIsParsedIntoMessages) {
  const auto found = parse_nvrtc_log(
      "k.cu(3): error: expected a \";\"\n  int x = 1\n          ^\n\nk.cu(9): warning: variable \"y\" was declared "
      "but never referenced\n2 errors detected in the compilation of \"k.cu\".\n");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].line, 3);
  EXPECT_EQ(found[0].message, "expected a \";\"");
  EXPECT_EQ(found[1].severity, diagnostic_severity::warning);
  EXPECT_EQ(found[1].line, 9);
}

}  // namespace
}  // namespace cudalab::host
