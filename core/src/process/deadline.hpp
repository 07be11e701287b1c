// A stop request that also comes when a time limit passes: a run bounded as a whole (an assignment's
// total_timeout_s), stopped the way Ctrl-C stops it, so that what was measured is still written.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace cudalab::host {

class stop_or_deadline {
 public:
  /// Watches `stop` (may be null) and the clock: requested() is set when `stop` is, or `limit_s`
  /// seconds after construction. Without a limit (0) it is `stop` itself and nothing watches.
  stop_or_deadline(const std::atomic<bool>* stop, double limit_s);
  ~stop_or_deadline();
  stop_or_deadline(const stop_or_deadline&) = delete;
  stop_or_deadline& operator=(const stop_or_deadline&) = delete;

  const std::atomic<bool>* requested() const { return watch_.joinable() ? &flag_ : stop_; }
  /// True once the time limit (not `stop`) set the flag.
  bool deadline_passed() const { return passed_.load(); }

 private:
  const std::atomic<bool>* stop_;
  std::atomic<bool> flag_{false}, passed_{false};
  std::mutex lock_;
  std::condition_variable done_;
  bool ending_ = false;
  std::thread watch_;
};

}  // namespace cudalab::host
