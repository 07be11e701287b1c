// Running the jobs of an isolated run on several workers at once (one per GPU with --devices): each
// worker takes the first job it may start, and a job marked exclusive (one whose traffic crosses the
// host bus, which every GPU of the host shares) runs with no other job beside it.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <vector>

namespace cudalab::host {

/// Runs jobs 0..n-1 (n = exclusive.size()) on `workers` threads. A free worker takes the first job in
/// `order` (a permutation of 0..n-1; empty: 0..n-1) that it may start: an exclusive job only when no other job runs,
/// any other job only while no exclusive one runs; so a later job may start before an exclusive one that waits for the
/// others to end. `run(job, worker, halt)` runs one job on worker 0..workers-1; `halt` is set when `stop` is set
/// (Ctrl-C) or when a job threw, and then no further job starts: a running one should end early.
/// Returns once every started job has ended, rethrowing the first exception a job threw.
/// REQUIRES: workers >= 1.
void run_jobs(const std::vector<bool>& exclusive, const std::vector<std::size_t>& order, std::size_t workers,
              const std::function<void(std::size_t job, std::size_t worker, const std::atomic<bool>& halt)>& run,
              const std::atomic<bool>* stop);

}  // namespace cudalab::host
