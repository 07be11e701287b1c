// Running the jobs of an isolated run on several workers at once, exclusive jobs alone.
#include "isolation/job_scheduler.hpp"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace cudalab::host {
namespace {

// Which jobs have started and which run now, under one lock.
class job_board {
 public:
  job_board(const std::vector<bool>& exclusive, const std::vector<std::size_t>& order)
      : exclusive_(exclusive), order_(order), started_(exclusive.size()) {
    if (order_.empty())
      for (std::size_t j = 0; j < exclusive_.size(); ++j) order_.push_back(j);
  }

  // The next job a free worker may start, marked started; none (false) once every job has started or
  // `halt` is set. Waits while a job waits for others to end.
  bool take(std::size_t& job, const std::atomic<bool>& halt) {
    std::unique_lock lock(mutex_);
    while (true) {
      if (halt.load()) return false;
      bool any_left = false;
      for (const std::size_t j : order_) {
        if (started_[j]) continue;
        any_left = true;
        const bool may = exclusive_[j] ? running_ == 0 : !exclusive_running_;
        if (!may) continue;
        started_[j] = true;
        running_++;
        exclusive_running_ = exclusive_[j];
        job = j;
        return true;
      }
      if (!any_left) return false;
      changed_.wait_for(lock, std::chrono::milliseconds(50));  // a job ends, or halt is set
    }
  }

  void done(std::size_t job) {
    {
      std::lock_guard lock(mutex_);
      running_--;
      if (exclusive_[job]) exclusive_running_ = false;
    }
    changed_.notify_all();
  }

  void wake() { changed_.notify_all(); }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  const std::vector<bool>& exclusive_;
  std::vector<std::size_t> order_;
  std::vector<bool> started_;
  std::size_t running_ = 0;
  bool exclusive_running_ = false;
};

}  // namespace

void run_jobs(const std::vector<bool>& exclusive, const std::vector<std::size_t>& order, std::size_t workers,
              const std::function<void(std::size_t job, std::size_t worker, const std::atomic<bool>& halt)>& run,
              const std::atomic<bool>* stop) {
  job_board board(exclusive, order);
  std::atomic<bool> halt{false};
  std::atomic<std::size_t> finished{0};
  std::mutex failure_mutex;
  std::exception_ptr failure;

  auto work = [&](std::size_t worker) {
    std::size_t job = 0;
    while (board.take(job, halt)) {
      try {
        run(job, worker, halt);
      } catch (...) {
        std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        halt = true;
      }
      board.done(job);
    }
    finished++;
    board.wake();
  };
  std::vector<std::thread> threads;
  for (std::size_t w = 0; w < workers; ++w) threads.emplace_back(work, w);
  // This thread passes Ctrl-C on to the workers (the signal handler only sets `stop`).
  while (finished.load() < workers) {
    if (stop && stop->load() && !halt.exchange(true)) board.wake();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  for (std::thread& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace cudalab::host
