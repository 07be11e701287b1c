// A GPU's state as NVML reports it: the names of its clocks event reasons, the verdict on a run's two
// samples, a sample in words.
#include "results/gpu_state.hpp"

#include <fmt/format.h>

#include <utility>

namespace cudalab::host {
namespace {

// NVML's clocks event reasons (nvmlClocksEventReason*, formerly nvmlClocksThrottleReason*), as the NVML API
// Reference defines them (group nvmlClocksEventReasons; the bits kept their values through the rename).
constexpr std::uint64_t gpu_idle = 0x1, applications_clocks_setting = 0x2, sw_power_cap = 0x4, hw_slowdown = 0x8,
                        sync_boost = 0x10, sw_thermal_slowdown = 0x20, hw_thermal_slowdown = 0x40,
                        hw_power_brake_slowdown = 0x80, display_clock_setting = 0x100;

const std::pair<std::uint64_t, const char*> reason_names[] = {
    {gpu_idle, "gpu_idle"},
    {applications_clocks_setting, "applications_clocks_setting"},
    {sw_power_cap, "sw_power_cap"},
    {hw_slowdown, "hw_slowdown"},
    {sync_boost, "sync_boost"},
    {sw_thermal_slowdown, "sw_thermal_slowdown"},
    {hw_thermal_slowdown, "hw_thermal_slowdown"},
    {hw_power_brake_slowdown, "hw_power_brake_slowdown"},
    {display_clock_setting, "display_clock_setting"},
};

// How much a cumulative counter grew from `start` to `end`, in seconds (0 if it went back: the driver
// was reloaded in between); nullopt when either sample lacks it.
std::optional<double> grown_s(const std::optional<std::uint64_t>& start, const std::optional<std::uint64_t>& end) {
  if (!start || !end) return std::nullopt;
  return *end > *start ? double(*end - *start) / 1e9 : 0.0;
}

std::string joined(const std::vector<std::string>& parts, const char* between) {
  std::string text;
  for (const std::string& p : parts) text += (text.empty() ? "" : between) + p;
  return text;
}

std::string warning_text(const throttling& t, const std::string& gpu) {
  std::vector<std::string> how;
  if (t.power_violation_s.value_or(0) > 0)
    how.push_back(fmt::format("power capping for {:.3f} s", *t.power_violation_s));
  if (t.thermal_violation_s.value_or(0) > 0)
    how.push_back(fmt::format("thermal slowdown for {:.3f} s", *t.thermal_violation_s));
  if (!t.slowdown_reasons.empty())
    how.push_back("slowdown reasons active at its start or end: " + joined(t.slowdown_reasons, ", "));
  return fmt::format(
      "{} ran throttled during the {:.1f} s of the run: {}. Its timings may be low and noisy; a cooler GPU, or one "
      "with nothing else running on it, gives steadier ones",
      gpu, t.between_s, joined(how, "; "));
}

}  // namespace

std::vector<std::string> clocks_event_reason_names(std::uint64_t bits) {
  std::vector<std::string> names;
  for (const auto& [bit, name] : reason_names) {
    if (bits & bit) names.emplace_back(name);
    bits &= ~bit;
  }
  for (std::uint64_t bit = 1; bits != 0; bit <<= 1) {
    if (!(bits & bit)) continue;
    names.push_back(fmt::format("{:#x}", bit));
    bits &= ~bit;
  }
  return names;
}

std::uint64_t slowdown_reason_bits() {
  return sw_power_cap | hw_slowdown | sw_thermal_slowdown | hw_thermal_slowdown | hw_power_brake_slowdown;
}

std::vector<std::string> active_slowdowns(const gpu_sample& sample) {
  return clocks_event_reason_names(sample.clocks_event_reasons.value_or(0) & slowdown_reason_bits());
}

throttling judge_throttling(const gpu_sample& start, const gpu_sample& end, const std::string& gpu) {
  throttling t;
  t.between_s = double(end.taken_at_ms - start.taken_at_ms) / 1e3;
  t.power_violation_s = grown_s(start.power_violation_ns, end.power_violation_ns);
  t.thermal_violation_s = grown_s(start.thermal_violation_ns, end.thermal_violation_ns);
  const std::uint64_t slowed =
      (start.clocks_event_reasons.value_or(0) | end.clocks_event_reasons.value_or(0)) & slowdown_reason_bits();
  t.slowdown_reasons = clocks_event_reason_names(slowed);
  t.throttled = t.power_violation_s.value_or(0) > 0 || t.thermal_violation_s.value_or(0) > 0 || slowed != 0;
  if (t.throttled) t.warning = warning_text(t, gpu);
  return t;
}

std::string sample_text(const gpu_sample& s) {
  std::vector<std::string> parts;
  const auto clock = [&](const char* what, const std::optional<unsigned>& now, const std::optional<unsigned>& max,
                         const std::optional<unsigned>& applications) {
    if (!now) return;
    std::string text = fmt::format("{} {} MHz", what, *now);
    if (max) text += fmt::format(" of {}", *max);
    if (applications && applications != max) text += fmt::format(" (applications clock {})", *applications);
    parts.push_back(text);
  };
  clock("SM", s.sm_clock_mhz, s.max_sm_clock_mhz, s.applications_sm_clock_mhz);
  clock("memory", s.memory_clock_mhz, s.max_memory_clock_mhz, s.applications_memory_clock_mhz);
  if (s.power_w)
    parts.push_back(fmt::format("{:.1f} W", *s.power_w) +
                    (s.power_limit_w ? fmt::format(" of {:.0f} W", *s.power_limit_w) : ""));
  if (s.temperature_c) parts.push_back(fmt::format("{} °C", *s.temperature_c));
  if (s.performance_state) parts.push_back(fmt::format("P{}", *s.performance_state));
  if (s.clocks_event_reasons) {
    const auto names = clocks_event_reason_names(*s.clocks_event_reasons);
    parts.push_back("clocks event reasons: " + (names.empty() ? std::string("none") : joined(names, ", ")));
  }
  return parts.empty() ? "nothing NVML could read" : joined(parts, ", ");
}

}  // namespace cudalab::host
