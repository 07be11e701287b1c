// Compiling kernel-slot submissions with NVRTC, without a GPU: a good kernel gives a CUBIN, a compile
// error names the student's file and line, a denied header the file includes is refused - however it
// is named (review 2026-11-26-redteam F23: the policy was lexical) - while one an allowed header uses,
// and a directive the preprocessor skips, are not; a header outside the allowed folders is not found.
#include <gtest/gtest.h>

#include <string>

#include "slots/build_sandbox.hpp"
#include "slots/kernel_compile.hpp"
#include "slots/ptxas_messages.hpp"

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

// A request for `source` that searches the toolkit's headers, as a build does, and denies `deny`.
kernel_compile_request with_toolkit(const std::string& source, const std::vector<std::string>& deny) {
  kernel_compile_request r;
  r.source = source;
  r.file_name = "reduce.cu";
  r.include_dirs = toolkit_include_dirs();
  r.deny_headers = deny;
  return r;
}

bool denied_with(const kernel_compile_result& out, const std::string& words) {
  for (const compile_diagnostic& d : out.diagnostics)
    if (d.severity == diagnostic_severity::denied && d.message.find(words) != std::string::npos) return true;
  return false;
}

TEST(KernelCompile, ADeniedHeaderTheFileIncludesIsRefusedAtItsLine) {
  const kernel_compile_result out = compile_kernel(
      with_toolkit(std::string("#include <cuda_fp16.h>\n  #  include \"cub/block/block_reduce.cuh\"\n") + good_kernel,
                   {"cub/*", "thrust/*"}));
  EXPECT_FALSE(out.ok);
  EXPECT_TRUE(out.cubin.empty());
  ASSERT_FALSE(out.diagnostics.empty()) << out.log;
  EXPECT_EQ(out.diagnostics[0].line, 2);
  EXPECT_EQ(out.diagnostics[0].severity, diagnostic_severity::denied);
  EXPECT_NE(out.diagnostics[0].message.find("cub/block/block_reduce.cuh"), std::string::npos);
  EXPECT_NE(out.diagnostics[0].message.find("cub/*"), std::string::npos);
  EXPECT_EQ(out.diagnostics.size(), 1u) << "cuda_fp16.h is allowed: " << out.diagnostics[1].message;
}

// Red-team review 2026-11-26 F23: a macro, an absolute path and a line splice all passed the lexical policy.
TEST(KernelCompile, ADeniedHeaderNamedThroughAMacroAPathOrASpliceIsRefused) {
  const std::string cub = toolkit_include_dirs().back() + "/cub/cub.cuh";
  for (const std::string& include : {std::string("#define LIBRARY <cub/cub.cuh>\n#include LIBRARY\n"),
                                     "#include \"" + cub + "\"\n", std::string("#inc\\\nlude <cub/cub.cuh>\n")}) {
    const kernel_compile_result out = compile_kernel(with_toolkit(include + good_kernel, {"cub/*"}));
    EXPECT_FALSE(out.ok) << include;
    EXPECT_TRUE(denied_with(out, "cub/*")) << include << out.log;
  }
}

// <cooperative_groups.h> is built on libcu++ (<cuda/std/...>): an assignment that denies cuda/* but not
// cooperative groups lets an honest kernel use them (they failed to build, issue 31).
TEST(KernelCompile, AHeaderThatAnAllowedOneUsesIsNotDenied) {
  const kernel_compile_result out = compile_kernel(with_toolkit(
      std::string("#include <cooperative_groups.h>\n#include <cuda_fp16.h>\n") + good_kernel, {"cub/*", "cuda/*"}));
  EXPECT_TRUE(out.ok) << out.log << (out.diagnostics.empty() ? "" : out.diagnostics[0].message);
  const kernel_compile_result direct =
      compile_kernel(with_toolkit(std::string("#include <cuda/std/cstdint>\n") + good_kernel, {"cub/*", "cuda/*"}));
  EXPECT_FALSE(direct.ok);
  EXPECT_TRUE(denied_with(direct, "cuda/*"));
}

TEST(KernelCompile, ADirectiveThePreprocessorSkipsIsNoInclude) {
  const kernel_compile_result out =
      compile_kernel(with_toolkit(std::string("#if 0\n#include <cub/cub.cuh>\n#endif\n") + good_kernel, {"cub/*"}));
  EXPECT_TRUE(out.ok) << out.log << (out.diagnostics.empty() ? "" : out.diagnostics[0].message);
}

