// Student's t-intervals for performance rounds (confidence.hpp).
#include "assignment/confidence.hpp"

#include <boost/math/distributions/students_t.hpp>

#include <cmath>
#include <numeric>

namespace cudalab::host {

std::optional<std::pair<double, double>> t_interval(const std::vector<double>& values, double level) {
  if (values.size() < 2) return std::nullopt;
  const double n = double(values.size());
  const double mean = std::accumulate(values.begin(), values.end(), 0.0) / n;
  double squares = 0;
  for (const double v : values) squares += (v - mean) * (v - mean);
  const double sd = std::sqrt(squares / (n - 1));
  const boost::math::students_t t(n - 1);
  const double half = boost::math::quantile(boost::math::complement(t, (1 - level) / 2)) * sd / std::sqrt(n);
  return std::make_pair(mean - half, mean + half);
}

bool straddles(const std::pair<double, double>& ci, double zero_at, double full_at) {
  auto inside = [&](double x) { return ci.first < x && x < ci.second; };
  return inside(zero_at) || inside(full_at);
}

}  // namespace cudalab::host
