// stop_or_deadline: a stop request that also comes when a time limit passes.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "process/deadline.hpp"

using cudalab::host::stop_or_deadline;
using namespace std::chrono_literals;

namespace {
// Waits up to `most` for `flag`.
bool set_within(const std::atomic<bool>* flag, std::chrono::milliseconds most) {
  const auto end = std::chrono::steady_clock::now() + most;
  while (!flag->load() && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(5ms);
  return flag->load();
}
}  // namespace

TEST(StopOrDeadline, TheLimitSetsItAndSaysSo) {
  const stop_or_deadline d(nullptr, 0.1);
  EXPECT_FALSE(d.requested()->load());
  EXPECT_TRUE(set_within(d.requested(), 2000ms));
  EXPECT_TRUE(d.deadline_passed());
}

TEST(StopOrDeadline, TheStopRequestSetsItBeforeTheLimit) {
  std::atomic<bool> stop{false};
  const stop_or_deadline d(&stop, 3600);
  std::this_thread::sleep_for(60ms);
  EXPECT_FALSE(d.requested()->load());
  stop = true;
  EXPECT_TRUE(set_within(d.requested(), 2000ms));
  EXPECT_FALSE(d.deadline_passed());
}

TEST(StopOrDeadline, NoLimitIsTheStopRequestItself) {
  std::atomic<bool> stop{false};
  const stop_or_deadline d(&stop, 0);
  EXPECT_EQ(d.requested(), &stop);
  std::this_thread::sleep_for(120ms);
  EXPECT_FALSE(d.requested()->load());
  EXPECT_FALSE(d.deadline_passed());
}
