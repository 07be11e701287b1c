// The reduction plugin on the CPU: its parameters, its pass planning, and the access model's predictions (coalescing,
// bank conflicts).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../reduction.hpp"
#include "../reduction_kernels.cuh"
#include "cudalab/testing.hpp"

namespace {

const cudalab::testing::lab_under_test& lab() {
  static const cudalab::testing::lab_under_test l("reduction");
  return l;
}

const char* const hand_written[] = {"interleaved_divergent", "interleaved_strided", "sequential",  "first_add",
                                    "unroll_last_warp",      "unroll_complete",     "grid_stride", "warp_shuffle",
                                    "vector_single_pass"};

TEST(ReductionSpec, ProgressionOrderAndDefaults) {
  const cudalab::lab_spec& s = lab().spec();
  ASSERT_EQ(s.variants.size(), 10u);
  for (std::size_t i = 0; i < 9; ++i) EXPECT_EQ(s.variants[i].name, hand_written[i]) << "progression order";
  EXPECT_EQ(s.baseline, "cub");
  const cudalab::params p = lab().with();
  EXPECT_EQ(p.integer("n"), std::int64_t(1) << 28);
  EXPECT_EQ(p.choice("type"), "float");
}

TEST(ReductionSpec, RejectsBadCombinations) {
  for (std::int64_t b : {32, 48, 96, 100, 384, 2048})
    EXPECT_THROW(lab().with({{"block", b}}), std::invalid_argument) << b;
  for (std::int64_t b : {64, 128, 256, 512, 1024}) EXPECT_NO_THROW(lab().with({{"block", b}}));
  // The element types are the choices of `type` (lab files refuse others; lab_under_test::with does
  // not check choices yet).
  for (const cudalab::param_spec& ps : lab().spec().params)
    if (ps.name == "type") {
      EXPECT_EQ(ps.choices, (std::vector<std::string>{"float", "int"}));
    }
  EXPECT_THROW(lab().with({{"n", std::int64_t(0)}}), std::invalid_argument);
  EXPECT_NO_THROW(lab().with({{"type", std::string("int")}, {"n", std::int64_t(1)}}));
}

TEST(ReductionSpec, RequiresTheInputAndSomeScratch) {
  // What requirements_of answers, and the lab answers the same. The input
  // is made and the reference computed on the GPU: no host memory.
  const cudalab::requirements r = reduction::requirements_at(std::uint64_t(1) << 20);
  EXPECT_GE(r.device_bytes, 4u << 20);
  EXPECT_LE(r.device_bytes, (4u << 20) + (4u << 20) / 8 + (2u << 20));
  EXPECT_EQ(r.host_bytes, 0u);
  EXPECT_EQ(r.host_pinned_bytes, 0u);
  const cudalab::requirements via_lab = lab().requirements_of(lab().with({{"n", std::int64_t(1) << 20}}));
  EXPECT_EQ(via_lab.device_bytes, r.device_bytes);
  EXPECT_EQ(via_lab.host_bytes, 0u);
}

TEST(ReductionSpec, OnlyBlockTunes) {
  // A sweep over block keeps the point (retune); n and type shape the input and the reference.
  for (const cudalab::param_spec& ps : lab().spec().params) EXPECT_EQ(ps.tuning, ps.name == "block") << ps.name;
}

TEST(ReductionPlanning, TreeKernelsNeedOneBlockPerChunk) {
  using namespace reduction;
  EXPECT_EQ(pass_blocks(kernel::sequential, 1, 256, 1056), 1u);
  EXPECT_EQ(pass_blocks(kernel::sequential, 256, 256, 1056), 1u);
  EXPECT_EQ(pass_blocks(kernel::sequential, 257, 256, 1056), 2u);
  EXPECT_EQ(pass_blocks(kernel::first_add, 512, 256, 1056), 1u);
  EXPECT_EQ(pass_blocks(kernel::first_add, 513, 256, 1056), 2u);
  EXPECT_EQ(pass_blocks(kernel::interleaved_divergent, std::uint64_t(1) << 28, 256, 1056), std::uint64_t(1) << 20);
  EXPECT_EQ(pass_blocks(kernel::unroll_complete, std::uint64_t(1) << 28, 256, 1056), std::uint64_t(1) << 19);
}

TEST(ReductionPlanning, GridStrideKernelsUseOneWaveThenOneBlock) {
  using namespace reduction;
  for (kernel k : {kernel::grid_stride, kernel::warp_shuffle, kernel::vector_single_pass}) {
    EXPECT_EQ(pass_blocks(k, std::uint64_t(1) << 28, 256, 1056), 1056u);
    EXPECT_EQ(pass_blocks(k, 1056, 256, 1056), 1u);  // the partials of a wave: one block
    EXPECT_EQ(pass_blocks(k, 1, 256, 1056), 1u);
    EXPECT_EQ(pass_blocks(k, 8192, 256, 1056), 1u);
  }
  EXPECT_EQ(pass_blocks(kernel::warp_shuffle, (1 << 20) + 7, 256, 1056), 1056u);
  EXPECT_EQ(pass_blocks(kernel::vector_single_pass, (1 << 20) + 7, 256, 1056), 1025u);  // a float4 per thread
}

TEST(ReductionIndexMath, InterleavedStepsCoverTheBlock) {
  using namespace reduction;
  // After all steps of either interleaved kernel, every word has been folded into word 0 exactly once.
  for (unsigned block : {64u, 256u, 1024u}) {
    std::vector<int> div(block, 1), str(block, 1);
    for (unsigned s = 1; s < block; s *= 2)
      for (unsigned tid = 0; tid < block; ++tid) {
        if (divergent_adds(tid, s)) div[tid] += div[tid + s];
        const unsigned w = strided_word(tid, s);
        if (w < block) str[w] += str[w + s];
      }
    EXPECT_EQ(div[0], int(block));
    EXPECT_EQ(str[0], int(block));
  }
}

// The blocks of every pass a run launches at n = 2^28, block 256 (the model traces them all, as Nsight
// Compute counts them all): one element per thread (kernels 1-3), two (kernels 4-6), a wave of 132 SMs x
// 8 blocks of 256 threads on the model H100 and then one block (kernels 7-8), one launch (kernel 9).
constexpr double one_per_thread_blocks = (1 << 20) + (1 << 12) + (1 << 4) + 1;
constexpr double two_per_thread_blocks = (1 << 19) + (1 << 10) + 2 + 1;

// Shared loads per block at block = 256: the steps s = 1..128 of kernel 1 keep 8, 8, 8, 8, 8, 4, 2, 1
// warps busy (47 warp-steps, two loads each), kernel 2 and 3 only 4, 2, 1, 1, 1, 1, 1, 1 (12 warp-steps);
// then thread 0 reads the sum from word 0. Kernel 2's words 2*s*tid put 2, 4, 8, 8, 8, 4, 2, 1 lanes in
// one bank: 94 + 1 wavefronts for 24 + 1 loads.
TEST(ReductionTrace, BankConflictsOfInterleavedAddressing) {
  const cudalab::params p = lab().with();
  const double blocks = one_per_thread_blocks;

  const auto divergent = lab().predict("interleaved_divergent", p);
  EXPECT_DOUBLE_EQ(double(divergent.shared_load.requests), 95 * blocks);
  EXPECT_EQ(divergent.shared_load.conflicts(), 0u);  // slow for divergence and the modulo, not banks
  EXPECT_EQ(divergent.shared_store.conflicts(), 0u);

  const auto strided = lab().predict("interleaved_strided", p);
  EXPECT_DOUBLE_EQ(double(strided.shared_load.requests), 25 * blocks);
  EXPECT_DOUBLE_EQ(double(strided.shared_load.wavefronts), 95 * blocks);
  EXPECT_DOUBLE_EQ(strided.shared_load.conflicts_per_request(), 70.0 / 25.0);
  EXPECT_GT(strided.shared_store.conflicts(), 0u);

  const auto sequential = lab().predict("sequential", p);
  EXPECT_DOUBLE_EQ(double(sequential.shared_load.requests), 25 * blocks);
  EXPECT_DOUBLE_EQ(double(sequential.shared_load.wavefronts), 25 * blocks);
}

TEST(ReductionTrace, NoBankConflictsFromSequentialAddressingOn) {
  for (std::int64_t block : {64, 128, 256, 512, 1024}) {
    const cudalab::params p = lab().with({{"block", block}});
    for (std::size_t i = 2; i < 9; ++i) {
      SCOPED_TRACE(std::string(hand_written[i]) + " block " + std::to_string(block));
      const auto s = lab().predict(hand_written[i], p);
      EXPECT_GT(s.shared_load.requests, 0u);
      EXPECT_EQ(s.shared_load.conflicts(), 0u);
      EXPECT_EQ(s.shared_store.conflicts(), 0u);
    }
    EXPECT_GT(lab().predict("interleaved_strided", p).shared_load.conflicts(), 0u) << block;
    EXPECT_EQ(lab().predict("interleaved_divergent", p).shared_load.conflicts(), 0u) << block;
  }
}

TEST(ReductionTrace, StridedConflictsReachThirtyTwoWayAtBlock1024) {
  // One block of 1024. At s = 1, 2, 4, 8, 16 the lanes of the 16, 8, 4, 2, 1 busy warps put 2, 4, 8, 16
  // and 32 words in one bank (at s = 16 warp 0 works on words 0, 32, ..., 992: all in bank 0); at
  // s = 32 .. 512 one warp is left with 16, 8, 4, 2, 1 lanes, all in bank 0. Two loads per warp-step:
  // 72 requests, 2 x (5 x 32 + 31) = 382 wavefronts; and the read of the sum, 1 more of each.
  const cudalab::params p = lab().with({{"block", std::int64_t(1024)}, {"n", std::int64_t(1024)}});
  const auto s = lab().predict("interleaved_strided", p);
  EXPECT_EQ(s.shared_load.requests, 73u);
  EXPECT_EQ(s.shared_load.wavefronts, 383u);
  EXPECT_GT(s.shared_load.conflicts_per_request(), 4.0);
}

TEST(ReductionTrace, LaterStagesTouchFewSharedWords) {
  const cudalab::params p = lab().with();
  // Kernels 5-7: steps s = 128, 64 over 4 + 2 warps, then warp 0 alone: 2 + 5 loads, and the sum's read.
  for (const char* v : {"unroll_last_warp", "unroll_complete"})
    EXPECT_DOUBLE_EQ(double(lab().predict(v, p).shared_load.requests), 20 * two_per_thread_blocks) << v;
  // Kernel 8: one shared load per block (warp 0 gathering the warp totals), 1056 blocks and then one.
  EXPECT_EQ(lab().predict("warp_shuffle", p).shared_load.requests, 1057u);
  // Kernel 9: that load and every warp's read of the last-block flag in each of 1056 blocks; the
  // last block gathers the totals once more.
  EXPECT_EQ(lab().predict("vector_single_pass", p).shared_load.requests, 1056u * (1 + 8) + 1);
}

TEST(ReductionTrace, TheVectorKernelsLastBlockFinishes) {
  // Each of the 1056 blocks takes a ticket (an atomic on the counter) and writes its partial; the last
  // reads the 1056 partials (33 warp steps), writes the result and resets the counter.
  const auto s = lab().predict("vector_single_pass", lab().with());
  EXPECT_EQ(s.global_atomic.requests, 1056u);
  EXPECT_EQ(s.global_atomic.sectors, 1056u);
  EXPECT_EQ(s.global_store.requests, 1056u + 2);
  EXPECT_EQ(s.global_load.requests, (std::uint64_t(1) << 28) / 128 + 33);
}

TEST(ReductionTrace, GlobalLoadsAreCoalesced) {
  const cudalab::params p = lab().with();
  const std::uint64_t n = std::uint64_t(1) << 28;
  for (std::size_t i = 0; i < 8; ++i) {
    SCOPED_TRACE(hand_written[i]);
    const auto s = lab().predict(hand_written[i], p);
    // Later passes read 1/256 as much again; only their last warps are partly filled.
    EXPECT_NEAR(s.global_load.sectors_per_request(), 4.0, 0.001);
    EXPECT_NEAR(s.global_load.efficiency(), 1.0, 0.001);
    EXPECT_NEAR(double(s.global_load.requests), double(n) / 32, double(n) / 32 * 0.005);
  }
  const auto v = lab().predict("vector_single_pass", p);
  EXPECT_NEAR(v.global_load.sectors_per_request(), 16.0, 0.1);
  EXPECT_NEAR(v.global_load.efficiency(), 1.0, 0.001);
  EXPECT_NEAR(double(v.global_load.requests), double(n) / 128, double(n) / 128 * 0.002);
}

TEST(ReductionTrace, OneElementIsOneLoadAndOneStore) {
  const cudalab::params p = lab().with({{"n", std::int64_t(1)}});
  for (const char* v : hand_written) {
    SCOPED_TRACE(v);
    const auto s = lab().predict(v, p);
    const bool vector = std::string(v) == "vector_single_pass";
    // Kernel 9's one block also reads its own partial back, and writes the result and the counter.
    EXPECT_EQ(s.global_load.requests, vector ? 2u : 1u);
    EXPECT_EQ(s.global_load.requested_bytes, vector ? 8u : 4u);
    EXPECT_EQ(s.global_load.sectors, vector ? 2u : 1u);
    EXPECT_EQ(s.global_store.requests, vector ? 3u : 1u);
    EXPECT_EQ(s.global_store.requested_bytes, vector ? 12u : 4u);
  }
}

TEST(ReductionTrace, VectorKernelReadsTheTailWithScalarLoads) {
  // 8191 floats fit one block: 2047 float4 vectors in 64 warp steps, the last one 31 lanes wide,
  // then 3 trailing floats read by threads 0..2 in one sector; then the block, the last, reads its
  // own partial back.
  const auto s = lab().predict("vector_single_pass", lab().with({{"n", std::int64_t(8191)}}));
  EXPECT_EQ(s.shared_load.requests, 1u + 8 + 1);  // the totals gathered twice, the flag read by 8 warps
  EXPECT_EQ(s.global_load.requests, 65u + 1);
  EXPECT_EQ(s.global_load.sectors, 64u * 16 + 1 + 1);
  EXPECT_EQ(s.global_load.requested_bytes, 8191u * 4 + 4);
}

TEST(ReductionTrace, RaggedTailsAreCountedExactly) {
  // n = 100003: kernel 3's first pass has 391 blocks of 256, the last holding 163 elements (6 warps
  // with work), its second 2 blocks over the 391 partials (8 + 5 warps), its third one (1 warp); kernel
  // 7's loop steps are the ceil(n / 32) aligned runs of 32 elements, whatever its grid, then 13 over
  // the 391 partials in one block.
  const cudalab::params p = lab().with({{"n", std::int64_t(100003)}});
  EXPECT_EQ(lab().predict("sequential", p).global_load.requests, 390u * 8 + 6 + 8 + 5 + 1);
  EXPECT_EQ(lab().predict("grid_stride", p).global_load.requests, (100003u + 31) / 32 + 13);
}

TEST(ReductionTrace, LibraryCallIsNotTraced) {
  const auto s = lab().predict("cub", lab().with());
  EXPECT_EQ(s.global_load.requests + s.global_store.requests + s.shared_load.requests, 0u);
}

TEST(ReductionTrace, IntTracesLikeFloat) {
  for (const char* v : hand_written) {
    const auto f = lab().predict(v, lab().with({{"n", std::int64_t(100003)}}));
    const auto i = lab().predict(v, lab().with({{"n", std::int64_t(100003)}, {"type", std::string("int")}}));
    EXPECT_EQ(f.global_load.sectors, i.global_load.sectors) << v;
    EXPECT_EQ(f.shared_load.wavefronts, i.shared_load.wavefronts) << v;
  }
}

}  // namespace
