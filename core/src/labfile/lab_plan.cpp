// Sweep expansion: the cartesian product of a plan's dimensions, the last varying fastest; a dimension
// is an axis of its own or a zipped group whose axes take their i-th values together.
#include <string>
#include <utility>
#include <vector>

#include "labfile/lab_plan.hpp"
#include "labfile/values.hpp"

namespace cudalab::host {

std::vector<sweep_dimension> lab_plan::dimensions() const {
  std::vector<sweep_dimension> dims;
  for (std::size_t a = 0; a < sweep.size(); ++a) {
    const bool joins = a > 0 && sweep[a].zip != 0 && sweep[a].zip == sweep[a - 1].zip;
    if (joins)
      dims.back().last = a + 1;
    else
      dims.push_back({a, a + 1});
  }
  return dims;
}

std::uint64_t lab_plan::point_count() const {
  std::uint64_t count = 1;
  for (const sweep_dimension& d : dimensions()) count *= sweep[d.first].values.size();
  return count;
}

params lab_plan::point(std::uint64_t i) const {
  params p = base;
  const auto dims = dimensions();
  for (auto d = dims.rbegin(); d != dims.rend(); ++d) {
    const std::uint64_t size = sweep[d->first].values.size();
    for (std::size_t a = d->first; a < d->last; ++a) p.set(sweep[a].name, sweep[a].values[i % size]);
    i /= size;
  }
  return p;
}

std::vector<std::pair<std::string, std::string>> lab_plan::point_labels(std::uint64_t i) const {
  std::vector<std::pair<std::string, std::string>> labels(sweep.size());
  const auto dims = dimensions();
  for (auto d = dims.rbegin(); d != dims.rend(); ++d) {
    const std::uint64_t size = sweep[d->first].values.size();
    for (std::size_t a = d->first; a < d->last; ++a) labels[a] = {sweep[a].name, value_text(sweep[a].values[i % size])};
    i /= size;
  }
  return labels;
}

}  // namespace cudalab::host
