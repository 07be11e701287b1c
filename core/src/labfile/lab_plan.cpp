// Sweep expansion: the cartesian product of a plan's axes, the last axis varying fastest.
#include <string>
#include <utility>
#include <vector>

#include "labfile/lab_plan.hpp"
#include "labfile/values.hpp"

namespace cudalab::host {

std::uint64_t lab_plan::point_count() const {
  std::uint64_t count = 1;
  for (const sweep_axis& axis : sweep) count *= axis.values.size();
  return count;
}

params lab_plan::point(std::uint64_t i) const {
  params p = base;
  for (auto axis = sweep.rbegin(); axis != sweep.rend(); ++axis) {
    const std::uint64_t size = axis->values.size();
    p.set(axis->name, axis->values[i % size]);
    i /= size;
  }
  return p;
}

std::vector<std::pair<std::string, std::string>> lab_plan::point_labels(std::uint64_t i) const {
  std::vector<std::pair<std::string, std::string>> labels(sweep.size());
  for (std::size_t a = sweep.size(); a-- > 0;) {
    const std::uint64_t size = sweep[a].values.size();
    labels[a] = {sweep[a].name, value_text(sweep[a].values[i % size])};
    i /= size;
  }
  return labels;
}

}  // namespace cudalab::host
