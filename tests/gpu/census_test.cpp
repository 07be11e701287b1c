// The integrity checks on a GPU, end to end: `cudalab run` with a submission fixture that cheats, its results
// read back and judged by census_flags (assignment/census_checks) - work on a stream of its own, work left running
// after the session stream, a CPU fallback through host copies, library kernels (CUB) by name - an honest
// submission's census (its kernels by name, on the session stream, no flag), and a static counter caught by
// verification after timing. Also registered on the fake CUDA runtime and its fake CUPTI (fake.census), where the
// cases that need kernels to run are skipped.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "assignment/census_checks.hpp"
#include "results/json.hpp"

namespace cudalab::host {
namespace {

namespace fs = std::filesystem;

const fs::path source = CUDALAB_SOURCE_DIR;
const fs::path submissions = source / "tests" / "fixtures" / "submissions";

bool on_fake_runtime() {
  const char* fake = std::getenv("CUDALAB_FAKE_GPU");
  return fake != nullptr && std::string(fake) == "1";
}

// `cudalab run LAB_FILE ARGS` into a fresh folder, its results read back (its output kept beside them).
std::vector<variant_result> run(const std::string& name, const std::string& lab_file, const std::string& args) {
  const fs::path out = fs::path(CUDALAB_BINARY_DIR) / "tests" / (on_fake_runtime() ? "census_fake" : "census") / name;
  fs::remove_all(out);
  fs::create_directories(out.parent_path());
  const fs::path log = out.string() + ".log";
  const std::string command = std::string("'") + CUDALAB_EXE + "' run '" + (source / "labs" / lab_file).string() +
                              "' " + args + " --out '" + out.string() + "' > '" + log.string() + "' 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream in(out / "results.json");
  std::stringstream text;
  text << in.rdbuf();
  if (text.str().empty()) {
    std::ifstream l(log);
    std::stringstream said;
    said << l.rdbuf();
    ADD_FAILURE() << command << " (status " << status << ") wrote no results.json:\n" << said.str();
    return {};
  }
  return parse_results_document(text.str()).results;
}

// The student's results of a verify-only run of a submission for `slot`, with the census.
std::vector<variant_result> census_of(const std::string& name, const std::string& lab_file, const std::string& slot,
                                      const fs::path& submission, const std::string& more = "") {
  std::vector<variant_result> all =
      run(name, lab_file,
          "--submission " + slot + "='" + submission.string() + "' --set lab.variants=student:" + slot +
              " --set measure.census=true --set measure.timing=false " + more);
  std::vector<variant_result> student;
  for (variant_result& r : all)
    if (r.variant == "student:" + slot) student.push_back(std::move(r));
  return student;
}

std::vector<std::string> checks_of(const std::vector<grade_flag>& flags) {
  std::vector<std::string> out;
  for (const grade_flag& f : flags) out.push_back(f.check);
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& x) {
  for (const std::string& s : v)
    if (s == x) return true;
  return false;
}

std::string flags_text(const std::vector<grade_flag>& flags) {
  std::string out;
  for (const grade_flag& f : flags) out += f.check + " (" + f.severity + "): " + f.message + "\n";
  return out;
}

// Every kernel and copy of a census, one per line: what a failed expectation shows of the run.
std::string census_text(const kernel_census& c) {
  std::string out = "session stream " + std::to_string(c.session_stream) + ", " + std::to_string(c.kernel_count) +
                    " kernels, " + std::to_string(c.copy_count) + " copies\n";
  for (const census_kernel& k : c.kernels)
    out += "  kernel " + k.name + " stream " + std::to_string(k.stream) + " " + std::to_string(k.duration_ns) + " ns" +
           (k.after_session ? " after the session" : "") + "\n";
  for (const census_copy& x : c.copies)
    out += "  " + x.kind + " " + std::to_string(x.bytes) + " B stream " + std::to_string(x.stream) + " " +
           std::to_string(x.duration_ns) + " ns" + (x.after_session ? " after the session" : "") + "\n";
  return out;
}

TEST(CensusGpu, AnHonestLauncherHasItsKernelsOnTheSessionStreamAndNoFlag) {
  if (on_fake_runtime()) GTEST_SKIP() << "the reduction lab's setup needs CUB, which the fake runtime cannot run";
  // In a child per lab file, as `check` runs tests: the census comes back through the child's result lines.
  const auto rs = census_of("honest", "reduction.toml", "reduce_sum",
                            source / "plugins" / "reduction" / "slots" / "reduce_sum.cu", "--set n=1Mi --isolate=file");
  ASSERT_EQ(rs.size(), 1u);
  const variant_result& r = rs[0];
  EXPECT_EQ(r.status, result_status::ok) << r.error;
  ASSERT_TRUE(r.census.available()) << r.census.unavailable;
  ASSERT_EQ(r.census.kernels.size(), 2u);  // two passes
  for (const census_kernel& k : r.census.kernels) {
    EXPECT_NE(k.name.find("partial_sums"), std::string::npos) << k.name;
    EXPECT_EQ(k.stream, r.census.session_stream) << k.name;
    EXPECT_FALSE(k.after_session) << k.name;
    EXPECT_EQ(k.block[0], 256);
    EXPECT_GT(k.registers, 0u);
    EXPECT_GT(k.static_shared_bytes, 0u);  // block_sum's warp totals
  }
  EXPECT_EQ(r.census.kernels[1].grid[0], 1);  // pass 2: one block
  EXPECT_TRUE(r.census.copies.empty());
  const auto flags = census_flags(r, census_policy{});
  EXPECT_TRUE(flags.empty()) << flags_text(flags);
}

TEST(CensusGpu, KernelsOnAStreamOfItsOwnAreFlagged) {
  if (on_fake_runtime()) GTEST_SKIP() << "the reduction lab's setup needs CUB, which the fake runtime cannot run";
  const auto rs = census_of("own_stream", "reduction.toml", "reduce_sum", submissions / "reduction" / "own_stream.cu",
                            "--set n=1Mi");
  ASSERT_EQ(rs.size(), 1u);
  ASSERT_TRUE(rs[0].census.available()) << rs[0].census.unavailable;
  EXPECT_EQ(rs[0].census.kernel_count, 2u);
  for (const census_kernel& k : rs[0].census.kernels) EXPECT_NE(k.stream, rs[0].census.session_stream);
  const auto flags = census_flags(rs[0], census_policy{});
  EXPECT_EQ(checks_of(flags), std::vector<std::string>{"census.stream"}) << flags_text(flags);
}

TEST(CensusGpu, ACpuFallbackIsFlaggedByItsHostCopiesAndItsMissingKernels) {
  if (on_fake_runtime()) GTEST_SKIP() << "the reduction lab's setup needs CUB, which the fake runtime cannot run";
  const auto rs =
      census_of("host_copy", "reduction.toml", "reduce_sum", submissions / "reduction" / "host_copy.cu", "--set n=1Mi");
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs[0].status, result_status::ok) << "the fallback's sum is right: only the census tells";
  ASSERT_TRUE(rs[0].census.available()) << rs[0].census.unavailable;
  const auto flags = census_flags(rs[0], census_policy{});
  const auto checks = checks_of(flags);
  EXPECT_TRUE(has(checks, "census.host_copies")) << flags_text(flags);
  EXPECT_TRUE(has(checks, "census.kernels")) << flags_text(flags);
  bool d2h = false;
  for (const census_copy& c : rs[0].census.copies) d2h = d2h || (c.kind == "D2H" && c.bytes == (1u << 20) * 4);
  EXPECT_TRUE(d2h) << "the census names the input's copy to the host";
}

TEST(CensusGpu, LibraryKernelsAreDeniedByName) {
  if (on_fake_runtime()) GTEST_SKIP() << "the reduction lab's CUB baseline cannot run on the fake runtime";
  // The lab's own baseline is CUB: its kernels are what a submission that called CUB would launch.
  const auto rs = run("cub", "reduction.toml",
                      "--set lab.variants=cub --set n=1Mi --set measure.census=true "
                      "--set measure.timing=false");
  ASSERT_EQ(rs.size(), 1u);
  ASSERT_TRUE(rs[0].census.available()) << rs[0].census.unavailable;
  const auto flags = census_flags(rs[0], census_policy{});
  EXPECT_EQ(checks_of(flags), std::vector<std::string>{"census.deny"}) << flags_text(flags);
}

TEST(CensusGpu, TheLabsOwnStreamsPassWhenJoinedAndNotUnderSession) {
  // mapped_pinned hands its slot streams of its own, joined to the session stream before and after.
  const auto rs = census_of("lab_streams", "mapped_pinned.toml", "add_overlapped",
                            source / "plugins" / "mapped_pinned" / "slots" / "add_overlapped.cu",
                            "--set n=1Mi --set chunks=8 --set streams=4");
  ASSERT_EQ(rs.size(), 1u);
  ASSERT_TRUE(rs[0].census.available()) << rs[0].census.unavailable;
  EXPECT_EQ(rs[0].census.kernel_count, 8u);  // a kernel per chunk
  census_policy joined;
  joined.stream = "joined";
  const auto flags = census_flags(rs[0], joined);
  EXPECT_TRUE(flags.empty()) << flags_text(flags);  // and its host copies are its lab's path: allowed
  EXPECT_EQ(checks_of(census_flags(rs[0], census_policy{})), std::vector<std::string>{"census.stream"});
}

TEST(CensusGpu, WorkNobodyWaitsForIsFlaggedEvenWhereOtherStreamsAreAllowed) {
  // On the fake runtime, its CUPTI keeps spin_for running 100 ms (FAKECUPTI_RUNS_ON, tests/gpu/CMakeLists.txt).
  const auto rs =
      census_of("unjoined", "mapped_pinned.toml", "add_overlapped",
                submissions / "mapped_pinned" / "unjoined_stream.cu", "--set n=1Mi --set chunks=8 --set streams=4");
  ASSERT_EQ(rs.size(), 1u);
  ASSERT_TRUE(rs[0].census.available()) << rs[0].census.unavailable;
  census_policy joined;
  joined.stream = "joined";
  const auto flags = census_flags(rs[0], joined);
  ASSERT_EQ(checks_of(flags), std::vector<std::string>{"census.stream"})
      << flags_text(flags) << census_text(rs[0].census);
  EXPECT_NE(flags[0].message.find("spin_for"), std::string::npos) << flags[0].message;
  EXPECT_NE(flags[0].message.find("after the session stream had finished"), std::string::npos) << flags[0].message;
}

TEST(CensusGpu, AStaticCounterFailsVerificationAfterTiming) {
  if (on_fake_runtime()) GTEST_SKIP() << "the reduction lab's setup needs CUB, which the fake runtime cannot run";
  const std::string timing =
      "--set lab.variants=student:reduce_sum --set n=1Mi --set measure.repetitions=2 "
      "--set measure.min_time_ms=1 --set measure.warmup_ms=1 --submission reduce_sum='" +
      (submissions / "reduction" / "lazy.cu").string() + "'";
  const auto caught = run("lazy", "reduction.toml", timing + " --set measure.verify_after_timing=true");
  const auto missed = run("lazy_unchecked", "reduction.toml", timing);
  for (const auto* rs : {&caught, &missed}) ASSERT_EQ(rs->size(), 2u);  // the CUB baseline, then the student
  EXPECT_EQ(missed[1].status, result_status::ok) << "without the key, the counter goes unnoticed";
  EXPECT_EQ(caught[1].status, result_status::verify_failed);
  EXPECT_NE(caught[1].verification.note.find("failed after timing: the output was right on the first launch"),
            std::string::npos)
      << caught[1].verification.note;
}

}  // namespace
}  // namespace cudalab::host
