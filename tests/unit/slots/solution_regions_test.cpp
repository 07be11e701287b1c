// Starter kits from reference solutions: regions become TODO lines with their STARTER code, the rest
// is kept, unpaired markers are refused with their line, and a starter still compiles (NVRTC).
#include <gtest/gtest.h>

#include "slots/kernel_compile.hpp"
#include "slots/solution_regions.hpp"

namespace cudalab::host {
namespace {

const char* const reference = R"(extern "C" __global__ void copy(const float* in, float* out, unsigned long long n) {
  const unsigned long long i = blockIdx.x * 1ull * blockDim.x + threadIdx.x;
    // BEGIN SOLUTION
  if (i < n) out[i] = in[i];
    // STARTER: (void)in; (void)out; (void)i;
    // END SOLUTION
}
)";

TEST(SolutionRegions, ARegionBecomesTodoAndItsStarterLines) {
  EXPECT_EQ(starter_source(reference, "copy.cu"),
            "extern \"C\" __global__ void copy(const float* in, float* out, unsigned long long n) {\n"
            "  const unsigned long long i = blockIdx.x * 1ull * blockDim.x + threadIdx.x;\n"
            "    // TODO: your code here\n"
            "    (void)in; (void)out; (void)i;\n"
            "}\n");
  EXPECT_EQ(solution_region_count(reference, "copy.cu"), 1);
  EXPECT_EQ(solution_region_count("int x;\n", "x.cu"), 0);
}

// A kit's copy of a plugin's source (kit_plugin.hpp): the solution gone, the markers and STARTER lines
// kept, so that the plugin still has its region (its spec is checked for one) and makes the same starter.
TEST(SolutionRegions, ARedactedReferenceKeepsItsRegionAndStarterButNotItsSolution) {
  const std::string redacted = redacted_reference(reference, "copy.cu");
  EXPECT_EQ(redacted,
            "extern \"C\" __global__ void copy(const float* in, float* out, unsigned long long n) {\n"
            "  const unsigned long long i = blockIdx.x * 1ull * blockDim.x + threadIdx.x;\n"
            "    // BEGIN SOLUTION\n"
            "    // STARTER: (void)in; (void)out; (void)i;\n"
            "    // END SOLUTION\n"
            "}\n");
  EXPECT_EQ(solution_region_count(redacted, "copy.cu"), 1);
  EXPECT_EQ(starter_source(redacted, "copy.cu"), starter_source(reference, "copy.cu"));
  EXPECT_EQ(redacted_reference("int x;\n", "x.cu"), "int x;\n");
  EXPECT_THROW(redacted_reference("// END SOLUTION\n", "x.cu"), solution_markers_error);
}

TEST(SolutionRegions, TheReferenceAndItsStarterBothCompile) {
  for (const std::string& source : {std::string(reference), starter_source(reference, "copy.cu")}) {
    kernel_compile_request r;
    r.source = source;
    r.file_name = "copy.cu";
    const auto out = compile_kernel(r);
    EXPECT_TRUE(out.ok) << source << out.log;
  }
}

TEST(SolutionRegions, UnpairedMarkersAreRefusedWithTheirLine) {
  try {
    starter_source("a\n// BEGIN SOLUTION\nb\n  // BEGIN SOLUTION\n// END SOLUTION\n", "k.cu");
    FAIL() << "a nested BEGIN was accepted";
  } catch (const solution_markers_error& e) {
    EXPECT_EQ(std::string(e.what()), "k.cu:4: '// BEGIN SOLUTION' inside the region begun at line 2");
  }
  EXPECT_THROW(starter_source("a\n// END SOLUTION\n", "k.cu"), solution_markers_error);
  try {
    starter_source("a\n\n   // BEGIN SOLUTION\nb\n", "k.cu");
    FAIL() << "an unended region was accepted";
  } catch (const solution_markers_error& e) {
    EXPECT_EQ(std::string(e.what()), "k.cu:3: the solution region begun here has no '// END SOLUTION'");
  }
}

}  // namespace
}  // namespace cudalab::host
