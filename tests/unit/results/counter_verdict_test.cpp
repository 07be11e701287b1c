// The verdict on a result's counters: global sectors per request within 2%, shared wavefront and
// conflict totals within 5%, a side without requests against one with some, and no model or no counters.
#include <gtest/gtest.h>

#include "results/counter_verdict.hpp"

namespace cudalab::host {
namespace {

// A result the model predicts 4 sectors per load request and `shared` wavefronts (all ideal, `ideal`
// per request) for 100 shared loads, counted as `sectors` and `wavefronts`/`address` and `conflicts`.
variant_result counted(std::uint64_t sectors, std::uint64_t predicted_wavefronts = 0, std::uint64_t wavefronts = 0,
                       std::uint64_t address = 0, std::uint64_t conflicts = 0) {
  variant_result r;
  r.has_model = true;
  r.model.global_load = {100, 400, 100, 12800};
  if (predicted_wavefronts) r.model.shared_load = {100, predicted_wavefronts, 100};
  r.has_measured = true;
  r.measured.kernels = 1;
  r.measured.global_load = {100, sectors};
  if (wavefronts) r.measured.shared_load = {100, 120, wavefronts, address, conflicts};
  return r;
}

TEST(CounterVerdict, SectorsPerRequestWithinTwoPercent) {
  EXPECT_EQ(judge_counters(counted(400)).text(), "matches");
  EXPECT_EQ(judge_counters(counted(408)).text(), "matches");  // +2.0%
  EXPECT_EQ(judge_counters(counted(392)).text(), "matches");  // -2.0%
  EXPECT_EQ(judge_counters(counted(409)).text(), "differs: ld s/r +2.2%");
  EXPECT_EQ(judge_counters(counted(300)).kind, verdict_kind::differs);
}

TEST(CounterVerdict, SharedTotalsWithinFivePercent) {
  // 3200 wavefronts predicted for 100 requests: 3100 conflicts. Counted: the addresses' wavefronts,
  // and the hardware's with 200 more from contention (counted as conflicts too).
  EXPECT_EQ(judge_counters(counted(400, 3200, 3400, 3200, 3300)).text(), "matches");
  const variant_result r = counted(400, 3200, 3600, 3400, 3500);
  EXPECT_EQ(r.measured.shared_load.address_conflicts(), 3300u);
  EXPECT_EQ(r.measured.shared_load.contention(), 200u);
  EXPECT_EQ(judge_counters(r).text(), "differs: sh ld wavefronts +6.2%, sh ld conflicts +6.5%");
  // No conflicts predicted: only none counted agrees.
  EXPECT_EQ(judge_counters(counted(400, 100, 110, 100, 10)).text(), "matches");
  EXPECT_EQ(judge_counters(counted(400, 100, 110, 101, 10)).text(), "differs: sh ld conflicts 1 (none predicted)");
}

TEST(CounterVerdict, ASideWithoutRequestsDiffersFromOneWithSome) {
  variant_result atomics = counted(400);
  atomics.measured.global_atomic = {1024, 1024};  // the model has none
  EXPECT_EQ(judge_counters(atomics).text(), "differs: atomic requests 1024 (none predicted)");
  variant_result nothing = counted(0);
  nothing.measured = {};  // its range held no kernel
  EXPECT_EQ(judge_counters(nothing).text(), "differs: ld requests -100.0%");
  variant_result shared_only_counted = counted(400);
  shared_only_counted.measured.shared_store = {10, 10, 10, 10, 0};
  EXPECT_EQ(judge_counters(shared_only_counted).text(), "differs: sh st wavefronts 10 (none predicted)");
}

TEST(CounterVerdict, NoModelOrNoCounters) {
  variant_result library = counted(400);
  library.has_model = false;
  EXPECT_EQ(judge_counters(library).kind, verdict_kind::not_modelled);
  EXPECT_EQ(judge_counters(library).text(), "not modelled");
  variant_result plain = counted(400);
  plain.has_measured = false;
  EXPECT_EQ(judge_counters(plain).kind, verdict_kind::none);
  EXPECT_EQ(judge_counters(plain).text(), "");
}

TEST(CounterVerdict, EveryCheckIsKeptWithItsNumbers) {
  const counter_verdict v = judge_counters(counted(412, 3200, 3400, 3200, 3300));
  ASSERT_EQ(v.checks.size(), 3u);
  EXPECT_EQ(v.checks[0].quantity, "ld s/r");
  EXPECT_DOUBLE_EQ(v.checks[0].predicted, 4.0);
  EXPECT_DOUBLE_EQ(v.checks[0].measured, 4.12);
  EXPECT_FALSE(v.checks[0].agrees);
  EXPECT_EQ(v.checks[1].quantity, "sh ld wavefronts");
  EXPECT_TRUE(v.checks[1].agrees);
  EXPECT_EQ(v.checks[2].quantity, "sh ld conflicts");
  EXPECT_DOUBLE_EQ(v.checks[2].measured, 3100);
}

}  // namespace
}  // namespace cudalab::host
