// A run's results read back for comparing and exporting: a results folder (its results.json, or the
// results.jsonl of a run that did not finish) or one of those files named directly.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "results/result.hpp"
#include "results/run_context.hpp"

namespace cudalab::host {

/// The results of one run, as `cudalab run` wrote them.
struct result_set {
  std::filesystem::path file;  ///< the file they were read from (results.json or results.jsonl)
  run_context context;
  std::vector<variant_result> results;  ///< in run order
};

/// A folder or file that holds no cudalab results, or one that cannot be read: the message names the
/// file and says why ("results/x/results.json: not a cudalab results.json: ...").
class result_set_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The largest results file (results.json, results.jsonl or context.json) read_result_set reads: a
/// file is read whole and parsed, which takes a few times its size in memory.
inline constexpr std::uintmax_t max_results_file_bytes = std::uintmax_t{256} << 20;

/// Reads the results at `path`: a results folder (its results.json; results.jsonl when there is no
/// results.json, as after a crash) or a results.json or results.jsonl file (a name ending in .jsonl is
/// read line by line, any other as results.json). Every result goes through results/json.hpp's
/// readers. Throws result_set_error, also for a file over max_results_file_bytes.
result_set read_result_set(const std::filesystem::path& path);

/// Throws result_set_error when a timed result of `set` has a time (median_ms, min_ms, max_ms, mean_ms
/// or a repetition's) that is not a positive finite number of milliseconds: no run measures one, so
/// the file was edited or broken, and a comparison of it would classify nonsense. The message names
/// the file, the result (its number in the file, lab file and variant) and the value.
void check_result_times(const result_set& set);

}  // namespace cudalab::host
