// Which result of one run is which of another: the same lab file (by its file name: the runs may have
// named it by different paths), the same sweep point and the same variant.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "results/result.hpp"

namespace cudalab::host {

/// What identifies a result across runs.
struct result_key {
  std::string lab_file;  ///< the lab file's name without its folders ("alignment.toml")
  int occurrence = 1;    ///< 2, 3, ... for a second, third lab file of the same name in one run
  std::vector<std::pair<std::string, std::string>> point;  ///< swept name, value; sorted by name
  std::string variant;

  bool operator==(const result_key& other) const;
  bool operator<(const result_key& other) const;
};

/// How a result is shown in a comparison: "lab.toml", or "lab.toml (2)" for the second of that name.
std::string lab_file_label(const result_key& key);

/// The keys of a run's results, in their order: lab files of the same name are numbered in the order
/// they first appear.
std::vector<result_key> keys_of(const std::vector<variant_result>& results);

/// A result in one run, the other or both: indexes into the two runs' results.
struct matched_result {
  std::optional<std::size_t> base;  ///< absent: added in the new run
  std::optional<std::size_t> next;  ///< absent: removed (only in the base run)
};

/// Every result of the two runs, matched by key: first each result of `next` in its order, with the
/// base result of the same key (or none: added), then each base result left over, in its order
/// (removed). A key that appears more than once in a run (it should not) pairs its first occurrences
/// first.
std::vector<matched_result> match_results(const std::vector<variant_result>& base,
                                          const std::vector<variant_result>& next);

}  // namespace cudalab::host
