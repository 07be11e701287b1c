// The roofline a result is judged against: DRAM's copy ceiling for a working set larger than L2, the L2
// copy's for one that fits, nothing for a ceiling never measured, the bus's for host-bus traffic, and
// each GPU's own in a run over several.
#include <gtest/gtest.h>

#include "results/roofline.hpp"

namespace cudalab::host {
namespace {

constexpr std::uint64_t l2 = 50ull << 20;  // an H100's 50 MiB

run_context h100() {
  run_context c;
  c.device.l2_cache_bytes = l2;
  c.measured = {3000.0, 55.0, 54.0, 90.0, 7000.0};
  return c;
}

variant_result moving(std::uint64_t read, std::uint64_t written, memory_path path = memory_path::device) {
  variant_result r;
  r.bytes = {read, written, path};
  return r;
}

TEST(Roofline, WorkingSetLargerThanL2IsJudgedByDram) {
  const roofline r = roofline_of(moving(l2, 1), h100());
  EXPECT_EQ(r.which, "DRAM copy");
  EXPECT_DOUBLE_EQ(r.gbps, 3000.0);
  EXPECT_EQ(r.working_set_bytes, l2 + 1);
  EXPECT_EQ(r.l2_bytes, l2);
}

TEST(Roofline, WorkingSetThatFitsInL2IsJudgedByTheL2Copy) {
  for (const std::uint64_t half : {std::uint64_t(1), l2 / 4, l2 / 2}) {  // up to exactly L2's size
    const roofline r = roofline_of(moving(half, half), h100());
    EXPECT_EQ(r.which, "L2 copy") << half;
    EXPECT_DOUBLE_EQ(r.gbps, 7000.0) << half;
    EXPECT_EQ(r.working_set_bytes, 2 * half);
  }
}

TEST(Roofline, AnUnmeasuredCeilingJudgesNothing) {
  run_context old = h100();
  old.measured.l2_copy_gbps = 0;  // a context written before the L2 copy was measured
  const roofline r = roofline_of(moving(1000, 1000), old);
  EXPECT_EQ(r.which, "L2 copy");
  EXPECT_EQ(r.gbps, 0.0);  // not DRAM's lower ceiling: an L2-resident result may pass it
  old.measured.d2d_copy_gbps = std::numeric_limits<double>::quiet_NaN();  // null read back
  EXPECT_EQ(roofline_of(moving(l2, l2), old).gbps, 0.0);
}

TEST(Roofline, UnknownL2SizeIsJudgedByDram) {
  run_context c = h100();
  c.device.l2_cache_bytes = 0;
  EXPECT_EQ(roofline_of(moving(10, 10), c).which, "DRAM copy");
}

TEST(Roofline, HostBusTrafficIsJudgedByTheBusInItsDirections) {
  const run_context c = h100();
  const roofline both = roofline_of(moving(100, 100, memory_path::host_bus), c);
  EXPECT_EQ(both.which, "H2D + D2H at once");
  EXPECT_DOUBLE_EQ(both.gbps, 90.0);
  EXPECT_DOUBLE_EQ(roofline_of(moving(100, 0, memory_path::host_bus), c).gbps, 55.0);
  EXPECT_EQ(roofline_of(moving(0, 100, memory_path::host_bus), c).which, "D2H copy");
  EXPECT_DOUBLE_EQ(roofline_of(moving(0, 100, memory_path::host_bus), c).gbps, 54.0);
}

TEST(Roofline, EachGpuOfARunOverSeveralHasItsOwn) {
  run_context c = h100();
  run_device small;
  small.ordinal = 1;
  small.device.l2_cache_bytes = 4ull << 20;
  small.measured = {900.0, 25.0, 25.0, 40.0, 2500.0};
  c.devices = {run_device{0, c.device, c.measured, {}}, small};
  variant_result r = moving(3ull << 20, 3ull << 20);  // 6 MiB: in the H100's L2, not in GPU 1's
  r.device = 1;
  EXPECT_EQ(roofline_of(r, c).which, "DRAM copy");
  EXPECT_DOUBLE_EQ(roofline_of(r, c).gbps, 900.0);
  r.device = 0;
  EXPECT_EQ(roofline_of(r, c).which, "L2 copy");
}

}  // namespace
}  // namespace cudalab::host
