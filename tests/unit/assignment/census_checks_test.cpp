// The integrity checks on a kernel census, on hand-made censuses: globs, work off the session stream or
// after it finished, host copies in a device-memory lab (and not in a host-bus one), denied kernel names,
// too few or too many kernels, a census that could not be taken or is short, and none when none was taken.
#include <gtest/gtest.h>

#include "assignment/census_checks.hpp"

namespace cudalab::host {
namespace {

constexpr std::uint32_t session = 13;

census_kernel kernel(std::string name, std::uint32_t stream = session, bool after = false) {
  census_kernel k;
  k.name = std::move(name);
  k.stream = stream;
  k.after_session = after;
  return k;
}

census_copy copy(std::string kind, std::uint32_t stream = session, bool after = false) {
  census_copy c;
  c.kind = std::move(kind);
  c.bytes = 4096;
  c.stream = stream;
  c.after_session = after;
  return c;
}

variant_result with(std::vector<census_kernel> kernels, std::vector<census_copy> copies = {},
                    memory_path path = memory_path::device) {
  variant_result r;
  r.bytes = {1000, 1000, path};
  r.census.taken = true;
  r.census.session_stream = session;
  r.census.kernel_count = kernels.size();
  r.census.copy_count = copies.size();
  r.census.kernels = std::move(kernels);
  r.census.copies = std::move(copies);
  return r;
}

std::vector<std::string> checks(const std::vector<grade_flag>& flags) {
  std::vector<std::string> out;
  for (const grade_flag& f : flags) out.push_back(f.check + ":" + f.severity);
  return out;
}

TEST(Glob, StarsAndQuestionMarks) {
  EXPECT_TRUE(glob_match("*cub::*", "void cub::CUB_300000_SM_900::DeviceReduceKernel<float>(float const*)"));
  EXPECT_TRUE(glob_match("*cublas*", "cublasLt::splitKreduce_kernel"));
  EXPECT_TRUE(glob_match("reduce_?", "reduce_1"));
  EXPECT_TRUE(glob_match("*", ""));
  EXPECT_TRUE(glob_match("a*b*c", "aXXbYYc"));
  EXPECT_TRUE(glob_match("a*b", "abab"));
  EXPECT_FALSE(glob_match("*cub::*", "my_cube_kernel(float*)"));
  EXPECT_FALSE(glob_match("reduce_?", "reduce_12"));
  EXPECT_FALSE(glob_match("*CUB::*", "void cub::Kernel"));  // case-sensitive
  EXPECT_FALSE(glob_match("a*b", "abac"));
}

TEST(CensusChecks, AnHonestCensusRaisesNothing) {
  const variant_result r = with({kernel("partial_sums(float const*, unsigned long long, float*)"),
                                 kernel("partial_sums(float const*, unsigned long long, float*)")},
                                {copy("memset")});
  EXPECT_TRUE(census_flags(r, census_policy{}).empty());
}

TEST(CensusChecks, NoCensusTakenRaisesNothing) {
  variant_result r;
  EXPECT_TRUE(census_flags(r, census_policy{}).empty());
}

TEST(CensusChecks, AnUnavailableCensusSaysWhy) {
  variant_result r;
  r.census = unavailable_census("CUPTI cannot be loaded: nope");
  const auto flags = census_flags(r, census_policy{});
  ASSERT_EQ(checks(flags), std::vector<std::string>{"census:info"});
  EXPECT_NE(flags[0].message.find("could not be taken: CUPTI cannot be loaded: nope"), std::string::npos);
}

TEST(CensusChecks, WorkOnAnotherStreamIsFlaggedUnderSession) {
  const variant_result r = with({kernel("k"), kernel("sneaky(float*)", 21)}, {copy("D2D", 21)});
  const auto flags = census_flags(r, census_policy{});
  ASSERT_EQ(checks(flags), std::vector<std::string>{"census.stream:blocking"});
  EXPECT_NE(flags[0].message.find("1 kernel (sneaky(float*) on stream 21) and 1 copy (D2D of 4096 bytes on stream "
                                  "21) ran on a stream other than the session stream (13)"),
            std::string::npos)
      << flags[0].message;
}

TEST(CensusChecks, JoinedStreamsPassUnderJoinedButWorkAfterTheSessionDoesNot) {
  census_policy joined;
  joined.stream = "joined";
  EXPECT_TRUE(census_flags(with({kernel("add_chunk", 21), kernel("add_chunk", 22)}), joined).empty());
  const variant_result late = with({kernel("add_chunk", 21), kernel("escaped(int*)", 23, true)});
  const auto flags = census_flags(late, joined);
  ASSERT_EQ(checks(flags), std::vector<std::string>{"census.stream:blocking"});
  EXPECT_NE(flags[0].message.find("1 kernel (escaped(int*) on stream 23) still ran after the session stream had "
                                  "finished"),
            std::string::npos)
      << flags[0].message;
  census_policy any;
  any.stream = "any";
  EXPECT_TRUE(census_flags(late, any).empty());
  // Under "session" both are said: another stream, and after the session stream's end.
  EXPECT_EQ(checks(census_flags(late, census_policy{})),
            (std::vector<std::string>{"census.stream:blocking", "census.stream:blocking"}));
}

TEST(CensusChecks, HostCopiesAreACpuFallbackInADeviceLabOnly) {
  const std::vector<census_copy> copies = {copy("D2H"), copy("H2D"), copy("D2D")};
  const auto flags = census_flags(with({kernel("k")}, copies), census_policy{});
  ASSERT_EQ(checks(flags), std::vector<std::string>{"census.host_copies:blocking"});
  EXPECT_NE(flags[0].message.find("2 copies between host and device while the submission ran (D2H of 4096 bytes on "
                                  "stream 13; H2D of 4096 bytes on stream 13)"),
            std::string::npos)
      << flags[0].message;
  EXPECT_TRUE(census_flags(with({kernel("k")}, copies, memory_path::host_bus), census_policy{}).empty());
  census_policy allow;
  allow.host_copies = "allow";
  EXPECT_TRUE(census_flags(with({kernel("k")}, copies), allow).empty());
}

TEST(CensusChecks, DeniedNamesAreFlaggedWithThePatternsThatMatched) {
  const variant_result r =
      with({kernel("void cub::CUB_300000_SM_900::DeviceReduceKernel<float>(float const*)"),
            kernel("void cub::CUB_300000_SM_900::DeviceReduceSingleTileKernel<float>()"), kernel("my_kernel(float*)")});
  const auto flags = census_flags(r, census_policy{});
  ASSERT_EQ(checks(flags), std::vector<std::string>{"census.deny:blocking"});
  EXPECT_NE(flags[0].message.find("2 kernels whose name a denied pattern (*cub::*) matches: void cub::"),
            std::string::npos)
      << flags[0].message;
  census_policy none;
  none.deny.clear();
  EXPECT_TRUE(census_flags(r, none).empty());
}

TEST(CensusChecks, TooFewOrTooManyKernels) {
  const auto none = census_flags(with({}, {copy("D2D")}), census_policy{});
  ASSERT_EQ(checks(none), std::vector<std::string>{"census.kernels:blocking"});
  EXPECT_NE(none[0].message.find("no kernel ran (at least 1 must)"), std::string::npos) << none[0].message;
  census_policy bounds;
  bounds.min_kernels = 2;
  bounds.max_kernels = 3;
  EXPECT_NE(census_flags(with({kernel("a")}), bounds)[0].message.find("1 kernel ran, fewer than the 2"),
            std::string::npos);
  EXPECT_TRUE(census_flags(with({kernel("a"), kernel("b")}), bounds).empty());
  variant_result many = with({kernel("a")});
  many.census.kernel_count = 4000;  // counted past what was kept
  const auto flags = census_flags(many, bounds);
  ASSERT_EQ(checks(flags), std::vector<std::string>{"census.kernels:blocking"});
  EXPECT_NE(flags[0].message.find("4000 kernels ran, more than the 3 the assignment allows"), std::string::npos);
}

TEST(CensusChecks, AShortCensusIsAWarning) {
  variant_result r = with({kernel("k")});
  r.census.dropped_records = 5;
  EXPECT_EQ(checks(census_flags(r, census_policy{})), std::vector<std::string>{"census:warning"});
}

}  // namespace
}  // namespace cudalab::host
