// A stop request that also comes when a time limit passes (deadline.hpp).
#include "process/deadline.hpp"

namespace cudalab::host {

stop_or_deadline::stop_or_deadline(const std::atomic<bool>* stop, double limit_s) : stop_(stop) {
  if (limit_s <= 0) return;
  const auto start = std::chrono::steady_clock::now();
  const auto limit = std::chrono::duration<double>(limit_s);
  watch_ = std::thread([this, stop, start, limit] {
    std::unique_lock<std::mutex> g(lock_);
    while (!ending_) {
      if (stop && stop->load()) {
        flag_ = true;
        return;
      }
      if (std::chrono::steady_clock::now() - start >= limit) {
        passed_ = true;
        flag_ = true;
        return;
      }
      done_.wait_for(g, std::chrono::milliseconds(50));
    }
  });
}

stop_or_deadline::~stop_or_deadline() {
  if (!watch_.joinable()) return;
  {
    std::lock_guard<std::mutex> g(lock_);
    ending_ = true;
  }
  done_.notify_all();
  watch_.join();
}

}  // namespace cudalab::host
