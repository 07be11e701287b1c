// Two runs compared result by result: each matched pair's change in median time and whether it is
// beyond both the threshold and the noise (significance.hpp), with the results only one run has.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "compare/result_match.hpp"
#include "compare/significance.hpp"
#include "results/result_set.hpp"

namespace cudalab::host {

/// What a comparison counts as a change.
struct compare_settings {
  double threshold_pct = 5;  ///< a change of the median time counts only beyond this, in %
  double alpha = 0.05;       ///< ... and only when the U test's p-value is below this (results without intervals)
};

/// What became of one result from the base run to the new one.
enum class verdict {
  same,     ///< the median moved by at most the threshold
  slower,   ///< beyond the threshold and significant: the medians' 95% intervals apart where both results
            ///< have one, else the U test (or, without samples, beyond the threshold)
  faster,   ///< likewise, the other way
  unsure,   ///< beyond the threshold, but the noise could explain it (intervals overlap, or p >= alpha)
  untimed,  ///< in both runs, but not timed and ok in both (a failure, verify-only): no times to compare
  added,    ///< only in the new run
  removed,  ///< only in the base run
};

/// "same", "slower", "faster", "unsure", "untimed", "added", "removed".
const char* verdict_name(verdict v);

/// One result of either run, or of both.
struct compared_result {
  result_key key;
  std::string title;                                       ///< the lab's title (the new run's where both have it)
  std::vector<std::pair<std::string, std::string>> point;  ///< swept name, value, in the lab file's order
  bool is_baseline = false;                  ///< the lab file's baseline variant (in the new run, else the base)
  std::optional<variant_result> base, next;  ///< absent where the run does not have it
  verdict outcome = verdict::same;
  double change_pct = 0;       ///< (new median - base median) / base median, in %; when both are timed
  std::optional<u_test> test;  ///< the U test, when both runs kept repetition times
  std::string note;            ///< why there is no test or verdict, in a few words ("no samples: threshold only")
};

/// How many results had each verdict.
struct compare_counts {
  std::size_t same = 0, slower = 0, faster = 0, unsure = 0, untimed = 0, added = 0, removed = 0;
};

/// Two runs compared.
struct comparison {
  compare_settings settings;
  std::string base_file, new_file;  ///< the files the runs were read from
  run_context base_context, new_context;
  std::vector<compared_result> results;  ///< in match_results' order
  compare_counts counts;

  /// Whether at least one result got slower beyond the threshold and the noise (exit 11).
  bool regression() const { return counts.slower > 0; }
};

/// Compares every result of `next` with the base run's result of the same key (result_match.hpp).
comparison compare_runs(const result_set& base, const result_set& next, const compare_settings& settings);

}  // namespace cudalab::host
