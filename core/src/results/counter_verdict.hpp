// The verdict on a result's measured counters: does Nsight Compute agree with the access model? Global
// sectors per request within 2%, shared-memory wavefront and conflict totals within 5%.
#pragma once

#include <string>
#include <vector>

#include "results/result.hpp"

namespace cudalab::host {

/// How far global sectors per request may be from the model's (a fraction of the predicted value).
inline constexpr double sectors_tolerance = 0.02;
/// How far shared-memory wavefront and conflict totals may be from the model's.
inline constexpr double shared_tolerance = 0.05;

/// One quantity compared.
struct counter_check {
  std::string quantity;  ///< "ld s/r", "st s/r", "atomic s/r", "sh ld wavefronts", "sh st conflicts", ...
  double predicted = 0;
  double measured = 0;
  double tolerance = 0;  ///< a fraction of `predicted`; with predicted 0, only a measured 0 agrees
  bool agrees = false;
};

/// What the counters say of the model.
enum class verdict_kind {
  none,          ///< no counters (a run without --profile, or ncu could not count)
  not_modelled,  ///< counters, but no model to compare them with (a library call, a student's code)
  matches,       ///< every check agrees
  differs,       ///< at least one does not
};

/// The verdict on one result, with every check made.
struct counter_verdict {
  verdict_kind kind = verdict_kind::none;
  std::vector<counter_check> checks;  ///< in order: global loads, stores, atomics; shared loads, stores, atomics

  /// "matches", "not modelled", "differs: sh ld wavefronts +2.9%, sh ld conflicts 4526 (none predicted)";
  /// "" for none.
  std::string text() const;
};

/// Compares `r.measured` with `r.model`: for each kind of global access either side has, sectors per
/// request (a side with no requests differs from one with some); for each kind of shared access, the
/// wavefront total (the model against the wavefronts the addresses need) and the conflict total.
counter_verdict judge_counters(const variant_result& r);

}  // namespace cudalab::host
