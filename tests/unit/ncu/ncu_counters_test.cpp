// run --profile's reading of Nsight Compute: its raw-page CSV (tests/fixtures/profile/ncu_reduction.csv,
// from an H100 run of labs/reduction.toml at n = 1Mi, its NVTX column filled in as ncu writes it), the
// counters summed by the range each kernel ran in, the verdict against the model's totals; the ncu
// command lines and what its output says.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "ncu/ncu_counters.hpp"
#include "ncu/ncu_csv.hpp"
#include "ncu/ncu_program.hpp"
#include "results/counter_verdict.hpp"

namespace cudalab::host {
namespace {

namespace fs = std::filesystem;
const fs::path fixtures = fs::path(CUDALAB_SOURCE_DIR) / "tests" / "fixtures" / "profile";

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const std::vector<ncu_kernel>& sample() {
  static const std::vector<ncu_kernel> kernels = parse_ncu_csv(read_text(fixtures / "ncu_reduction.csv"));
  return kernels;
}

range_key key(const std::string& variant) { return {"labs/reduction.toml", 0, variant}; }

TEST(NcuCsv, NumbersLoseTheirThousandsSeparators) {
  EXPECT_EQ(ncu_number("1,980,000"), 1980000.0);
  EXPECT_EQ(ncu_number("83.20"), 83.2);
  EXPECT_EQ(ncu_number("0"), 0.0);
  EXPECT_EQ(ncu_number("1,638.40"), 1638.4);
  for (const char* text : {"", "n/a", "PolicySpread", "(256, 1, 1)", "1,2x", "inf"})
    EXPECT_FALSE(ncu_number(text).has_value()) << text;
}

TEST(NcuCsv, TheTableIsFoundAmongTheProgramsOutput) {
  // The program's output and ncu's notes before it, a note after it, the units row: none is a kernel.
  const auto& kernels = sample();
  ASSERT_EQ(kernels.size(), 26u);
  EXPECT_EQ(kernels.front().id, "0");
  EXPECT_EQ(kernels.back().id, "36");
  EXPECT_EQ(kernels.back().metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 131200.0);
  EXPECT_EQ(kernels.back().metrics.at("dram__bytes_read.sum"), 4201472.0);
  EXPECT_EQ(kernels.back().metrics.count("launch__grid_size"), 0u);  // not in the trimmed sample
  // A name with commas inside its quotes stays one field.
  EXPECT_EQ(kernels[1].name.rfind("void cub::DeviceReduceKernel<", 0), 0u) << kernels[1].name;
  EXPECT_NE(kernels[1].name.find(", "), std::string::npos);
  EXPECT_TRUE(kernels.front().nvtx.empty());
  EXPECT_NE(kernels.back().nvtx.find("<default domain>:cudalab#"), std::string::npos) << kernels.back().nvtx;
}

TEST(NcuCsv, TextWithoutATableHasNoKernels) {
  EXPECT_TRUE(parse_ncu_csv("").empty());
  EXPECT_TRUE(parse_ncu_csv("==PROF== Connected\n==WARNING== No kernels were profiled.\n").empty());
  // A header alone, and rows of another width, give none either.
  EXPECT_TRUE(
      parse_ncu_csv("\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\"\n\"\",\"\",\"byte\"\n\"0\",\"k\"\n").empty());
}

TEST(NcuCounters, KernelsAreSummedByTheirVariantsRange) {
  const counted_kernels counted = count_by_result(sample());
  EXPECT_EQ(counted.outside, 1u);  // the input's fill, outside every range
  ASSERT_EQ(counted.by_result.size(), 10u);
  EXPECT_EQ(counted.by_result.at(key("cub")).kernels, 2u);
  // interleaved_strided: three passes (4096, 16 and 1 blocks).
  const measured_counters& m = counted.by_result.at(key("interleaved_strided"));
  EXPECT_EQ(m.kernels, 3u);
  EXPECT_EQ(m.global_load.requests, 32768u + 128 + 1);
  EXPECT_EQ(m.global_load.sectors, 131072u + 512 + 2);
  EXPECT_EQ(m.global_store.requests, 4096u + 16 + 1);
  EXPECT_EQ(m.shared_load.instructions, 528384u + 2064 + 129);  // with warps whose lanes are all off
  EXPECT_EQ(m.shared_load.requests, 102400u + 400 + 25);        // SASS's count: the sample has no other
  EXPECT_EQ(m.shared_load.wavefronts, 394592u + 1520 + 95);
  EXPECT_EQ(m.shared_load.address_wavefronts, m.shared_load.wavefronts);  // not in the sample: the data stage's
  EXPECT_EQ(m.shared_load.conflicts, 292192u + 1120 + 70);
  EXPECT_EQ(m.dram_bytes_read, 4197632u + 19712 + 3584);
  // Atomics with a result and without both count as the model's atomics.
  const measured_counters& v = counted.by_result.at(key("vector_single_pass"));
  EXPECT_EQ(v.global_atomic.requests, 1024u);
  EXPECT_EQ(v.global_atomic.sectors, 1024u);
}

TEST(NcuCounters, SharedRequestsAreSassInstructionsWithAnActiveLane) {
  // tests/fixtures/profile/ncu_transpose_shapes.csv: padded_hinted at 33 x 3 (point 3) runs 8 warps of
  // 8 shared stores, 33 of them with an active lane. SASS counts 33 (as the model); the hardware's
  // pred_on_any count said 40 on that run, and the data stage's wavefronts are SASS's 33.
  const std::vector<ncu_kernel> kernels = parse_ncu_csv(read_text(fixtures / "ncu_transpose_shapes.csv"));
  ASSERT_EQ(kernels.size(), 45u);
  const counted_kernels counted = count_by_result(kernels);
  EXPECT_EQ(counted.outside, 0u);
  const measured_counters& m = counted.by_result.at({"labs/transpose_shapes.toml", 3, "padded_hinted"});
  EXPECT_EQ(m.shared_store.requests, 33u);
  EXPECT_EQ(m.shared_store.instructions, 64u);
  EXPECT_EQ(m.shared_store.address_wavefronts, 33u);
  const auto raw = std::find_if(kernels.begin(), kernels.end(), [](const ncu_kernel& k) {
    return k.nvtx.find("#3#padded_hinted") != std::string::npos;
  });
  ASSERT_NE(raw, kernels.end());
  EXPECT_EQ(raw->metrics.at("smsp__inst_executed_op_shared_st_pred_on_any.sum"), 40.0);
  // Without SASS's count (the reduction sample has no other), the hardware's stands in.
  ncu_kernel hardware_only = *raw;
  hardware_only.metrics.erase("smsp__sass_inst_executed_op_shared_st.sum");
  EXPECT_EQ(counters_of(hardware_only).shared_store.requests, 40u);
}

TEST(NcuCounters, TheVerdictOnTheSampleAgainstTheModelsTotals) {
  const counted_kernels counted = count_by_result(sample());
  // What the model predicts for interleaved_strided at n = 1Mi, block 256 (every pass: `cudalab explain
  // labs/reduction.toml --set n=1Mi --format json`): 4 sectors per load, 2.80 conflicts per shared load.
  variant_result r;
  r.has_model = true;
  r.model.global_load = {32897, 131586, 32897, 4 * 1048576 + 4096 * 4 + 16 * 4};
  r.model.global_store = {4113, 4113, 4113, 4113 * 4};
  r.model.shared_load = {102825, 390735, 102825};
  r.model.shared_store = {82260, 226215, 82260};
  r.has_measured = true;
  r.measured = counted.by_result.at(key("interleaved_strided"));
  // The hardware's wavefronts and conflicts are 1.4% and 1.9% over the model's (the data stage's
  // contention with global traffic, docs/model.md): within 5%.
  EXPECT_EQ(judge_counters(r).text(), "matches");
  // interleaved_divergent: no conflict predicted, and the hardware's counter has 4526 (1.1% of the
  // wavefronts, which agree within 5%); without SASS's count of the addresses' wavefronts they read as
  // conflicts of the addresses.
  variant_result d = r;
  d.model.shared_load = {390735, 390735, 390735};
  d.model.shared_store = {226215, 226215, 226215};
  d.measured = counted.by_result.at(key("interleaved_divergent"));
  EXPECT_EQ(judge_counters(d).text(), "differs: sh ld conflicts 4526 (none predicted)");
}

TEST(NcuCounters, EveryMetricIsASumAndListedOnce) {
  const auto& metrics = counter_metrics();
  EXPECT_EQ(metrics.size(), 28u);
  EXPECT_EQ(std::set<std::string>(metrics.begin(), metrics.end()).size(), metrics.size());
  for (const std::string& m : metrics) EXPECT_EQ(m.substr(m.size() - 4), ".sum") << m;
  EXPECT_NE(std::find(metrics.begin(), metrics.end(), "smsp__inst_executed_op_shared_ld_pred_on_any.sum"),
            metrics.end());
  const std::string list = counter_metrics_list();
  EXPECT_EQ(list.find(' '), std::string::npos);
  EXPECT_EQ(std::count(list.begin(), list.end(), ','), 27);
}

TEST(NcuProgram, TheCommandLinesAskWhatTheRunNeeds) {
  const auto argv = ncu_profile_argv("/opt/ncu", "/tmp/w/profile.ncu-rep");
  auto after = [&](const std::string& option) {
    const auto it = std::find(argv.begin(), argv.end(), option);
    return it == argv.end() || it + 1 == argv.end() ? std::string("(none)") : *(it + 1);
  };
  EXPECT_EQ(argv.front(), "/opt/ncu");
  EXPECT_EQ(after("--clock-control"), "none");  // never the GPU's clocks
  EXPECT_EQ(after("--nvtx-include"), range_filter);
  EXPECT_NE(std::find(argv.begin(), argv.end(), "--nvtx"), argv.end());
  EXPECT_EQ(after("--metrics"), counter_metrics_list());
  EXPECT_EQ(after("--export"), "/tmp/w/profile.ncu-rep");
  const auto import = ncu_import_argv("/opt/ncu", "/tmp/w/profile.ncu-rep");
  EXPECT_EQ(import, (std::vector<std::string>{"/opt/ncu", "--import", "/tmp/w/profile.ncu-rep", "--csv", "--page",
                                              "raw", "--print-units", "base"}));
}

TEST(NcuProgram, ItsOutputSaysItsVersionAndWhyItCannotCount) {
  EXPECT_EQ(ncu_version_in("NVIDIA (R) Nsight Compute Command Line Profiler\nCopyright (c) 2018-2025 NVIDIA "
                           "Corporation\nVersion 2025.3.1.0 (build 36398880) (public-release)\n"),
            "2025.3.1.0");
  EXPECT_EQ(ncu_version_in("ncu: command not found"), "");
  EXPECT_TRUE(says_no_counter_permission(
      "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters"));
  EXPECT_FALSE(says_no_counter_permission("==PROF== Connected to process 526"));
  EXPECT_TRUE(is_ncu_error("==ERROR== unrecognised option '--nvtx-include'"));
  EXPECT_FALSE(is_ncu_error("cudalab: ==ERROR== is not ncu's"));
}

TEST(NcuProgram, CudalabNcuNamesTheProgram) {
  const char* before = std::getenv("CUDALAB_NCU");
  const std::string saved = before ? before : "";
  ::setenv("CUDALAB_NCU", "/nonexistent/ncu", 1);
  std::string why;
  EXPECT_FALSE(find_ncu(why).has_value());
  EXPECT_NE(why.find("$CUDALAB_NCU names /nonexistent/ncu"), std::string::npos) << why;
  ::setenv("CUDALAB_NCU", "/bin/sh", 1);
  EXPECT_EQ(find_ncu(why), fs::path("/bin/sh"));
  if (before)
    ::setenv("CUDALAB_NCU", saved.c_str(), 1);
  else
    ::unsetenv("CUDALAB_NCU");
}

}  // namespace
}  // namespace cudalab::host
