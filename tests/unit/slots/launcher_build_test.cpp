// Building launcher-slot submissions with nvcc, without a GPU: a good launcher becomes a shared
// library needing only cudart and the C/C++ runtimes; a compile error names the student's file and
// line; a denied header the file includes, however named, and a library outside the allow-list are
// refused; a denied header that an allowed one uses is not.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "slots/launcher_build.hpp"

namespace cudalab::host {
namespace {

namespace fs = std::filesystem;

const char* const good_launcher = R"(#include <cuda_runtime.h>
#include <cstdint>

__global__ void scale(const float* in, float* out, std::uint64_t n) {
  const std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}

extern "C" void launch(const float* in, float* out, std::uint64_t n, cudaStream_t stream) {
  scale<<<unsigned((n + 255) / 256), 256, 0, stream>>>(in, out, n);
}
)";

class LauncherBuild : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("cudalab_launcher_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  launcher_build_request request(const std::string& source) {
    std::ofstream(dir_ / "submission.cu") << source;
    launcher_build_request r;
    r.source_path = (dir_ / "submission.cu").string();
    r.file_name = "reduce.cu";
    r.output_path = (dir_ / "student.so").string();
    r.flags = {"-O2"};
    return r;
  }

  fs::path dir_;
};

TEST_F(LauncherBuild, AGoodLauncherBecomesASharedLibraryNeedingOnlyCudart) {
  const auto out = build_launcher(request(good_launcher));
  ASSERT_TRUE(out.ok) << out.output;
  EXPECT_TRUE(fs::exists(dir_ / "student.so"));
  bool cudart = false;
  for (const std::string& lib : out.needed) cudart = cudart || lib.rfind("libcudart.so", 0) == 0;
  EXPECT_TRUE(cudart) << "the launcher should share the host's CUDA runtime";
  EXPECT_FALSE(out.headers.empty());
}

TEST_F(LauncherBuild, ACompileErrorNamesTheStudentsFileAndLine) {
  const auto out = build_launcher(request(std::string(good_launcher) + "\nvoid broken() { int x = missing; }\n"));
  EXPECT_FALSE(out.ok);
  ASSERT_FALSE(out.diagnostics.empty()) << out.output;
  EXPECT_EQ(out.diagnostics.front().file, "reduce.cu") << out.output;
  EXPECT_EQ(out.diagnostics.front().line, 13) << out.output;
  EXPECT_NE(out.diagnostics.front().message.find("missing"), std::string::npos);
}

TEST_F(LauncherBuild, ADeniedHeaderTheFileIncludesIsRefusedAtItsLine) {
  auto r = request(std::string("#include <cuda/atomic>\n") + good_launcher);
  r.deny_headers = {"cuda/*"};
  const auto out = build_launcher(r);
  EXPECT_FALSE(out.ok);
  ASSERT_FALSE(out.diagnostics.empty()) << out.output;
  EXPECT_EQ(out.diagnostics.front().severity, diagnostic_severity::denied);
  EXPECT_EQ(out.diagnostics.front().line, 1);
  EXPECT_NE(out.diagnostics.front().message.find("cuda/atomic"), std::string::npos) << out.diagnostics.front().message;
  EXPECT_FALSE(fs::exists(dir_ / "student.so"));  // never built
}

TEST_F(LauncherBuild, ADeniedHeaderNamedThroughAMacroIsRefused) {
  auto r = request(std::string("#define LIBRARY <cub/cub.cuh>\n#include LIBRARY\n") + good_launcher);
  r.deny_headers = {"cub/*"};
  const auto out = build_launcher(r);
  EXPECT_FALSE(out.ok);
  ASSERT_FALSE(out.diagnostics.empty()) << out.output;
  EXPECT_EQ(out.diagnostics.front().severity, diagnostic_severity::denied);
  EXPECT_NE(out.diagnostics.front().message.find("cub/*"), std::string::npos) << out.diagnostics.front().message;
}

