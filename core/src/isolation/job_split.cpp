// How a lab file's job is cut into parts of contiguous points over several workers.
#include "isolation/job_split.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace cudalab::host {

std::vector<std::uint64_t> split_points(const std::vector<double>& point_s, const std::vector<bool>& new_data,
                                        double run_s, std::size_t workers) {
  const std::size_t n = point_s.size();
  // before[p]: the planned seconds of the points before point p.
  std::vector<double> before(n + 1, 0);
  for (std::size_t p = 0; p < n; ++p) before[p + 1] = before[p] + point_s[p];
  const double file_s = before[n];
  // Why a quarter of a worker's share: a free worker takes the next job, so the workers end at most one
  // job apart, and jobs of a quarter of a share at most leave little idle at the end; finer parts
  // would gain little more and cost each its own child (a process, CUDA's start-up, a first setup).
  const double limit = run_s / (4.0 * double(workers));
  if (workers <= 1 || n <= 1 || !(file_s > limit)) return {0};
  // (Less a hair: the run's sum and the file's, added in another order, may differ in the last bits.)
  const std::size_t parts = std::min(n, static_cast<std::size_t>(std::ceil(file_s / limit - 1e-9)));
  const double part_s = file_s / double(parts);

  std::vector<std::uint64_t> firsts{0};
  for (std::size_t i = 1; i < parts; ++i) {
    const double target = double(i) * part_s;
    const auto off = [&](std::size_t p) { return std::abs(before[p] - target); };
    // Cuts after the last one that leave each part still to come at least one point.
    const std::size_t lo = firsts.back() + 1, hi = n - (parts - i);
    std::size_t nearest = lo;
    std::optional<std::size_t> new_data_cut;
    for (std::size_t p = lo; p <= hi; ++p) {
      if (off(p) < off(nearest)) nearest = p;
      if (new_data[p] && off(p) <= part_s / 4 && (!new_data_cut || off(p) < off(*new_data_cut))) new_data_cut = p;
    }
    firsts.push_back(new_data_cut.value_or(nearest));
  }
  return firsts;
}

}  // namespace cudalab::host
