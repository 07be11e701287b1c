// The histogram plugin on the CPU: its parameters, its input, each kernel's warp accesses from hand-made lanes, and
// the access model's exact totals (contention serialised, spread lanes, the grid and its tail).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "../histogram.hpp"
#include "../histogram_kernels.cuh"
#include "cudalab/testing.hpp"

namespace {

using cudalab::access_kind;
using cudalab::memory_space;
using cudalab::param_value;
using cudalab::params;

const cudalab::testing::lab_under_test& lab() {
  static const cudalab::testing::lab_under_test l("histogram");
  return l;
}

params with(const std::map<std::string, param_value>& overrides) { return lab().with(overrides); }

params point(std::int64_t n, std::int64_t bins, const char* distribution, std::int64_t block = 256) {
  return with({{"n", n}, {"bins", bins}, {"distribution", std::string(distribution)}, {"block", block}});
}

/// The seed lab_under_test::predict traces with (the default seed of lab files and of verify()).
constexpr std::uint64_t predict_seed = 2026;

/// Blocks of the grid on the model H100 (132 SMs, 2048 threads each) at block 256: 8 per SM.
constexpr std::uint64_t wave_256 = 132 * 8;

TEST(HistogramSpec, VariantsAndDefaults) {
  std::vector<std::string> names;
  for (const cudalab::variant_spec& v : lab().spec().variants) names.push_back(v.name);
  EXPECT_EQ(names, (std::vector<std::string>{"global_atomics", "shared_privatized", "shared_vectorized",
                                             "warp_aggregated", "cub"}));
  EXPECT_EQ(lab().spec().baseline, "cub");
  const params p = with({});
  EXPECT_EQ(p.integer("n"), std::int64_t(1) << 26);
  EXPECT_EQ(p.integer("bins"), 256);
  EXPECT_EQ(p.choice("distribution"), "uniform");
  EXPECT_DOUBLE_EQ(p.real("hot_fraction"), 0.9);
  EXPECT_EQ(p.integer("block"), 256);
}

TEST(HistogramSpec, RejectsBadParameters) {
  for (std::int64_t bins : {0, -1, 4097, 65536}) EXPECT_THROW(with({{"bins", bins}}), std::invalid_argument) << bins;
  for (std::int64_t bins : {1, 7, 1000, 4096}) EXPECT_NO_THROW(with({{"bins", bins}})) << bins;
  EXPECT_THROW(with({{"n", std::int64_t(0)}}), std::invalid_argument);
  EXPECT_THROW(with({{"n", (std::int64_t(1) << 31) + 1}}), std::invalid_argument);
  for (std::int64_t block : {0, 16, 100, 2048}) EXPECT_THROW(with({{"block", block}}), std::invalid_argument) << block;
  for (std::int64_t block : {32, 96, 1024}) EXPECT_NO_THROW(with({{"block", block}})) << block;
  for (double f : {-0.1, 1.5}) EXPECT_THROW(with({{"hot_fraction", f}}), std::invalid_argument) << f;
  EXPECT_THROW(with({{"distribution", std::string("zipf")}}), std::invalid_argument);
  EXPECT_THROW(histogram::distributions.value_of("zipf"), std::invalid_argument);
}

TEST(HistogramSpec, OnlyBlockTunes) {
  // A sweep over block keeps the point (retune): n, bins and the distribution make the input and reference.
  for (const cudalab::param_spec& p : lab().spec().params) EXPECT_EQ(p.tuning, p.name == "block") << p.name;
}

TEST(HistogramSpec, TrafficAndMemory) {
  const params p = point(1000, 300, "uniform");
  const cudalab::traffic t = lab().traffic_of("global_atomics", p);
  EXPECT_EQ(t.bytes_read, 4000u);
  EXPECT_EQ(t.bytes_written, 1200u);
  const cudalab::requirements r = lab().requirements_of(p);
  EXPECT_EQ(r.device_bytes, 4000u + 1200u + (1u << 20));
  EXPECT_EQ(r.host_bytes, 2400u);  // the reference and a downloaded result
  EXPECT_EQ(r.host_pinned_bytes, 0u);
}

histogram::input_values input_of(const params& p, std::uint64_t seed = predict_seed) {
  return histogram::parameters.read(p).values(seed);
}

TEST(HistogramInput, EveryValueIsABinAndEachDistributionHasItsShape) {
  const std::uint64_t n = 1 << 20;
  for (std::int64_t bins : {1, 7, 256, 4096}) {
    std::vector<std::uint64_t> counts(bins);
    const auto uniform = input_of(point(n, bins, "uniform"));
    for (std::uint64_t i = 0; i < n; ++i) ++counts.at(uniform(i));
    // Uniform: every bin within 6 standard deviations of n / bins (a binomial count's is about its sqrt).
    const double mean = double(n) / double(bins);
    for (std::int64_t b = 0; b < bins; ++b) EXPECT_NEAR(double(counts[b]), mean, 6 * std::sqrt(mean)) << b;
    const auto cyclic = input_of(point(n, bins, "cyclic"));
    for (std::uint64_t i : {0ull, 1ull, 255ull, 4097ull, 1000003ull}) EXPECT_EQ(cyclic(i), i % bins);
  }
  // Skewed: hot_fraction of the values in bin 0, the rest uniform over all bins (bin 0 included).
  const auto skewed = input_of(point(n, 256, "skewed"));
  std::uint64_t hot = 0;
  for (std::uint64_t i = 0; i < n; ++i) hot += skewed(i) == 0;
  EXPECT_NEAR(double(hot) / n, 0.9 + 0.1 / 256, 0.005);
  EXPECT_EQ(histogram::hot_threshold(0.0), 0u);
  EXPECT_EQ(histogram::hot_threshold(1.0), 1u << 24);
}

TEST(HistogramInput, TheHotFractionAndTheSeedDecide) {
  const auto all_hot = input_of(with({{"distribution", std::string("skewed")}, {"hot_fraction", 1.0}}));
  const auto none_hot = input_of(with({{"distribution", std::string("skewed")}, {"hot_fraction", 0.0}}));
  const auto uniform = input_of(with({}));
  const auto other_seed = input_of(with({}), predict_seed + 1);
  int differ = 0;
  for (std::uint64_t i = 0; i < 1000; ++i) {
    EXPECT_EQ(all_hot(i), 0u);
    EXPECT_EQ(none_hot(i), uniform(i));  // the same random word: skewed without hot values is uniform
    differ += uniform(i) != other_seed(i);
  }
  EXPECT_GT(differ, 900);
}

/// Keeps every access a trace records, in order.
class recording_sink final : public cudalab::trace_sink {
 public:
  std::vector<cudalab::warp_access> accesses;
  void access(const cudalab::warp_access& a) override { accesses.push_back(a); }
  void set_weight(std::uint64_t) override {}
  std::uint64_t weight() const override { return 1; }
  void sampled(std::uint64_t, std::uint64_t) override {}
};

histogram::warp_step step_of(const std::array<std::uint32_t, 32>& bins, unsigned lanes = 32) {
  histogram::warp_step s;
  s.first = 0;
  s.lanes = lanes;
  s.bin = bins;
  return s;
}

std::array<std::uint32_t, 32> bins_from(std::uint32_t (*bin_of_lane)(unsigned)) {
  std::array<std::uint32_t, 32> bins{};
  for (unsigned lane = 0; lane < 32; ++lane) bins[lane] = bin_of_lane(lane);
  return bins;
}

TEST(HistogramWarpTrace, EveryLaneSendsItsAtomicButOnlyGroupLeadersAggregate) {
  const auto one_bin = step_of(bins_from([](unsigned) { return 5u; }));
  recording_sink lanes, leaders;
  histogram::trace_lane_atomics(memory_space::global, one_bin, lanes);
  histogram::trace_leader_atomics(one_bin, leaders);
  ASSERT_EQ(lanes.accesses.size(), 1u);
  EXPECT_EQ(lanes.accesses[0].kind, access_kind::atomic);
  EXPECT_EQ(lanes.accesses[0].space, memory_space::global);
  EXPECT_EQ(lanes.accesses[0].bytes_per_lane, 4u);
  EXPECT_EQ(lanes.accesses[0].active, 0xffffffffu);
  for (unsigned lane = 0; lane < 32; ++lane) EXPECT_EQ(lanes.accesses[0].address[lane], 20u);
  ASSERT_EQ(leaders.accesses.size(), 1u);
  EXPECT_EQ(leaders.accesses[0].active, 1u);  // lane 0 adds 32 for all
  EXPECT_EQ(leaders.accesses[0].address[0], 20u);

  // Four bins in turn: lanes 0..3 lead; bins that repeat out of order: the lowest lane of each leads.
  recording_sink four, mixed;
  histogram::trace_leader_atomics(step_of(bins_from([](unsigned l) { return l % 4; })), four);
  histogram::trace_leader_atomics(step_of(bins_from([](unsigned l) { return l < 3 ? 9u - l : 7u + l % 3; })), mixed);
  EXPECT_EQ(four.accesses.at(0).active, 0xfu);
  for (unsigned lane = 0; lane < 4; ++lane) EXPECT_EQ(four.accesses[0].address[lane], 4u * lane);
  // Lanes 0, 1, 2 hold 9, 8, 7; then 7 + l % 3 repeats them (lane 3: 7, lane 4: 8, lane 5: 9, ...).
  EXPECT_EQ(mixed.accesses.at(0).active, 0x7u);
}

TEST(HistogramWarpTrace, ATailStepHasOnlyItsLanes) {
  const auto values = input_of(point(70, 256, "cyclic"));
  const histogram::warp_step step = histogram::step_at(values, 64, 70);
  EXPECT_EQ(step.lanes, 6u);
  recording_sink sink;
  histogram::trace_value_load(step, sink);
  histogram::trace_lane_atomics(memory_space::shared, step, sink);
  ASSERT_EQ(sink.accesses.size(), 2u);
  EXPECT_EQ(sink.accesses[0].kind, access_kind::load);
  EXPECT_EQ(sink.accesses[0].active, 0x3fu);
  for (unsigned lane = 0; lane < 6; ++lane) {
    EXPECT_EQ(sink.accesses[0].address[lane], 4u * (64 + lane));
    EXPECT_EQ(sink.accesses[1].address[lane], 4u * (64 + lane));  // cyclic: value i in bin i
  }
  EXPECT_EQ(sink.accesses[1].space, memory_space::shared);
  EXPECT_EQ(histogram::step_at(values, 96, 70).lanes, 0u);
}

TEST(HistogramWarpTrace, ZeroingAndFlushCoverEveryBinOnceAndAddOnlyCountedOnes) {
  recording_sink zeroing;
  histogram::trace_shared_zeroing(40, zeroing);
  ASSERT_EQ(zeroing.accesses.size(), 2u);
  EXPECT_EQ(zeroing.accesses[0].kind, access_kind::store);
  EXPECT_EQ(zeroing.accesses[0].active, 0xffffffffu);
  EXPECT_EQ(zeroing.accesses[1].active, 0xffu);
  EXPECT_EQ(zeroing.accesses[1].address[7], 4u * 39);

  std::vector<std::uint32_t> counts(72, 0);
  counts[0] = 3;
  counts[5] = 1;
  counts[65] = 7;  // bins 32..63 counted nothing
  recording_sink flush;
  histogram::trace_flush(counts, flush);
  // Per 32 bins: a shared load of all of them, an atomic from the lanes whose bin is not 0 (none: none sent).
  ASSERT_EQ(flush.accesses.size(), 5u);
  EXPECT_EQ(flush.accesses[0].space, memory_space::shared);
  EXPECT_EQ(flush.accesses[0].active, 0xffffffffu);
  EXPECT_EQ(flush.accesses[1].kind, access_kind::atomic);
  EXPECT_EQ(flush.accesses[1].space, memory_space::global);
  EXPECT_EQ(flush.accesses[1].active, (1u << 0) | (1u << 5));
  EXPECT_EQ(flush.accesses[2].kind, access_kind::load);  // bins 32..63: the load alone
  EXPECT_EQ(flush.accesses[3].kind, access_kind::load);
  EXPECT_EQ(flush.accesses[3].active, 0xffu);
  EXPECT_EQ(flush.accesses[4].active, 1u << 1);
  EXPECT_EQ(flush.accesses[4].address[1], 4u * 65);
}

TEST(HistogramWarpTrace, AQuadStepLoads16BytesALaneThenDoesFourAtomicsElementByElement) {
  // Cyclic over 256 bins, 70 values: 17 quads (one warp step of 17 lanes), then the tail 68, 69.
  const auto values = input_of(point(70, 256, "cyclic"));
  const histogram::quad_step step = histogram::quad_step_at(values, 0, 0, 17);
  EXPECT_EQ(step.lanes, 17u);
  recording_sink sink;
  histogram::trace_quad_load(step, sink);
  ASSERT_EQ(sink.accesses.size(), 1u);
  EXPECT_EQ(sink.accesses[0].kind, access_kind::load);
  EXPECT_EQ(sink.accesses[0].bytes_per_lane, 16u);
  EXPECT_EQ(sink.accesses[0].active, 0x1ffffu);
  for (unsigned lane = 0; lane < 17; ++lane) {
    EXPECT_EQ(sink.accesses[0].address[lane], 16u * lane);
    for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(step.element[k].bin[lane], 4 * lane + k);  // value 4 lane + k
  }
  EXPECT_EQ(histogram::quad_step_at(values, 0, 32, 17).lanes, 0u);

  // The leftovers: with no head, lanes 0 and 1 count the tail 68 and 69; a head of 3 (values 0..2) goes
  // first, the tail after it.
  recording_sink tail, both;
  EXPECT_EQ(histogram::trace_leftovers(values, 0, 68, 70, tail).lanes, 2u);
  ASSERT_EQ(tail.accesses.size(), 2u);
  EXPECT_EQ(tail.accesses[0].bytes_per_lane, 4u);
  EXPECT_EQ(tail.accesses[0].active, 0x3u);
  EXPECT_EQ(tail.accesses[0].address[1], 4u * 69);
  EXPECT_EQ(tail.accesses[1].space, memory_space::shared);
  EXPECT_EQ(tail.accesses[1].kind, access_kind::atomic);
  EXPECT_EQ(tail.accesses[1].address[0], 4u * 68);
  const histogram::warp_step leftovers = histogram::trace_leftovers(values, 3, 67, 70, both);
  EXPECT_EQ(leftovers.lanes, 6u);
  for (unsigned lane = 0; lane < 6; ++lane)
    EXPECT_EQ(both.accesses.at(0).address[lane], 4u * (lane < 3 ? lane : 64 + lane));
  recording_sink none;
  EXPECT_EQ(histogram::trace_leftovers(values, 0, 64, 64, none).lanes, 0u);
  EXPECT_TRUE(none.accesses.empty());
}

TEST(HistogramWarpTrace, TheHeadIsTheValuesBeforeTheFirst16ByteBoundary) {
  EXPECT_EQ(histogram::vector_head(0, 100), 0u);
  EXPECT_EQ(histogram::vector_head(256, 100), 0u);
  EXPECT_EQ(histogram::vector_head(4, 100), 3u);
  EXPECT_EQ(histogram::vector_head(8, 100), 2u);
  EXPECT_EQ(histogram::vector_head(12, 100), 1u);
  EXPECT_EQ(histogram::vector_head(4, 2), 2u);  // never past n
  EXPECT_EQ(histogram::vector_head(4, 0), 0u);
}

TEST(HistogramTrace, SharedVectorizedTracesItsQuadsAndItsTail) {
  // 70 cyclic values over 256 bins at block 32: 3 blocks of one warp. Block 0's warp loads the 17 quads
  // (272 bytes: 9 sectors), does 4 shared atomics (element k of lane l in bin 4l + k: lanes l, l + 8,
  // l + 16 on one bank, 3 words: 3 wavefronts each), then the tail 68, 69 (1 sector, 1 wavefront).
  const auto v = lab().predict("shared_vectorized", point(70, 256, "cyclic", 32));
  EXPECT_EQ(v.global_load.requests, 2u);
  EXPECT_EQ(v.global_load.sectors, 10u);
  EXPECT_EQ(v.shared_atomic.requests, 5u);
  EXPECT_EQ(v.shared_atomic.wavefronts, 4u * 3 + 1);
  EXPECT_EQ(v.shared_store.requests, 3u * 8);  // each block zeroes and reads back 256 bins
  EXPECT_EQ(v.shared_load.requests, 3u * 8);
  EXPECT_EQ(v.global_atomic.requests, 3u);  // block 0 counted bins 0..69: 3 flush steps; blocks 1, 2 none
  EXPECT_EQ(v.global_atomic.sectors, 4u + 4 + 1);

  // 1 Mi cyclic values over 256 bins: a quarter of the load requests, 16 sectors each (the same bytes);
  // 4 shared atomics per quad step, each with lanes l, l + 8, l + 16, l + 24 on one bank: 4 wavefronts
  // where shared_privatized's consecutive lanes took 1.
  const params wide = point(std::int64_t(1) << 20, 256, "cyclic");
  const auto q = lab().predict("shared_vectorized", wide);
  const std::uint64_t quad_steps = (std::uint64_t(1) << 18) / 32;
  EXPECT_EQ(q.global_load.requests, quad_steps);
  EXPECT_EQ(q.global_load.sectors, 16 * quad_steps);
  EXPECT_EQ(q.global_load.sectors, lab().predict("shared_privatized", wide).global_load.sectors);
  EXPECT_EQ(q.shared_atomic.requests, 4 * quad_steps);
  EXPECT_EQ(q.shared_atomic.wavefronts, 16 * quad_steps);
  // The grid is sized for n values, so the 8192 quad steps fill the first 1024 of its 1056 blocks'
  // warps; each of them sees every bin (its 8 warps step over 1024 consecutive values), the rest none.
  EXPECT_EQ(q.global_atomic.requests, 1024u * 8);
  // Every value in one bin: one wavefront per request, as shared_privatized.
  const auto one = lab().predict("shared_vectorized", point(std::int64_t(1) << 20, 1, "uniform"));
  EXPECT_EQ(one.shared_atomic.wavefronts, one.shared_atomic.requests);
}

TEST(HistogramTrace, AllLanesOnOneBinAreSerialisedInGlobalMemoryAndCombinedInShared) {
  // One warp, one block, every value in bin 0: 32 lanes on one word.
  const params p = point(32, 1, "uniform", 32);
  const auto global = lab().predict("global_atomics", p);
  EXPECT_EQ(global.global_load.requests, 1u);
  EXPECT_EQ(global.global_load.sectors, 4u);
  EXPECT_EQ(global.global_atomic.requests, 1u);
  EXPECT_EQ(global.global_atomic.sectors, 32u);  // one sector access per lane, one after another
  const auto aggregated = lab().predict("warp_aggregated", p);
  EXPECT_EQ(aggregated.global_atomic.requests, 1u);
  EXPECT_EQ(aggregated.global_atomic.sectors, 1u);  // lane 0 adds 32
  const auto privatized = lab().predict("shared_privatized", p);
  EXPECT_EQ(privatized.shared_atomic.requests, 1u);
  EXPECT_EQ(privatized.shared_atomic.wavefronts, 1u);  // the H100 combines lanes on one shared word
  EXPECT_EQ(privatized.shared_atomic.conflicts(), 0u);
  EXPECT_EQ(privatized.shared_store.requests, 1u);   // zeroing the one bin
  EXPECT_EQ(privatized.shared_load.requests, 1u);    // reading it back
  EXPECT_EQ(privatized.global_atomic.requests, 1u);  // and adding it
  EXPECT_EQ(privatized.global_atomic.sectors, 1u);

  // Every value hot, 4096 bins, 1 Mi values: the same per request, every request.
  const params hot = with({{"n", std::int64_t(1) << 20},
                           {"bins", std::int64_t(4096)},
                           {"distribution", std::string("skewed")},
                           {"hot_fraction", 1.0}});
  const auto g = lab().predict("global_atomics", hot);
  EXPECT_EQ(g.global_atomic.requests, 32768u);
  EXPECT_EQ(g.global_atomic.sectors, 32u * 32768);
  const auto a = lab().predict("warp_aggregated", hot);
  EXPECT_EQ(a.global_atomic.sectors, 32768u);
  const auto s = lab().predict("shared_privatized", hot);
  EXPECT_EQ(s.shared_atomic.wavefronts, 32768u);
  // Each block counted only bin 0: one flush atomic per block, from bins 0..31's warp step.
  EXPECT_EQ(s.global_atomic.requests, wave_256);
  EXPECT_EQ(s.shared_load.requests, wave_256 * 4096 / 32);
}

TEST(HistogramTrace, ConsecutiveBinsCoalesceAndFewBinsShareWords) {
  const std::uint64_t steps = 32768;  // 1 Mi values
  // Cyclic over 256 bins: each warp step adds to 32 consecutive counters, 4 sectors, one lane a word.
  const params wide = point(std::int64_t(1) << 20, 256, "cyclic");
  const auto g = lab().predict("global_atomics", wide);
  EXPECT_EQ(g.global_atomic.requests, steps);
  EXPECT_EQ(g.global_atomic.sectors, 4 * steps);
  EXPECT_EQ(lab().predict("warp_aggregated", wide).global_atomic.sectors, 4 * steps);
  const auto s = lab().predict("shared_privatized", wide);
  EXPECT_EQ(s.shared_atomic.requests, steps);
  EXPECT_EQ(s.shared_atomic.wavefronts, steps);
  // Every block sees every bin (warp w of every block steps over bins 32w..32w+31): 8 flush steps each.
  EXPECT_EQ(s.shared_store.requests, wave_256 * 8);
  EXPECT_EQ(s.shared_load.requests, wave_256 * 8);
  EXPECT_EQ(s.global_atomic.requests, wave_256 * 8);
  EXPECT_EQ(s.global_atomic.sectors, wave_256 * 8 * 4);

  // Cyclic over 8 bins: 4 lanes on each of 8 words of one sector; served 4 deep.
  const params narrow = point(std::int64_t(1) << 20, 8, "cyclic");
  EXPECT_EQ(lab().predict("global_atomics", narrow).global_atomic.sectors, 4 * steps);
  EXPECT_EQ(lab().predict("warp_aggregated", narrow).global_atomic.sectors, steps);
  const auto n8 = lab().predict("shared_privatized", narrow);
  EXPECT_EQ(n8.shared_atomic.wavefronts, steps);   // 4 lanes on each of 8 words, in banks 0..7: combined
  EXPECT_EQ(n8.global_atomic.requests, wave_256);  // the 8 bins: one flush step a block
  EXPECT_EQ(n8.global_atomic.sectors, wave_256);
}

/// What the access model gives a warp step, computed here from its lanes' bins (an independent
/// statement of the rule): atomics on global memory, each sector once per lane on its busiest word;
/// on shared memory, one wavefront per distinct word on the busiest bank (lanes on one word combined,
/// as the H100 counted); the leaders' atomics, the sectors
/// of the distinct bins.
struct step_cost {
  std::uint64_t global_sectors = 0, shared_wavefronts = 0, leader_sectors = 0;
};

step_cost cost_of(const histogram::warp_step& s) {
  std::map<std::uint32_t, std::map<std::uint32_t, unsigned>> lanes_on_word;  // sector -> bin -> lanes
  std::array<std::set<std::uint32_t>, 32> words_in_bank;
  for (unsigned lane = 0; lane < s.lanes; ++lane) {
    ++lanes_on_word[s.bin[lane] / 8][s.bin[lane]];
    words_in_bank[s.bin[lane] % 32].insert(s.bin[lane]);
  }
  step_cost c;
  for (const auto& [sector, words] : lanes_on_word) {
    unsigned busiest = 0;
    for (const auto& [bin, lanes] : words) busiest = std::max(busiest, lanes);
    c.global_sectors += busiest;
    c.leader_sectors += 1;
  }
  for (const auto& words : words_in_bank)
    c.shared_wavefronts = std::max<std::uint64_t>(c.shared_wavefronts, words.size());
  return c;
}

TEST(HistogramTrace, RandomInputsAreTracedFromTheValuesTheGpuCounts) {
  // n not a multiple of 32: 3126 warp steps, the last of 3 lanes; every step's lanes from the input of
  // the seed, as setup() fills it on the GPU.
  for (const char* distribution : {"uniform", "skewed"})
    for (std::int64_t bins : {1, 7, 256, 1000, 4096}) {
      SCOPED_TRACE(std::string(distribution) + " bins " + std::to_string(bins));
      const std::uint64_t n = 100003;
      const params p = point(std::int64_t(n), bins, distribution);
      const histogram::input_values values = input_of(p);
      step_cost total;
      std::uint64_t steps = 0;
      for (std::uint64_t first = 0; first < n; first += 32, ++steps) {
        const step_cost c = cost_of(histogram::step_at(values, first, n));
        total.global_sectors += c.global_sectors;
        total.shared_wavefronts += c.shared_wavefronts;
        total.leader_sectors += c.leader_sectors;
      }
      const auto g = lab().predict("global_atomics", p);
      EXPECT_EQ(g.global_atomic.requests, steps);
      EXPECT_EQ(g.global_atomic.sectors, total.global_sectors);
      EXPECT_EQ(g.global_load.requests, steps);
      EXPECT_EQ(g.global_load.sectors, 4 * (steps - 1) + 1);
      EXPECT_EQ(lab().predict("warp_aggregated", p).global_atomic.sectors, total.leader_sectors);
      EXPECT_EQ(lab().predict("shared_privatized", p).shared_atomic.wavefronts, total.shared_wavefronts);
      EXPECT_EQ(g.total_warps, 0u);  // every warp traced

      // shared_vectorized: 25000 quads (782 steps, the last of 8 lanes) of 4 elements each, then the
      // tail of 3 values (n % 4) in one step of its own.
      std::uint64_t quad_wavefronts = 0, quad_steps = 0;
      const std::uint64_t quads = n / 4;
      for (std::uint64_t first = 0; first < quads; first += 32, ++quad_steps) {
        const histogram::quad_step q = histogram::quad_step_at(values, 0, first, quads);
        for (const histogram::warp_step& element : q.element) quad_wavefronts += cost_of(element).shared_wavefronts;
      }
      histogram::warp_step tail;
      tail.lanes = 3;
      for (unsigned lane = 0; lane < 3; ++lane) tail.bin[lane] = values(4 * quads + lane);
      const auto v = lab().predict("shared_vectorized", p);
      EXPECT_EQ(quad_steps, 782u);
      EXPECT_EQ(v.global_load.requests, quad_steps + 1);
      EXPECT_EQ(v.global_load.sectors, 16 * (quad_steps - 1) + 4 + 1);
      EXPECT_EQ(v.shared_atomic.requests, 4 * quad_steps + 1);
      EXPECT_EQ(v.shared_atomic.wavefronts, quad_wavefronts + cost_of(tail).shared_wavefronts);
      EXPECT_EQ(v.total_warps, 0u);
    }
}

TEST(HistogramTrace, TheGridIsOneWaveOrWhatNNeeds) {
  // 1000 values at block 256: 4 blocks, each zeroing and flushing 256 bins (8 warp steps each).
  EXPECT_EQ(lab().predict("shared_privatized", point(1000, 256, "uniform")).shared_store.requests, 4u * 8);
  // 1 Mi values: one wave, 132 SMs x 2048 / block.
  EXPECT_EQ(lab().predict("shared_privatized", point(1 << 20, 256, "uniform")).shared_store.requests, wave_256 * 8);
  EXPECT_EQ(lab().predict("shared_privatized", point(1 << 20, 256, "uniform", 1024)).shared_store.requests,
            132u * 2 * 8);
  EXPECT_EQ(lab().predict("shared_privatized", point(1 << 20, 4000, "uniform", 96)).shared_store.requests,
            132u * 21 * 125);
  EXPECT_EQ(histogram::grid_blocks(1, 256, 132, 2048), 1u);
  EXPECT_EQ(histogram::grid_blocks(std::uint64_t(1) << 31, 256, 132, 2048), 1056u);
  EXPECT_EQ(histogram::grid_blocks(100, 1024, 0, 0), 1u);  // no device facts: one block
}

TEST(HistogramTrace, ExactUpToTwoMiValuesAnEvenSampleOfBlocksAbove) {
  const std::int64_t limit = std::int64_t(histogram::max_exact_steps) * 32;
  const auto exact = lab().predict("global_atomics", point(limit, 256, "uniform"));
  EXPECT_EQ(exact.total_warps, 0u);
  EXPECT_EQ(exact.global_atomic.requests, std::uint64_t(limit / 32));
  const auto sampled = lab().predict("global_atomics", point(std::int64_t(1) << 26, 256, "uniform"));
  EXPECT_EQ(sampled.total_warps, wave_256 * 8);
  EXPECT_LT(sampled.traced_warps, sampled.total_warps);
  EXPECT_NEAR(double(sampled.global_atomic.requests), double(1 << 21), 0.01 * (1 << 21));
  // An even sample of random lanes: the same sectors per request as every warp, within 1%.
  EXPECT_NEAR(sampled.global_atomic.sectors_per_request(), exact.global_atomic.sectors_per_request(),
              0.01 * exact.global_atomic.sectors_per_request());
}

TEST(HistogramTrace, LibraryCallIsNotTraced) { EXPECT_TRUE(lab().predict("cub", with({})).empty()); }

}  // namespace
