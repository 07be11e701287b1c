// Host references over large inputs, on every core: a loop over [0, n) cut into one contiguous chunk per
// worker thread. With counter-based inputs (cudalab/random.hpp) each chunk computes its own elements, so
// the result is the same whatever the number of threads - a CPU reference stays exact, only sooner.
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <thread>
#include <vector>

namespace cudalab {

/// How many chunks a host loop over n elements is cut into: one per hardware thread, at most one per
/// `min_chunk` elements (small loops stay on the calling thread), at least 1.
inline unsigned host_chunks(std::uint64_t n, std::uint64_t min_chunk = std::uint64_t(1) << 20) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const std::uint64_t by_size = std::max<std::uint64_t>(1, n / std::max<std::uint64_t>(1, min_chunk));
  return static_cast<unsigned>(std::min<std::uint64_t>(cores, by_size));
}

/// Calls body(chunk, begin, end) for each of `chunks` contiguous ranges that together cover [0, n) in
/// order (chunk 0 first), each on a thread of its own (chunk 0 on the calling thread), and returns once
/// all have returned. An exception thrown by a body is rethrown here (the first chunk's first).
/// REQUIRES: chunks >= 1; body may run concurrently with itself on different chunks.
template <typename Body>
void for_each_chunk(std::uint64_t n, unsigned chunks, Body&& body) {
  const auto begin_of = [&](unsigned c) { return n / chunks * c + std::min<std::uint64_t>(c, n % chunks); };
  std::vector<std::exception_ptr> errors(chunks);
  const auto run = [&](unsigned c) {
    try {
      body(c, begin_of(c), begin_of(c + 1));
    } catch (...) {
      errors[c] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(chunks - 1);
  for (unsigned c = 1; c < chunks; ++c) threads.emplace_back(run, c);
  run(0);
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace cudalab
