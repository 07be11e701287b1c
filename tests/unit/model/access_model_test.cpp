// The access model against hand-worked cases from the source chapters: sectors per request, bank conflicts,
// serialised atomics, and the loop helpers' weights (the tile helpers': tests/plugin/trace_tiles_test.cpp).
#include <gtest/gtest.h>

#include "cudalab/trace_loops.hpp"
#include "model/access_model.hpp"

namespace cudalab::host {
namespace {

warp_access global(access_kind kind, unsigned bytes, std::uint64_t (*addr)(unsigned)) {
  warp_access a;
  a.space = memory_space::global;
  a.kind = kind;
  a.bytes_per_lane = bytes;
  for (unsigned l = 0; l < 32; ++l) a.address[l] = addr(l);
  return a;
}

TEST(AccessModel, AlignedCoalescedFloatsAreFourSectors) {
  const auto c = global_request_cost(global(access_kind::load, 4, [](unsigned l) { return std::uint64_t(l) * 4; }));
  EXPECT_EQ(c.sectors, 4u);
  EXPECT_EQ(c.lines, 1u);
  EXPECT_EQ(c.requested_bytes, 128u);
}

TEST(AccessModel, OffsetByOneElementTouchesFiveSectors) {
  const auto c =
      global_request_cost(global(access_kind::load, 4, [](unsigned l) { return (std::uint64_t(l) + 1) * 4; }));
  EXPECT_EQ(c.sectors, 5u);
  EXPECT_EQ(c.lines, 2u);
}

TEST(AccessModel, OffsetByEightElementsStaysFiveSectorsButOffsetThirtyTwoIsAligned) {
  EXPECT_EQ(
      global_request_cost(global(access_kind::load, 4, [](unsigned l) { return std::uint64_t((l + 8) * 4); })).sectors,
      4u);
  EXPECT_EQ(
      global_request_cost(global(access_kind::load, 4, [](unsigned l) { return std::uint64_t((l + 7) * 4); })).sectors,
      5u);
  EXPECT_EQ(
      global_request_cost(global(access_kind::load, 4, [](unsigned l) { return std::uint64_t((l + 32) * 4); })).sectors,
      4u);
}

TEST(AccessModel, StrideTwoIsEightSectorsStrideEightIsThirtyTwo) {
  EXPECT_EQ(
      global_request_cost(global(access_kind::load, 4, [](unsigned l) { return std::uint64_t(l * 2 * 4); })).sectors,
      8u);
  EXPECT_EQ(
      global_request_cost(global(access_kind::load, 4, [](unsigned l) { return std::uint64_t(l * 4 * 4); })).sectors,
      16u);
  EXPECT_EQ(
      global_request_cost(global(access_kind::load, 4, [](unsigned l) { return std::uint64_t(l * 8 * 4); })).sectors,
      32u);
  EXPECT_EQ(
      global_request_cost(global(access_kind::load, 4, [](unsigned l) { return std::uint64_t(l * 33 * 4); })).sectors,
      32u);
}

TEST(AccessModel, AllLanesOneWordIsOneSector) {
  const auto c = global_request_cost(global(access_kind::load, 4, [](unsigned) { return std::uint64_t(64); }));
  EXPECT_EQ(c.sectors, 1u);
  // The warp asks for those 4 bytes once: efficiency 4/32, never above 100% (it was 128 bytes, 400%).
  EXPECT_EQ(c.requested_bytes, 4u);
}

TEST(AccessModel, Float4CoalescedIsSixteenSectors) {
  const auto c = global_request_cost(global(access_kind::load, 16, [](unsigned l) { return std::uint64_t(l) * 16; }));
  EXPECT_EQ(c.sectors, 16u);
  EXPECT_EQ(c.lines, 4u);
}

TEST(AccessModel, InactiveLanesAreNotCounted) {
  auto a = global(access_kind::store, 4, [](unsigned l) { return std::uint64_t(l) * 4; });
  a.active = 0x0000ffffu;
  const auto c = global_request_cost(a);
  EXPECT_EQ(c.sectors, 2u);
  EXPECT_EQ(c.requested_bytes, 64u);
}

TEST(AccessModel, RejectsOddAccessWidths) {
  auto a = global(access_kind::load, 3, [](unsigned l) { return std::uint64_t(l) * 4; });
  EXPECT_THROW(global_request_cost(a), std::invalid_argument);
}

warp_access shared(unsigned bytes, std::uint64_t (*addr)(unsigned)) {
  warp_access a;
  a.space = memory_space::shared;
  a.bytes_per_lane = bytes;
  for (unsigned l = 0; l < 32; ++l) a.address[l] = addr(l);
  return a;
}

TEST(AccessModel, TileColumnReadIsThirtyTwoWayConflict) {
  // tile[32][32] floats; lane l reads tile[l][5].
  const auto c = shared_request_cost(shared(4, [](unsigned l) { return (std::uint64_t(l) * 32 + 5) * 4; }));
  EXPECT_EQ(c.wavefronts, 32u);
  EXPECT_EQ(c.ideal_wavefronts, 1u);
}

TEST(AccessModel, PaddedTileColumnReadHasNoConflict) {
  // tile[32][33] floats; lane l reads tile[l][5].
  const auto c = shared_request_cost(shared(4, [](unsigned l) { return (std::uint64_t(l) * 33 + 5) * 4; }));
  EXPECT_EQ(c.wavefronts, 1u);
}

TEST(AccessModel, BroadcastOfOneWordIsFree) {
  const auto c = shared_request_cost(shared(4, [](unsigned) { return std::uint64_t(40); }));
  EXPECT_EQ(c.wavefronts, 1u);
}

TEST(AccessModel, SharedStrideFollowsGcdPattern) {
  // stride s words: conflict degree gcd(s, 32).
  EXPECT_EQ(shared_request_cost(shared(4, [](unsigned l) { return std::uint64_t(l * 2 * 4); })).wavefronts, 2u);
  EXPECT_EQ(shared_request_cost(shared(4, [](unsigned l) { return std::uint64_t(l * 3 * 4); })).wavefronts, 1u);
  EXPECT_EQ(shared_request_cost(shared(4, [](unsigned l) { return std::uint64_t(l * 8 * 4); })).wavefronts, 8u);
  EXPECT_EQ(shared_request_cost(shared(4, [](unsigned l) { return std::uint64_t(l * 12 * 4); })).wavefronts, 4u);
}

TEST(AccessModel, WideSharedAccessesNeedOneWavefrontPer128Bytes) {
  const auto f2 = shared_request_cost(shared(8, [](unsigned l) { return std::uint64_t(l) * 8; }));
  EXPECT_EQ(f2.wavefronts, 2u);
  EXPECT_EQ(f2.ideal_wavefronts, 2u);
  const auto f4 = shared_request_cost(shared(16, [](unsigned l) { return std::uint64_t(l) * 16; }));
  EXPECT_EQ(f4.wavefronts, 4u);
  EXPECT_EQ(f4.ideal_wavefronts, 4u);
}

TEST(AccessModel, TotalsScaleBySample) {
  access_model m;
  m.access(global(access_kind::load, 4, [](unsigned l) { return (std::uint64_t(l) + 1) * 4; }));
  m.access(shared(4, [](unsigned l) { return std::uint64_t(l) * 32 * 4; }));
  m.sampled(1, 10);
  const auto s = m.stats();
  EXPECT_EQ(s.global_load.requests, 10u);
  EXPECT_EQ(s.global_load.sectors, 50u);
  EXPECT_DOUBLE_EQ(s.global_load.sectors_per_request(), 5.0);
  EXPECT_DOUBLE_EQ(s.global_load.efficiency(), 0.8);
  EXPECT_EQ(s.shared_load.conflicts(), 310u);
  EXPECT_DOUBLE_EQ(s.shared_load.conflicts_per_request(), 31.0);
  EXPECT_EQ(s.global_store.requests, 0u);
}

TEST(AccessModel, RepeatWeighsRepresentativeBlocks) {
  access_model m;
  // 9 full blocks like block 0 (one aligned warp each), then a tail block with 8 active lanes.
  m.trace_blocks(10, [&](std::uint64_t b) {
    m.warp(memory_space::global, access_kind::load, 4, [&](unsigned l) {
      const std::uint64_t i = b * 32 + l;
      return i < 9 * 32 + 8 ? (long long)(i * 4) : -1LL;
    });
  });
  const auto s = m.stats();
  EXPECT_EQ(s.global_load.requests, 10u);
  EXPECT_EQ(s.global_load.sectors, 9u * 4 + 1);
  EXPECT_EQ(s.global_load.requested_bytes, (9u * 32 + 8) * 4);
  EXPECT_THROW(m.set_weight(0), std::invalid_argument);
}

TEST(AccessModel, TraceBlocksWithOneBlockTracesItOnce) {
  access_model m;
  int calls = 0;
  m.trace_blocks(1, [&](std::uint64_t b) {
    ++calls;
    EXPECT_EQ(b, 0u);
    m.warp(memory_space::shared, access_kind::store, 4, [](unsigned l) { return (long long)l * 4; });
  });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(m.stats().shared_store.requests, 1u);
  m.trace_blocks(0, [&](std::uint64_t) { ++calls; });
  EXPECT_EQ(calls, 1);
}

TEST(AccessModel, SampleMustBeConsistent) {
  access_model m;
  EXPECT_THROW(m.sampled(0, 10), std::invalid_argument);
  EXPECT_THROW(m.sampled(11, 10), std::invalid_argument);
}

TEST(AccessModel, TraceSinkWarpHelperSkipsNegativeLanes) {
  access_model m;
  m.warp(memory_space::global, access_kind::store, 4, [](unsigned l) { return l < 8 ? (long long)l * 4 : -1LL; });
  m.warp(memory_space::global, access_kind::store, 4, [](unsigned) { return -1LL; });
  const auto s = m.stats();
  EXPECT_EQ(s.global_store.requests, 1u);
  EXPECT_EQ(s.global_store.sectors, 1u);
}

TEST(AccessModel, GlobalAtomicsOnOneWordAreSerialised) {
  // A skewed histogram: every lane adds to one bin. A store would merge them; an atomic takes 32 turns.
  const auto one_word = global_request_cost(global(access_kind::atomic, 4, [](unsigned) { return std::uint64_t(64); }));
  EXPECT_EQ(one_word.sectors, 32u);
  EXPECT_EQ(one_word.lines, 1u);
  EXPECT_EQ(global_request_cost(global(access_kind::store, 4, [](unsigned) { return std::uint64_t(64); })).sectors, 1u);
}

TEST(AccessModel, GlobalAtomicsCostTheBusiestWordOfEachSector) {
  // Distinct consecutive words: like a store, 4 sectors. Eight words of one sector, four lanes each: 4.
  EXPECT_EQ(
      global_request_cost(global(access_kind::atomic, 4, [](unsigned l) { return std::uint64_t(l) * 4; })).sectors, 4u);
  EXPECT_EQ(
      global_request_cost(global(access_kind::atomic, 4, [](unsigned l) { return std::uint64_t(l % 8 * 4); })).sectors,
      4u);
  // Two sectors: one word hit by 31 lanes, another by one lane.
  EXPECT_EQ(
      global_request_cost(global(access_kind::atomic, 4, [](unsigned l) { return std::uint64_t(l == 0 ? 32 : 0); }))
          .sectors,
      32u);
}

TEST(AccessModel, SharedAtomicsOnOneWordAreCombinedLikeABroadcast) {
  // A load of one word by every lane is a broadcast (1 wavefront); an atomic on it is combined alike (the H100's
  // count for a histogram with every value in one bin: 1 wavefront per request, not the 32 the model once said).
  warp_access a = shared(4, [](unsigned) { return std::uint64_t(8); });
  EXPECT_EQ(shared_request_cost(a).wavefronts, 1u);
  a.kind = access_kind::atomic;
  EXPECT_EQ(shared_request_cost(a).wavefronts, 1u);
  EXPECT_EQ(shared_request_cost(a).ideal_wavefronts, 1u);
  // Two words in one bank, 16 lanes on each: two wavefronts, one conflict (not 32 and 31).
  warp_access two = shared(4, [](unsigned l) { return std::uint64_t(l % 2 * 128); });
  two.kind = access_kind::atomic;
  EXPECT_EQ(shared_request_cost(two).wavefronts, 2u);
  // Distinct words in distinct banks: one wavefront, as for a store.
  warp_access spread = shared(4, [](unsigned l) { return std::uint64_t(l) * 4; });
  spread.kind = access_kind::atomic;
  EXPECT_EQ(shared_request_cost(spread).wavefronts, 1u);
}

TEST(AccessModel, AtomicsAreCountedApart) {
  access_model m;
  m.warp(memory_space::global, access_kind::atomic, 4, [](unsigned) { return 0LL; });
  m.warp(memory_space::shared, access_kind::atomic, 4, [](unsigned l) { return (long long)l * 4; });
  const auto s = m.stats();
  EXPECT_EQ(s.global_atomic.requests, 1u);
  EXPECT_DOUBLE_EQ(s.global_atomic.sectors_per_request(), 32.0);
  EXPECT_EQ(s.shared_atomic.requests, 1u);
  EXPECT_EQ(s.global_store.requests + s.global_load.requests + s.shared_store.requests, 0u);
  EXPECT_FALSE(s.empty());
  EXPECT_THROW(m.warp(memory_space::global, access_kind::atomic, 2, [](unsigned) { return 0LL; }),
               std::invalid_argument);
}

TEST(AccessModel, WeightsCompose) {
  access_model m;
  m.trace_blocks(11, [&](std::uint64_t) {
    cudalab::weighted w(m, 3);  // each block issues three alike warps
    m.warp(memory_space::global, access_kind::load, 4, [](unsigned l) { return (long long)l * 4; });
  });
  EXPECT_EQ(m.stats().global_load.requests, 33u);
  EXPECT_EQ(m.weight(), 1u);
}

TEST(AccessModel, WarpStepsOfAGridStrideLoopAreExactWhenSampled) {
  // 1,000,003 items: 31,250 full warp steps and one of 3 lanes, traced with at most 100 samples.
  access_model m;
  cudalab::trace_warp_steps(
      m, 1000003,
      [&](std::uint64_t first, unsigned lanes) {
        m.warp(memory_space::global, access_kind::load, 4,
               [&](unsigned l) { return l < lanes ? (long long)((first + l) * 4) : -1LL; });
      },
      100);
  const auto s = m.stats();
  EXPECT_EQ(s.global_load.requests, 31251u);
  EXPECT_EQ(s.global_load.sectors, 31250u * 4 + 1);
  EXPECT_EQ(s.global_load.requested_bytes, 1000003u * 4);
}

}  // namespace
}  // namespace cudalab::host
