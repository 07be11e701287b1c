// The verdict on a result's measured counters against the access model's prediction.
#include "results/counter_verdict.hpp"

#include <fmt/format.h>

#include <cmath>

namespace cudalab::host {

namespace {

// "+2.9%", "-12.5%"; "none predicted" when the model has 0 and the counter does not ("=" when neither has).
std::string difference_text(const counter_check& c) {
  if (c.predicted == 0) return c.measured == 0 ? "=" : "none predicted";
  return fmt::format("{:+.1f}%", 100.0 * (c.measured - c.predicted) / c.predicted);
}

}  // namespace

std::string counter_verdict::text() const {
  switch (kind) {
    case verdict_kind::none:
      return "";
    case verdict_kind::not_modelled:
      return "not modelled";
    case verdict_kind::matches:
      return "matches";
    case verdict_kind::differs:
      break;
  }
  std::string text;
  for (const counter_check& c : checks) {
    if (c.agrees) continue;
    text += text.empty() ? "differs: " : ", ";
    text += c.quantity + " " +
            (c.predicted == 0 ? fmt::format("{:.0f} ({})", c.measured, difference_text(c)) : difference_text(c));
  }
  return text;
}

namespace {

counter_check check(std::string quantity, double predicted, double measured, double tolerance) {
  counter_check c{std::move(quantity), predicted, measured, tolerance, false};
  // A difference of exactly the tolerance agrees, whatever the rounding of the ratios it comes from.
  c.agrees = predicted == 0 ? measured == 0 : std::abs(measured - predicted) <= (tolerance + 1e-9) * predicted;
  return c;
}

// Sectors per request of one kind of global access, when either side has such requests.
void check_global(counter_verdict& v, const char* name, const global_totals& model, const measured_global& m) {
  if (model.requests == 0 && m.requests == 0) return;
  if (model.requests == 0 || m.requests == 0) {  // one side has none: compare the requests themselves
    v.checks.push_back(check(std::string(name) + " requests", double(model.requests), double(m.requests), 0));
    return;
  }
  v.checks.push_back(
      check(std::string(name) + " s/r", model.sectors_per_request(), m.sectors_per_request(), sectors_tolerance));
}

// Wavefront and conflict totals of one kind of shared access, when either side has such requests.
void check_shared(counter_verdict& v, const char* name, const shared_totals& model, const measured_shared& m) {
  if (model.requests == 0 && m.requests == 0 && m.address_wavefronts == 0) return;
  v.checks.push_back(check(std::string(name) + " wavefronts", double(model.wavefronts), double(m.address_wavefronts),
                           shared_tolerance));
  v.checks.push_back(check(std::string(name) + " conflicts", double(model.conflicts()), double(m.address_conflicts()),
                           shared_tolerance));
}

}  // namespace

counter_verdict judge_counters(const variant_result& r) {
  counter_verdict v;
  if (!r.has_measured) return v;
  if (!r.has_model) {
    v.kind = verdict_kind::not_modelled;
    return v;
  }
  const access_stats& p = r.model;
  const measured_counters& m = r.measured;
  check_global(v, "ld", p.global_load, m.global_load);
  check_global(v, "st", p.global_store, m.global_store);
  check_global(v, "atomic", p.global_atomic, m.global_atomic);
  check_shared(v, "sh ld", p.shared_load, m.shared_load);
  check_shared(v, "sh st", p.shared_store, m.shared_store);
  check_shared(v, "sh atomic", p.shared_atomic, m.shared_atomic);
  bool all = true;
  for (const counter_check& c : v.checks) all = all && c.agrees;
  v.kind = all ? verdict_kind::matches : verdict_kind::differs;
  return v;
}

}  // namespace cudalab::host