// <cuda/atomic> and <cooperative_groups.h> are built on <cuda/std/...>: what they include for their own
// use is not the student's include (a policy on everything nvcc -M lists refused honest cooperative
// groups under an assignment that denies cuda/*, issue 31).
TEST_F(LauncherBuild, AHeaderThatAnAllowedOneUsesIsNotDenied) {
  auto r = request(std::string("#include <cuda/atomic>\n") + good_launcher);
  r.deny_headers = {"cuda/std/*"};
  const auto out = build_launcher(r);
  EXPECT_TRUE(out.ok) << out.output << (out.diagnostics.empty() ? "" : out.diagnostics[0].message);
  bool reached = false;
  for (const std::string& h : out.headers) reached = reached || header_matches(h, "cuda/std/*");
  EXPECT_TRUE(reached) << "nvcc -M lists every header reached";
  auto cg = request(std::string("#include <cooperative_groups.h>\n") + good_launcher);
  cg.deny_headers = {"cub/*", "cuda/*"};
  const auto built = build_launcher(cg);
  EXPECT_TRUE(built.ok) << built.output << (built.diagnostics.empty() ? "" : built.diagnostics[0].message);
}

TEST_F(LauncherBuild, ALibraryOutsideTheAllowListIsRefused) {
  auto r = request(good_launcher);
  r.flags.push_back("-lcublas");
  r.flags.push_back("-Xlinker");
  r.flags.push_back("--no-as-needed");
  const auto out = build_launcher(r);
  EXPECT_FALSE(out.ok);
  bool said = false;
  for (const auto& d : out.diagnostics)
    said = said || (d.severity == diagnostic_severity::denied && d.message.find("libcublas") != std::string::npos);
  EXPECT_TRUE(said) << out.output;
  r.allow_libraries = {"libcublas*"};
  EXPECT_TRUE(build_launcher(r).ok);
}

TEST(LauncherBuildParts, HeadersMatchFromAnyFolderOn) {
  EXPECT_TRUE(header_matches("/usr/local/cuda/include/cub/cub.cuh", "cub/*"));
  EXPECT_TRUE(header_matches("/usr/local/cuda/include/cub/block/block_reduce.cuh", "cub/*"));
  EXPECT_FALSE(header_matches("/usr/local/cuda/include/cuda_runtime.h", "cub/*"));
  EXPECT_TRUE(header_matches("/usr/local/cuda/include/cublas_v2.h", "cublas*"));
  EXPECT_TRUE(header_matches("/usr/local/cuda/targets/x86_64-linux/include/cccl/cub/cub.cuh", "cub/*"));
  EXPECT_TRUE(header_matches("/usr/local/cuda/include/cccl/cuda/std/atomic", "cuda/*"));
  // The toolkit's folder is called cuda: its other headers are not <cuda/...> ones (a bug found by the
  // reduction assignment, whose nvcc -M lists .../cuda/bin/../targets/.../include/*.h).
  EXPECT_FALSE(
      header_matches("/usr/local/cuda/bin/../targets/x86_64-linux/include/device_launch_parameters.h", "cuda/*"));
  EXPECT_FALSE(header_matches("/usr/local/cuda/include/cuda_runtime.h", "cuda/*"));
  const auto tree = parse_header_tree(
      "x.cu:1:1: warning: something\n. /usr/include/a.h\n.. /usr/include/b.h\nMultiple include guards may be useful "
      "for:\n/usr/include/c.h\n");
  ASSERT_EQ(tree.size(), 2u);
  EXPECT_EQ(tree[0].path, "/usr/include/a.h");
  EXPECT_EQ(tree[0].depth, 1);
  EXPECT_EQ(tree[1].depth, 2);
  EXPECT_EQ(make_rule_prerequisites("x.o : /tmp/a.cu \\\n /usr/include/b.h \\\n  /usr/include/c.h\n"),
            (std::vector<std::string>{"/usr/include/b.h", "/usr/include/c.h"}));
  const auto found = parse_nvcc_output("/tmp/s.cu:7:12: error: 'y' was not declared in this scope\n");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].line, 7);
}

}  // namespace
}  // namespace cudalab::host
