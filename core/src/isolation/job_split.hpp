// How a lab file's job is cut into parts over several workers (--devices): contiguous runs of its sweep
// points, each a job and a child of its own, small enough that the workers end close together.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cudalab::host {

/// The parts of a lab file whose points are planned to take `point_s` seconds each (every variant of
/// a point, which always stay together in one child), in a run planned at `run_s` seconds in all over
/// `workers` workers: the index of each part's first point, in order, the first being 0.
///
/// The rule: with one worker, or when the file is planned at no more than run_s / (4 x workers), it is
/// one part. Otherwise it is cut into as many parts of about equal planned time as that limit asks
/// for, never less than one point each. A cut moves, by at most a quarter of a part's planned time, to
/// the nearest point where `new_data` is true (the point sets up new data rather than retuning the
/// last one: a cut there costs no extra setup), so a part may exceed the limit by up to half.
/// REQUIRES: new_data.size() == point_s.size(), point_s not empty.
std::vector<std::uint64_t> split_points(const std::vector<double>& point_s, const std::vector<bool>& new_data,
                                        double run_s, std::size_t workers);

}  // namespace cudalab::host
