// The histogram lab on the GPU: every variant counts exactly at awkward sizes, bins, distributions and blocks, and a
// count added twice or not at all fails verification.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "cudalab/lab.hpp"
#include "cudalab/testing.hpp"

namespace {

using cudalab::testing::failures;

const cudalab::testing::lab_under_test& lab() {
  static const cudalab::testing::lab_under_test l("histogram");
  return l;
}

cudalab::params point(std::int64_t n, std::int64_t bins, const char* distribution, std::int64_t block = 256) {
  return lab().with({{"n", n}, {"bins", bins}, {"distribution", std::string(distribution)}, {"block", block}});
}

std::string point_text(std::int64_t n, std::int64_t bins, const char* distribution) {
  return "n=" + std::to_string(n) + " bins=" + std::to_string(bins) + " " + distribution;
}

TEST(HistogramGpu, EveryVariantAtAwkwardSizesBinsAndDistributions) {
  for (std::int64_t n : {std::int64_t(1), std::int64_t(2), std::int64_t(3), std::int64_t(5), std::int64_t(31),
                         std::int64_t(33), std::int64_t(1000), (std::int64_t(1) << 20) + 7})
    for (std::int64_t bins : {1, 7, 256, 1000, 4096})
      for (const char* distribution : {"uniform", "skewed", "cyclic"})
        EXPECT_EQ(failures(lab().verify(point(n, bins, distribution))), "") << point_text(n, bins, distribution);
}

TEST(HistogramGpu, EveryBlockSizeAndRetunedPoints) {
  for (std::int64_t block : {32, 96, 1024})
    for (std::int64_t n : {1, 6, 33, 100003})
      for (const char* distribution : {"uniform", "skewed"})
        EXPECT_EQ(failures(lab().verify(point(n, 1000, distribution, block))), "")
            << point_text(n, 1000, distribution) << " block " << block;
  // A sweep over block keeps the point: retune() takes the new block and grid, the input stays.
  for (const auto& [from, to] : {std::pair{1024, 32}, std::pair{32, 1024}, std::pair{256, 96}}) {
    const std::map<std::string, cudalab::param_value> base = {{"n", std::int64_t(1000003)},
                                                              {"distribution", std::string("skewed")}};
    auto at = [&](std::int64_t block) {
      auto p = base;
      p["block"] = block;
      return p;
    };
    EXPECT_EQ(lab().failures_retuned(at(from), at(to)), "") << from << " -> " << to;
  }
}

TEST(HistogramGpu, EveryValueInOneBinAndNoneHot) {
  for (double hot : {0.0, 1.0})
    for (std::int64_t bins : {1, 4096})
      EXPECT_EQ(lab().failures_at({{"n", (std::int64_t(1) << 22) + 3},
                                   {"bins", bins},
                                   {"distribution", std::string("skewed")},
                                   {"hot_fraction", hot}}),
                "")
          << "hot_fraction " << hot << " bins " << bins;
}

TEST(HistogramGpu, ManyValuesInTheHotBin) {
  // 2^24 + 5 values, 90% of them in bin 0: counts far past 2^16 in one word, many blocks adding them.
  EXPECT_EQ(failures(lab().verify(point((std::int64_t(1) << 24) + 5, 4096, "skewed"))), "");
  EXPECT_EQ(failures(lab().verify(point((std::int64_t(1) << 24) + 5, 33, "cyclic"))), "");
}

/// A session of the test's own: nothing prepares the outputs, so the test zeroes the counts itself
/// (or does not) and runs the point by hand.
class bare_session final : public cudalab::session {
 public:
  bare_session() {
    cudaDeviceProp prop{};
    CUDALAB_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    context_.seed = 2026;
    context_.device.sm_count = prop.multiProcessorCount;
    context_.device.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  }
  const cudalab::lab_context& context() const override { return context_; }
  void register_output(void* ptr, std::size_t bytes, cudalab::memory_kind, cudalab::output_init) override {
    counts = ptr;
    count_bytes = bytes;
  }
  void register_input(const void*, std::size_t, cudalab::memory_kind) override {}

  void* counts = nullptr;
  std::size_t count_bytes = 0;

 private:
  cudalab::lab_context context_;
};

TEST(HistogramGpu, ACountAddedTwiceOrNotAtAllFailsVerification) {
  // The counts are an accumulated output (output_init::zero): the host zeroes them before every run.
  // verify() must tell a run that added nothing (the zeroes left) or added on top of a run before.
  bare_session session;
  const std::unique_ptr<cudalab::lab_point> p = lab().instance().setup(point(100003, 256, "skewed"), session);
  ASSERT_NE(session.counts, nullptr);
  auto zero_counts = [&] { CUDALAB_CUDA_CHECK(cudaMemset(session.counts, 0, session.count_bytes)); };
  auto run_and_verify = [&](cudalab::variant_index v) {
    p->run(v, session.stream());
    CUDALAB_CUDA_CHECK(cudaDeviceSynchronize());
    return p->verify(v, session.context()).passed;
  };
  for (const char* name : {"global_atomics", "shared_privatized", "shared_vectorized", "warp_aggregated", "cub"}) {
    SCOPED_TRACE(name);
    const cudalab::variant_index v = lab().variant(name);
    zero_counts();
    EXPECT_TRUE(run_and_verify(v));
    // A second run on the same counts: every bin a run adds to doubles. CUB writes every bin itself.
    EXPECT_EQ(run_and_verify(v), std::string(name) == "cub");
    zero_counts();
    EXPECT_FALSE(p->verify(v, session.context()).passed) << "nothing added";
  }
}

}  // namespace
