// cudalab/host_parallel.hpp: the chunks cover [0, n) once, in order, whatever their number, and a body's
// exception reaches the caller.
#include "cudalab/host_parallel.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace cudalab {
namespace {

std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges(std::uint64_t n, unsigned chunks) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> seen(chunks, {1, 0});
  for_each_chunk(n, chunks, [&](unsigned c, std::uint64_t begin, std::uint64_t end) { seen[c] = {begin, end}; });
  return seen;
}

TEST(HostParallel, ChunksCoverTheRangeOnceInOrder) {
  for (const std::uint64_t n : {0ull, 1ull, 7ull, 64ull, 1000003ull})
    for (const unsigned chunks : {1u, 2u, 3u, 16u}) {
      const auto seen = ranges(n, chunks);
      std::uint64_t next = 0;
      for (const auto& [begin, end] : seen) {
        EXPECT_EQ(begin, next) << "n=" << n << " chunks=" << chunks;
        EXPECT_LE(begin, end);
        EXPECT_LE(end - begin, n / chunks + 1);  // even: no chunk more than one element longer
        next = end;
      }
      EXPECT_EQ(next, n) << "n=" << n << " chunks=" << chunks;
    }
}

TEST(HostParallel, EveryElementVisitedOnce) {
  std::vector<std::atomic<int>> visits(100003);
  for_each_chunk(visits.size(), 5, [&](unsigned, std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t i = begin; i < end; ++i) ++visits[i];
  });
  for (const std::atomic<int>& v : visits) ASSERT_EQ(v.load(), 1);
}

TEST(HostParallel, SmallLoopsStayOnOneChunk) {
  EXPECT_EQ(host_chunks(0), 1u);
  EXPECT_EQ(host_chunks(1000), 1u);
  EXPECT_GE(host_chunks(std::uint64_t(1) << 30), 1u);
  EXPECT_LE(host_chunks(std::uint64_t(3) << 20), 3u);
}

TEST(HostParallel, ABodysExceptionReachesTheCaller) {
  EXPECT_THROW(for_each_chunk(100, 4,
                              [](unsigned c, std::uint64_t, std::uint64_t) {
                                if (c == 2) throw std::runtime_error("chunk 2");
                              }),
               std::runtime_error);
}

}  // namespace
}  // namespace cudalab
