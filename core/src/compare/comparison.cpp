// Comparing two runs: the verdict of each matched pair, from the change of the median and its interval.
#include "compare/comparison.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace cudalab::host {
namespace {

bool is_timed(const variant_result& r) {
  return r.status == result_status::ok && r.time.timed && std::isfinite(r.time.median_ms) && r.time.median_ms > 0;
}

// The repetition times a test can use: none when any is not a finite number.
bool has_samples(const variant_result& r) {
  return !r.time.repetition_ms.empty() && std::all_of(r.time.repetition_ms.begin(), r.time.repetition_ms.end(),
                                                      [](double v) { return std::isfinite(v); });
}

// Why a pair in both runs has no times to compare: "new: verify_failed", "base: not timed".
std::string untimed_note(const variant_result& base, const variant_result& next) {
  auto side = [](const char* name, const variant_result& r) -> std::string {
    if (r.status != result_status::ok) return std::string(name) + ": " + status_name(r.status);
    if (!is_timed(r)) return std::string(name) + ": not timed";
    return "";
  };
  const std::string b = side("base", base), n = side("new", next);
  return b.empty() ? n : n.empty() ? b : b + ", " + n;
}

void judge(compared_result& c, const compare_settings& s) {
  const variant_result& base = *c.base;
  const variant_result& next = *c.next;
  if (!is_timed(base) || !is_timed(next)) {
    c.outcome = verdict::untimed;
    c.note = untimed_note(base, next);
    return;
  }
  c.change_pct = (next.time.median_ms - base.time.median_ms) / base.time.median_ms * 100;
  const bool beyond = std::abs(c.change_pct) > s.threshold_pct;
  const verdict direction = c.change_pct > 0 ? verdict::slower : verdict::faster;
  if (!has_samples(base) || !has_samples(next)) {
    c.note = "no samples: threshold only";
    c.outcome = beyond ? direction : verdict::same;
    return;
  }
  c.test = mann_whitney_u(base.time.repetition_ms, next.time.repetition_ms);
  if (base.time.has_interval() && next.time.has_interval()) {
    // Both timed to a precision: the change counts where the medians' 95% intervals do not overlap.
    const bool apart =
        next.time.interval_lo_ms > base.time.interval_hi_ms || next.time.interval_hi_ms < base.time.interval_lo_ms;
    c.outcome = !beyond ? verdict::same : apart ? direction : verdict::unsure;
    if (c.outcome == verdict::unsure) c.note = "within the noise (the medians' 95% intervals overlap)";
    return;
  }
  if (!beyond) {
    c.outcome = verdict::same;
  } else if (c.test->p < s.alpha) {
    c.outcome = direction;
  } else {
    c.outcome = verdict::unsure;
    const std::size_t nb = c.test->base_count, nn = c.test->new_count;
    c.note = smallest_exact_p(nb, nn) >= s.alpha
                 ? fmt::format("{} vs {} repetitions: too few for p < {:g}", nb, nn, s.alpha)
                 : fmt::format("within the noise (p >= {:g})", s.alpha);
  }
}

void count(compare_counts& n, verdict v) {
  switch (v) {
    case verdict::same:
      ++n.same;
      break;
    case verdict::slower:
      ++n.slower;
      break;
    case verdict::faster:
      ++n.faster;
      break;
    case verdict::unsure:
      ++n.unsure;
      break;
    case verdict::untimed:
      ++n.untimed;
      break;
    case verdict::added:
      ++n.added;
      break;
    case verdict::removed:
      ++n.removed;
      break;
  }
}

}  // namespace

const char* verdict_name(verdict v) {
  switch (v) {
    case verdict::same:
      return "same";
    case verdict::slower:
      return "slower";
    case verdict::faster:
      return "faster";
    case verdict::unsure:
      return "unsure";
    case verdict::untimed:
      return "untimed";
    case verdict::added:
      return "added";
    case verdict::removed:
      return "removed";
  }
  return "?";
}

comparison compare_runs(const result_set& base, const result_set& next, const compare_settings& settings) {
  comparison out;
  out.settings = settings;
  out.base_file = base.file.string();
  out.new_file = next.file.string();
  out.base_context = base.context;
  out.new_context = next.context;
  const std::vector<result_key> base_keys = keys_of(base.results), new_keys = keys_of(next.results);
  for (const matched_result& m : match_results(base.results, next.results)) {
    compared_result c;
    const variant_result& shown = m.next ? next.results[*m.next] : base.results[*m.base];
    c.key = m.next ? new_keys[*m.next] : base_keys[*m.base];
    c.title = shown.title;
    c.point = shown.point;
    c.is_baseline = shown.is_baseline;
    if (m.base) c.base = base.results[*m.base];
    if (m.next) c.next = next.results[*m.next];
    if (!m.base) {
      c.outcome = verdict::added;
    } else if (!m.next) {
      c.outcome = verdict::removed;
    } else {
      judge(c, settings);
    }
    count(out.counts, c.outcome);
    out.results.push_back(std::move(c));
  }
  return out;
}

}  // namespace cudalab::host
