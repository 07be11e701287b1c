// The rule that cuts a lab file's job into parts over several workers (job_split.hpp): one part with
// one worker or a short file; else parts of about equal planned time, about the run's time over
// 4 x workers at most, never less than one point, cut where the data changes when that is near.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "isolation/job_split.hpp"

namespace cudalab::host {
namespace {

using firsts = std::vector<std::uint64_t>;

// `n` points of one second each, none sharing data with the one before it.
std::vector<double> seconds(std::size_t n) { return std::vector<double>(n, 1.0); }
std::vector<bool> all_new(std::size_t n) { return std::vector<bool>(n, true); }

TEST(JobSplit, OneWorkerOrAShortFileIsOnePart) {
  EXPECT_EQ(split_points(seconds(40), all_new(40), 40, 1), firsts{0});
  // Two workers: the limit is 80 / 8 = 10 s; a file of 10 s is within it.
  EXPECT_EQ(split_points(seconds(10), all_new(10), 80, 2), firsts{0});
  EXPECT_EQ(split_points(seconds(1), all_new(1), 1, 2), firsts{0});  // one point: nothing to cut
}

TEST(JobSplit, ALongFileIsCutIntoEqualParts) {
  // 20 s of 80: two parts of 10 s.
  EXPECT_EQ(split_points(seconds(20), all_new(20), 80, 2), (firsts{0, 10}));
  // 30 s of 80: three parts of 10 s.
  EXPECT_EQ(split_points(seconds(30), all_new(30), 80, 2), (firsts{0, 10, 20}));
  // 40 s of 160 over four workers (a limit of 10 s): four parts.
  EXPECT_EQ(split_points(seconds(40), all_new(40), 160, 4), (firsts{0, 10, 20, 30}));
}

TEST(JobSplit, NeverLessThanOnePoint) {
  // The file is the whole run: eight parts would be asked for, but it has three points.
  EXPECT_EQ(split_points(seconds(3), all_new(3), 3, 2), (firsts{0, 1, 2}));
  // A long first point is a part of its own; the rest still get a point each at least.
  EXPECT_EQ(split_points({50, 1, 1, 1}, all_new(4), 53, 2), (firsts{0, 1, 2, 3}));
}

// A sweep over n (data) x block (tuning): cuts move to the next n when it is within a quarter of a part.
TEST(JobSplit, CutsMoveToWhereTheDataChanges) {
  // 10 points, new data every 2 (n x 2 blocks); 3 parts of 3.33 s: the cuts at 3 and 7 move to 4 and 6.
  std::vector<bool> every_second(10, false);
  for (std::size_t p = 0; p < 10; p += 2) every_second[p] = true;
  EXPECT_EQ(split_points(seconds(10), all_new(10), 31, 2), (firsts{0, 3, 7}));
  EXPECT_EQ(split_points(seconds(10), every_second, 31, 2), (firsts{0, 4, 6}));
  // New data only every 10 points: too far from the cuts of 3 parts of 6.67 s (a quarter is 1.67 s),
  // which stay where the time says.
  std::vector<bool> every_tenth(20, false);
  every_tenth[0] = every_tenth[10] = true;
  EXPECT_EQ(split_points(seconds(20), every_tenth, 60, 2), (firsts{0, 7, 13}));
  // No new data at all (every point a retune of the first): cut where the time says.
  std::vector<bool> first_only(20, false);
  first_only[0] = true;
  EXPECT_EQ(split_points(seconds(20), first_only, 80, 2), (firsts{0, 10}));
}

// Any number of points of equal time (as a lab file's are: every point runs the same variants), any
// workers: the parts start at 0, rise, cover every point, there are as many as the limit asks for (at
// most one a point), and none is longer than 1.5 x the limit and a point.
TEST(JobSplit, PartsCoverEveryPointAndKeepToTheLimit) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 1000; ++trial) {
    const std::size_t n = 1 + rng() % 60, workers = 1 + rng() % 8;
    const double point_s = 0.01 + double(rng() % 100) / 10;
    std::vector<bool> new_data(n);
    for (std::size_t p = 0; p < n; ++p) new_data[p] = p == 0 || rng() % 3 == 0;
    const double file_s = point_s * double(n), run_s = file_s * (1 + double(rng() % 20));
    const firsts f = split_points(std::vector<double>(n, point_s), new_data, run_s, workers);
    const double limit = run_s / (4.0 * double(workers));
    const std::size_t parts =
        workers == 1 || file_s <= limit ? 1 : std::min<std::size_t>(n, std::ceil(file_s / limit - 1e-9));
    ASSERT_EQ(f.size(), parts) << "trial " << trial;
    EXPECT_EQ(f.front(), 0u);
    for (std::size_t i = 0; i < f.size(); ++i) {
      const std::uint64_t end = i + 1 < f.size() ? f[i + 1] : n;
      ASSERT_LT(f[i], end) << "trial " << trial;
      if (parts > 1) {
        EXPECT_LE(double(end - f[i]) * point_s, 1.5 * limit + point_s) << "trial " << trial;
      }
    }
  }
}

}  // namespace
}  // namespace cudalab::host