TEST(KernelCompile, TheIncludeTraceIsParsedWithItsDepths) {
  const auto found = parse_include_trace(
      "__nv_nvrtc_builtin_header.h\n/usr/local/cuda/include/cooperative_groups.h\n "
      "/usr/local/cuda/include/cooperative_groups/details/info.h\n  /usr/local/cuda/include/nv/target\n"
      "/work/std/cstdint\n__nv_name_map\n");
  ASSERT_EQ(found.size(), 4u);
  EXPECT_EQ(found[0].path, "/usr/local/cuda/include/cooperative_groups.h");
  EXPECT_EQ(found[0].depth, 1);
  EXPECT_EQ(found[1].depth, 2);
  EXPECT_EQ(found[2].depth, 3);
  EXPECT_EQ(found[3].path, "/work/std/cstdint");
  EXPECT_EQ(found[3].depth, 1);
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

// NVRTC numbers its warnings and remarks ("warning #1105-D:"): they reach the student too.
TEST(KernelCompile, NumberedWarningsAreMessagesToo) {
  const auto found = parse_nvrtc_log(
      "k.cu(2): warning #1105-D: #warning directive: \"slow\"\n  #warning \"slow\"\n   ^\n\nk.cu(1): remark #20200-D: "
      "#pragma message: \"hi\"\n");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].severity, diagnostic_severity::warning);
  EXPECT_EQ(found[0].line, 2);
  EXPECT_EQ(found[0].message, "#warning directive: \"slow\"");
  EXPECT_EQ(found[1].severity, diagnostic_severity::remark);
}

// "Too much shared data" reached the student as NVRTC_ERROR_COMPILATION alone (issue 31): ptxas names the
// function, and the message is put at its line.
TEST(KernelCompile, TooMuchSharedDataIsSaidAtTheKernelsLine) {
  kernel_compile_request r;
  r.source =
      "// a kernel\nextern \"C\" __global__ void k(float* x) {\n  __shared__ float tile[17408];\n"
      "  tile[threadIdx.x] = x[threadIdx.x];\n  __syncthreads();\n  x[threadIdx.x] = tile[threadIdx.x + 1];\n}\n";
  r.file_name = "big.cu";
  const kernel_compile_result out = compile_kernel(r);
  EXPECT_FALSE(out.ok);
  ASSERT_EQ(out.diagnostics.size(), 1u) << out.log;
  EXPECT_EQ(out.diagnostics[0].line, 2);
  EXPECT_EQ(out.diagnostics[0].severity, diagnostic_severity::error);
  EXPECT_NE(out.diagnostics[0].message.find("kernel 'k' declares 69632 bytes (68 KiB) of __shared__ data, more than "
                                            "the 49152 bytes (48 KiB)"),
            std::string::npos)
      << out.diagnostics[0].message;
}

TEST(PtxasMessages, NamesAreDemangledAndPlaced) {
  EXPECT_EQ(source_name_of("_ZN32_GLOBAL__N__41016763_7_big2_cu_f12partial_sumsILi20000EEEvPKfPf"), "partial_sums");
  EXPECT_EQ(source_name_of("vector_copy"), "vector_copy");
  EXPECT_EQ(source_name_of("_Z5scalePKfPfy"), "scale");
  const auto found = parse_ptxas_messages(
      "ptxas info    : 0 bytes gmem\nptxas error   : Entry function '_Z5scalePKfPfy' uses too much shared data "
      "(0x11000 bytes, 0xc000 max)\nptxas fatal   : Ptx assembly aborted due to errors\n",
      "#include <cuda_runtime.h>\n\n__global__ void scale(const float* in, float* out, unsigned long long n) {}\n",
      "s.cu");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].file, "s.cu");
  EXPECT_EQ(found[0].line, 3);
  EXPECT_EQ(found[0].severity, diagnostic_severity::error);
  EXPECT_NE(found[0].message.find("kernel 'scale' declares 69632 bytes"), std::string::npos) << found[0].message;
  EXPECT_EQ(found[1].severity, diagnostic_severity::fatal);
  EXPECT_EQ(found[1].line, 0);
  EXPECT_EQ(found[1].message, "ptxas: Ptx assembly aborted due to errors");
}

}  // namespace
}  // namespace cudalab::host
